// End-of-run cleanup: delete what the ledger holds (only while it still holds what the audit wrote), report the rest.
import type { AuditConfig, CleanupReport, ResourceConfig } from '../core/types.js';
import type { HttpClient } from '../http/client.js';
import { idOf, unwrapItem } from '../core/shapes.js';
import { deletedWithErrorBody, existence } from '../core/error-body.js';
import { compareWritten } from '../core/written.js';
import type { Ledger, LedgerEntry } from './ledger.js';
import type { Custody } from './custody.js';
import { recover } from './recovery.js';
import { basePathOf, targetIn } from '../core/addressing.js';
import { named } from '../core/named.js';
import { together } from './schedule.js';

/**
 * First looks for what creates without a usable answer stored (see recover). Then, for every
 * ledger entry not yet deleted: reads it back and deletes it only when the read-back still holds
 * what the audit wrote (else it is reported as not deleted, with the reason); 2xx, 404 and 410 count
 * as gone. Then reads every entry back: an item a DELETE "removed" that still reads as an item (a
 * 2xx that is not an error object) is reported as left behind, so a service whose DELETE does
 * nothing cannot make the report claim a clean run. A read-back that answers 2xx with an error
 * object proves no item: it is deleted, and the report says the API answers so (ERR-STATUS).
 */
export async function cleanup(
  client: HttpClient,
  ledger: Ledger,
  custody: Custody,
  config: AuditConfig,
  width: () => number = () => 8,
): Promise<CleanupReport> {
  const recovery = await recover(client, ledger, custody, config);
  const entries = ledger.all();
  const outcomes = new Array<EntryOutcome>(entries.length);
  // Entries do not depend on each other: they go together (as many at once as a check's batch,
  // see `together`), except that a parent's items wait for every item of the levels below (newest
  // first, one by one, put children before their parent: some services refuse to delete a parent
  // that has children).
  for (const level of byNesting(entries, config)) {
    await together(level, width, async (i) => {
      const r = named(config.resources, entries[i].resource);
      outcomes[i] = await cleanEntry(client, ledger, entries[i], r, config.ignoreFields);
    });
  }
  const leftovers: CleanupReport['leftovers'] = [...ledger.untrackableLeftovers, ...recovery.leftovers];
  const errorBodies: NonNullable<CleanupReport['deletedWithErrorBody']> = [];
  let deleted = 0;
  for (const outcome of outcomes) {
    if (outcome.leftover) leftovers.push(outcome.leftover);
    else deleted++;
    if (outcome.errorBody) errorBodies.push(outcome.errorBody);
  }
  return {
    created: deleted + leftovers.length,
    deleted,
    leftovers,
    ...(recovery.recovered.length > 0 ? { recovered: recovery.recovered } : {}),
    ...(errorBodies.length > 0 ? { deletedWithErrorBody: errorBodies } : {}),
  };
}

type Leftover = CleanupReport['leftovers'][number];
/** What became of one ledger entry: left behind (why), or gone (with the note of a 2xx error object). */
interface EntryOutcome {
  leftover?: Leftover;
  errorBody?: NonNullable<CleanupReport['deletedWithErrorBody']>[number];
}

/** Deletes one entry as `cleanup` says, and reads it back. */
async function cleanEntry(
  client: HttpClient,
  ledger: Ledger,
  entry: LedgerEntry,
  r: ResourceConfig | undefined,
  ignore: string[],
): Promise<EntryOutcome> {
  const url = client.redactor.text(client.resolve(entry.path));
  // Said of an item a check's DELETE had already removed (as far as its answer told).
  let deletion = 'deleted during the checks';
  if (!entry.deleted) {
    const changed = r ? await notAsWritten(client, entry, r, ignore) : undefined;
    if (changed) {
      return {
        leftover: { resource: entry.resource, url, reason: client.redactor.text(`not deleted: ${changed}`) },
      };
    }
    const exchange = await client.send({ method: 'DELETE', path: entry.path, auth: 'full' });
    const status = exchange.status;
    if (status === undefined || !((status >= 200 && status < 300) || status === 404 || status === 410)) {
      const reason =
        status === undefined
          ? `DELETE failed: ${exchange.error?.message ?? 'no answer'}`
          : `DELETE answered ${status}`;
      return { leftover: { resource: entry.resource, url, reason } };
    }
    ledger.markDeleted(entry.path);
    deletion = `DELETE answered ${status}`;
  }
  const check = await client.send({ method: 'GET', path: entry.path, auth: 'full' });
  const now = existence(check, r ?? 'id');
  if (now === 'exists') {
    return {
      leftover: {
        resource: entry.resource,
        url,
        reason: `${deletion}, but GET still answers ${check.status}: the item is still there`,
      },
    };
  }
  if (now !== 'error-body') return {};
  const reason = `${deletion}; ${deletedWithErrorBody(check.status as number)}`;
  return { errorBody: { resource: entry.resource, url, reason } };
}

/** Indexes of the entries, by nesting level of their resource (deepest first), ledger order within one. */
function byNesting(entries: readonly LedgerEntry[], config: AuditConfig): number[][] {
  const depth = (name: string, seen = 0): number => {
    const parent = named(config.resources, name)?.parent;
    return parent === undefined || seen > config.resources.length ? 0 : 1 + depth(parent, seen + 1);
  };
  const levels: number[][] = [];
  entries.forEach((entry, i) => (levels[depth(entry.resource)] ??= []).push(i));
  return levels.filter((level) => level !== undefined).reverse();
}

/**
 * Why the item no longer looks like the one the audit created (another id, or a field holding a
 * value the audit never wrote there), from one GET; undefined when it does, or when there is
 * nothing to compare (no read operation, no body remembered, no JSON answer: deleted as before).
 */
async function notAsWritten(
  client: HttpClient,
  entry: LedgerEntry,
  r: ResourceConfig,
  ignore: string[],
): Promise<string | undefined> {
  if (entry.written.length === 0 || !r.operations.includes('read')) return undefined;
  const read = await client.send({ method: 'GET', path: entry.path, auth: 'full' }, r.name);
  // Only an item can contradict what was written (a 2xx error object is none).
  if (existence(read, r) !== 'exists' || !read.isJson) return undefined;
  const id = idOf(unwrapItem(read.json, r.idField), r.idField);
  const ownId = targetIn([r], basePathOf(client.baseUrl), client.resolve(entry.path))?.id;
  if (ownId === undefined) return undefined;
  if (id !== undefined && id !== ownId && id.toLowerCase() !== ownId.toLowerCase()) {
    return `GET answers ${r.idField} ${id}, not ${ownId}: the URL names another item than the one the audit created`;
  }
  const { contradictions } = compareWritten(entry.written, read.json, r.idField, ignore);
  if (contradictions.length === 0) return undefined;
  return `the item no longer holds what the audit wrote (${contradictions.join('; ')}), so it may not be the audit's`;
}
