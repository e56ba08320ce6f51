// The cleanup ledger: every item the audit created, deleted again at the end of the run.
import type { CleanupReport } from '../core/types.js';

export interface LedgerEntry {
  /** Resource name, or a label for other things (e.g. "webhook subscription"). */
  resource: string;
  /** Path relative to the base URL. */
  path: string;
  deleted: boolean;
}

export class Ledger {
  private readonly entries = new Map<string, LedgerEntry>();
  private readonly untrackable: CleanupReport['leftovers'] = [];

  /** Records a created item (idempotent per path). */
  add(resource: string, path: string): void {
    const existing = this.entries.get(path);
    if (existing) existing.deleted = false;
    else this.entries.set(path, { resource, path, deleted: false });
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

  markDeleted(path: string): void {
    const entry = this.entries.get(path);
    if (entry) entry.deleted = true;
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
