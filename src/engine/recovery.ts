// Before cleanup: looks for what creates with a lost, refused or id-less answer may have stored.
import type { AuditConfig, CleanupReport } from '../core/types.js';
import type { HttpClient } from '../http/client.js';
import { idOf } from '../core/shapes.js';
import { compareWritten } from '../core/written.js';
import type { Ledger } from './ledger.js';
import type { Custody, Unaccounted } from './custody.js';
import { itemUrl } from '../core/addressing.js';
import { named } from '../core/named.js';
import { MAX_COLLECTION_PAGES, readCollection } from './collection-read.js';

type Entry = CleanupReport['leftovers'][number];

export interface Recovery {
  /** Items found and added to the ledger (cleanup deletes them like any other). */
  recovered: Entry[];
  /** What may be left behind, or appeared and is not the audit's to delete. */
  leftovers: Entry[];
}

/**
 * For each resource with unaccounted creates, reads the collection (within the page bound) and
 * compares it with what the audit knew before the first of them was sent. An item is taken into
 * the ledger (and so deleted) only when it appeared (no earlier answer showed it, the collection
 * was read whole before), is not the audit's already, and shows the values one of those creates
 * sent; at most one item per create. Anything else that appeared is reported, never deleted.
 */
export async function recover(
  client: HttpClient,
  ledger: Ledger,
  custody: Custody,
  config: AuditConfig,
): Promise<Recovery> {
  const out: Recovery = { recovered: [], leftovers: [] };
  for (const { resource, creates, more } of custody.unaccountedCreates()) {
    const r = named(config.resources, resource);
    if (!r) continue;
    const unmatched = [...creates];
    const report = (reason: string, url: string): void => {
      out.leftovers.push({ resource, url: client.redactor.text(url), reason: client.redactor.text(reason) });
    };
    if (more > 0)
      report(`${more} more creates got no usable answer; the audit did not keep them to look for`, r.path);
    if (!r.operations.includes('list')) {
      for (const c of unmatched)
        report(
          `${c.reason}; ${r.name} declares no list operation, so the audit cannot look for what it may have stored`,
          c.url,
        );
      continue;
    }
    const read = await readCollection(client, r);
    if (read.failure !== undefined) {
      for (const c of unmatched)
        report(
          `${c.reason}; the audit could not read the collection to look for it (${read.failure})`,
          c.url,
        );
      continue;
    }
    const since = Math.min(...creates.map((c) => c.point));
    const whole = read.whole && custody.seen.whole(resource);
    const others: string[] = [];
    for (const item of read.items) {
      const id = idOf(item, r.idField);
      const path = id === undefined ? undefined : itemUrl(r, id);
      if (id === undefined || path === undefined) continue;
      if (ledger.get(path) || custody.seen.seenBefore(resource, id, since)) continue;
      const url = client.resolve(path);
      const match = unmatched.find((c) => carries(c, item, r.idField, config.ignoreFields));
      if (!match) {
        others.push(url);
        continue;
      }
      if (!whole) {
        report(
          `appeared after ${match.reason} and shows the values sent, but not deleted: the audit could not read the whole collection before (more than ${MAX_COLLECTION_PAGES} pages, or more ids than it keeps), so it cannot tell it from an item that was there`,
          url,
        );
        unmatched.splice(unmatched.indexOf(match), 1);
        continue;
      }
      unmatched.splice(unmatched.indexOf(match), 1);
      ledger.add(resource, path, match.body);
      out.recovered.push({
        resource,
        url: client.redactor.text(url),
        reason: client.redactor.text(
          `found after ${match.reason}: it appeared in the collection, no earlier answer showed it, and it holds the values sent`,
        ),
      });
    }
    if (others.length > 0) {
      // Most likely other clients' items: one line, not one per item of a busy collection.
      report(
        `${others.length === 1 ? 'an item' : `${others.length} items (this one first)`} appeared in the collection after ${describe(creates)} but ${others.length === 1 ? 'does' : 'do'} not show the values the audit sent: not deleted (another client's?)`,
        others[0],
      );
    }
    for (const c of unmatched) {
      // A whole collection without it: nothing was stored (or nothing the collection lists).
      if (c.kind === 'no-id') report(c.reason, c.url);
      else if (!whole)
        report(
          `${c.reason}; the service may have stored it, and the audit could not read the whole collection to look for it (at most ${MAX_COLLECTION_PAGES} pages)`,
          c.url,
        );
    }
  }
  return out;
}

/** True when a listed item shows the values a create sent (no field contradicts, one at least agrees). */
function carries(create: Unaccounted, item: unknown, idField: string, ignore: string[]): boolean {
  if (create.body === undefined) return false;
  const comparison = compareWritten([create.body], item, idField, ignore);
  return comparison.contradictions.length === 0 && comparison.agreed > 0;
}

function describe(creates: Unaccounted[]): string {
  return creates.length === 1 ? creates[0].reason : `${creates.length} creates without a usable answer`;
}
