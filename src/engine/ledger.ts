// The cleanup ledger: every item the audit created, deleted again at the end of the run.
import type { CleanupReport } from '../core/types.js';

export interface LedgerEntry {
  /** Resource name, or a label for other things (e.g. "webhook subscription"). */
  resource: string;
  /** Path relative to the base URL. */
  path: string;
  deleted: boolean;
  /**
   * The bodies the audit wrote to the item (its create, then each accepted PUT or PATCH, each
   * followed by what its answer showed for the fields sent; the create and the latest few):
   * cleanup deletes the item only while a read-back still holds them.
   * Empty for things registered without a body (ctx.track).
   */
  written: unknown[];
}

/** Bodies remembered per entry: the create (what was sent and what its answer showed) and the latest writes. */
const MAX_WRITTEN = 16;

export class Ledger {
  private readonly entries = new Map<string, LedgerEntry>();
  /** Each resource's entries, oldest first (a lookup per resource must not walk every entry). */
  private readonly byResource = new Map<string, LedgerEntry[]>();
  private readonly untrackable: CleanupReport['leftovers'] = [];

  /** Records a created item (idempotent per path), with the body that created it when known. */
  add(resource: string, path: string, body?: unknown): void {
    const existing = this.entries.get(path);
    const written = body === undefined ? [] : [body];
    if (existing) {
      // Created again at the same path after the audit deleted it: a new item.
      if (existing.deleted) existing.written = written;
      else if (body !== undefined) this.noteWrite(path, body);
      existing.deleted = false;
    } else {
      const entry: LedgerEntry = { resource, path, deleted: false, written };
      this.entries.set(path, entry);
      const list = this.byResource.get(resource);
      if (list) list.push(entry);
      else this.byResource.set(resource, [entry]);
    }
  }

  /** Remembers a body the audit wrote to one of its items (an accepted PUT or PATCH). */
  noteWrite(path: string, body: unknown): void {
    const entry = this.entries.get(path);
    if (!entry || entry.deleted || entry.written.length === 0) return;
    entry.written.push(body);
    if (entry.written.length > MAX_WRITTEN) entry.written.splice(2, 1);
  }

  /** The entry of a path, if the audit created it. */
  get(path: string): LedgerEntry | undefined {
    return this.entries.get(path);
  }

  /** Records something created that cannot be deleted (no id was returned). */
  addUntrackable(resource: string, url: string, reason: string): void {
    this.untrackable.push({ resource, url, reason });
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  /** True when the path was created by this audit (and so may be changed or deleted by it). */
  owns(path: string): boolean {
    return this.entries.has(path);
  }

  /**
   * Marks an item deleted. What the audit wrote to it is dropped: cleanup compares it only for
   * items still to delete, and a create at the same path starts a new record.
   */
  markDeleted(path: string): void {
    const entry = this.entries.get(path);
    if (entry) {
      entry.deleted = true;
      if (entry.written.length > 0) entry.written = [];
    }
  }

  /** The newest entry of the resource not deleted (as `pending().find` by resource would give it). */
  newestPending(resource: string): LedgerEntry | undefined {
    const list = this.byResource.get(resource) ?? [];
    for (let i = list.length - 1; i >= 0; i--) if (!list[i].deleted) return list[i];
    return undefined;
  }

  /** Entries still to delete, newest first (so dependants go before what they depend on). */
  pending(): LedgerEntry[] {
    return [...this.entries.values()].filter((e) => !e.deleted).reverse();
  }

  /** Every entry, deleted or not, newest first. */
  all(): LedgerEntry[] {
    return [...this.entries.values()].reverse();
  }

  get createdCount(): number {
    return this.entries.size + this.untrackable.length;
  }

  get untrackableLeftovers(): CleanupReport['leftovers'] {
    return this.untrackable;
  }
}
