// Reading a resource's state with the full token before and after a request, to prove whether it acted.
import type { CheckContext, Exchange } from '../../../src/core/check.js';
import type { ResourceConfig } from '../../../src/core/types.js';
import {
  deepEqual,
  diffPaths,
  idOf,
  unwrapItem,
  unwrapItemLoose,
  unwrapList,
} from '../../../src/core/shapes.js';
import { answered, couldNotCompare, is2xx } from '../../../src/core/verdicts.js';
import { readNoise, withoutNoise } from '../../methods/support/read-noise.js';

/** The path of an exchange's URL, for messages ("/v1/widgets/5"). */
export function pathOf(x: Exchange): string {
  try {
    return new URL(x.url).pathname;
  } catch {
    return x.url;
  }
}

/** The collection and (when there is one) the known item, as the full token reads them. */
export interface StateView {
  list?: Exchange;
  item?: Exchange;
}

/** Reads the collection (when listable) and the item at `itemPath` (when readable), with the full token. */
export async function readState(ctx: CheckContext, r: ResourceConfig, itemPath?: string): Promise<StateView> {
  const [list, item] = await Promise.all([
    r.operations.includes('list') ? ctx.send({ method: 'GET', path: r.path }) : undefined,
    itemPath && r.operations.includes('read') ? ctx.send({ method: 'GET', path: itemPath }) : undefined,
  ]);
  return { list, item };
}

/** What changed between two reads, in words, with the reads after that show it. */
export interface StateChange {
  changes: string[];
  evidence: Exchange[];
  /** "could not compare: …" when a read was cut short (then `changes` is empty: nothing is proven). */
  incomparable?: string;
}

/**
 * What changed between two reads; no changes when nothing observable did. Items are compared
 * unwrapped and lists item by item (by id), so envelope metadata that differs on every answer
 * (request ids, timestamps of the answer) is no change. Server-managed fields of the items count:
 * a request that should have been refused must not even touch `updatedAt`.
 */
export function compareState(r: ResourceConfig, before: StateView, after: StateView): StateChange {
  const out: StateChange = { changes: [], evidence: [] };
  const cut = couldNotCompare(before.item, after.item, before.list, after.list);
  if (cut !== undefined) return { ...out, incomparable: cut };
  if (before.item?.status === 200 && after.item) {
    const was = unwrapItemLoose(before.item.json, r.idField);
    const now = unwrapItemLoose(after.item.json, r.idField);
    if (after.item.status !== 200) {
      out.changes.push(`the item is gone (${answered(after.item)} with the full token)`);
      out.evidence.push(after.item);
    } else if (!deepEqual(was, now)) {
      out.changes.push(`the item changed: ${diffPaths(was, now).join(', ')}`);
      out.evidence.push(after.item);
    }
  }
  const was = before.list?.status === 200 ? itemsById(r, before.list.json) : undefined;
  const now = after.list?.status === 200 ? itemsById(r, after.list.json) : undefined;
  if (was && now && after.list) {
    const ids = (m: Map<string, unknown>, other: Map<string, unknown>): string[] =>
      [...m.keys()].filter((id) => !other.has(id)).slice(0, 5);
    const added = ids(now, was);
    const removed = ids(was, now);
    // Items changed in place are already told by the item read, when there is one.
    const changed =
      out.changes.length > 0
        ? []
        : [...was.keys()].filter((id) => now.has(id) && !deepEqual(was.get(id), now.get(id)));
    if (added.length > 0) out.changes.push(`new items in the collection: ${r.idField} ${added.join(', ')}`);
    if (removed.length > 0)
      out.changes.push(`items vanished from the collection: ${r.idField} ${removed.join(', ')}`);
    if (changed.length > 0) {
      const first = changed[0];
      out.changes.push(
        `items changed in the collection: ${r.idField} ${changed.slice(0, 5).join(', ')} (${first}: ${diffPaths(was.get(first), now.get(first)).join(', ')})`,
      );
    }
    if (added.length + removed.length + changed.length > 0) out.evidence.push(after.list);
  }
  return out;
}

/**
 * What changed between two reads that reading itself does not explain: when `compareState` finds
 * a change, the state is read once more, and members that also change between those two reads
 * (a view counter, a "last read" stamp: IDEM-GET's business) are left out of the comparison.
 */
export async function changesBeyondReads(
  ctx: CheckContext,
  r: ResourceConfig,
  before: StateView,
  after: StateView,
  itemPath?: string,
): Promise<StateChange> {
  const change = compareState(r, before, after);
  if (change.changes.length === 0) return change;
  const again = await readState(ctx, r, itemPath);
  const cut = couldNotCompare(again.item, again.list);
  if (cut !== undefined) return { changes: [], evidence: [], incomparable: cut };
  const noise = readNoise([after.item?.json, after.list?.json], [again.item?.json, again.list?.json]);
  if (noise.size === 0) return change;
  const quiet = (view: StateView): StateView => ({
    item: view.item && { ...view.item, json: withoutNoise(view.item.json, noise) },
    list: view.list && { ...view.list, json: withoutNoise(view.list.json, noise) },
  });
  return compareState(r, quiet(before), quiet(after));
}

/** The items of a list body keyed by id; undefined when the body is not a recognisable list. */
function itemsById(r: ResourceConfig, body: unknown): Map<string, unknown> | undefined {
  const list = unwrapList(body, r.name);
  if (!list) return undefined;
  const out = new Map<string, unknown>();
  for (const item of list) {
    const id = idOf(item, r.idField);
    if (id !== undefined) out.set(id, item);
  }
  return out;
}

/**
 * For a 2xx POST: reads the item it names (id in the body, else Location) with the full token.
 * Returns the read when the item exists, i.e. the request created it.
 */
export async function readCreated(
  ctx: CheckContext,
  r: ResourceConfig,
  post: Exchange,
): Promise<Exchange | undefined> {
  let path: string | undefined;
  const id = idOf(unwrapItem(post.json, r.idField), r.idField);
  if (id !== undefined) path = `${r.path}/${encodeURIComponent(id)}`;
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
  const read = await ctx.send({ method: 'GET', path });
  return is2xx(read) ? read : undefined;
}
