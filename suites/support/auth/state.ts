// What a request of the auth matrix did, in words: the state service's diff, and the item a 2xx POST or upsert created.
import type { Exchange, ResourceCheckContext } from '../../../src/core/check.js';
import type { ResourceConfig } from '../../../src/core/types.js';
import type { StateDiff } from '../../../src/core/state.js';
import { idOf, unwrapItem } from '../../../src/core/shapes.js';
import { itemUrl } from '../../../src/core/addressing.js';
import { existence } from '../../../src/core/error-body.js';
import { answered, statusText } from '../../../src/core/verdicts.js';

/** The path (and query) of an exchange's URL, for messages ("/v1/widgets/5", "/widgets?id=eq.5"). */
export function pathOf(x: Exchange): string {
  try {
    const u = new URL(x.url);
    return u.pathname + u.search;
  } catch {
    return x.url;
  }
}

/** What changed between two reads, in words, with the reads after that show it. */
export interface StateChange {
  changes: string[];
  evidence: Exchange[];
  /** "could not compare: …" when a read was cut short (then `changes` is empty: nothing is proven). */
  incomparable?: string;
}

/** Ids named in one phrase at most. */
const IDS = 5;

/**
 * A diff of the state service in words. Server-managed fields count here (a request the rules
 * say must be refused may not even touch `updatedAt`); items changed in place in the list are
 * told only when the item read told nothing.
 */
export function describeChange(r: ResourceConfig, diff: StateDiff): StateChange {
  if (diff.incomparable !== undefined) return { changes: [], evidence: [], incomparable: diff.incomparable };
  const out: StateChange = { changes: [], evidence: [] };
  for (const c of diff.items) {
    const now = `${answered(c.after)} with the full token`;
    if (c.kind === 'gone') out.changes.push(`the item is gone (${now})`);
    else if (c.kind === 'appeared') out.changes.push(`the item is back (${now})`);
    else if (c.kind === 'status')
      out.changes.push(`the item reads differently (${now}, was ${statusText(c.before)})`);
    else out.changes.push(`the item changed: ${c.paths.join(', ')}`);
    out.evidence.push(c.after);
  }
  const list = diff.collection;
  if (list) {
    const ids = (all: string[]): string => all.slice(0, IDS).join(', ');
    const changed = out.changes.length > 0 ? [] : list.changed;
    if (list.added.length > 0)
      out.changes.push(`new items in the collection: ${r.idField} ${ids(list.added)}`);
    if (list.vanished.length > 0)
      out.changes.push(`items vanished from the collection: ${r.idField} ${ids(list.vanished)}`);
    if (changed.length > 0) {
      const first = changed[0];
      out.changes.push(
        `items changed in the collection: ${r.idField} ${ids(changed.map((c) => c.id))} (${first.id}: ${first.paths.join(', ')})`,
      );
    }
    if (list.added.length + list.vanished.length + changed.length > 0) out.evidence.push(list.after);
  }
  return out;
}

/**
 * The read (full token) of the item a 2xx POST or an upsert names (id in the body, else a
 * same-origin Location), when it proves the item exists: a 2xx that is not an error object. An
 * answer `{"error": "not found"}` with 200 proves nothing was made.
 */
export async function readCreated(ctx: ResourceCheckContext, post: Exchange): Promise<Exchange | undefined> {
  const r = ctx.resource;
  let path: string | undefined;
  const id = idOf(unwrapItem(post.json, r.idField), r.idField);
  if (id !== undefined) path = itemUrl(r, id);
  else if (post.headers.location) {
    try {
      const target = new URL(post.headers.location, post.url);
      // The full token never leaves the audited origin.
      if (target.origin === new URL(post.url).origin) path = target.href;
    } catch {
      path = undefined;
    }
  }
  if (path === undefined || !r.operations.includes('read')) return undefined;
  return readExisting(ctx, path);
}

/** GETs `path` with the full token; the read when it proves an item there (2xx, no error object). */
export async function readExisting(ctx: ResourceCheckContext, path: string): Promise<Exchange | undefined> {
  const read = await ctx.send({ method: 'GET', path });
  return existence(read, ctx.resource) === 'exists' ? read : undefined;
}
