// Reading a resource's state with the full token before and after a request, to prove whether it acted.
import type { CheckContext, Exchange } from '../../../src/core/check.js';
import type { ResourceConfig } from '../../../src/core/types.js';
import { deepEqual, diffPaths, idOf, listIds, unwrapItem } from '../../../src/core/shapes.js';
import { answered, is2xx } from '../../../src/core/verdicts.js';

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

/**
 * What changed between two reads, in words; empty when nothing observable did. Server-managed
 * fields count too: a request that should have been refused must not even touch `updatedAt`.
 */
export function changesBetween(r: ResourceConfig, before: StateView, after: StateView): string[] {
  const out: string[] = [];
  if (before.item && after.item && before.item.status === 200) {
    if (after.item.status !== 200) {
      out.push(`the item is gone (${answered(after.item)} with the full token)`);
    } else if (!deepEqual(before.item.json, after.item.json)) {
      out.push(`the item changed: ${diffPaths(before.item.json, after.item.json).join(', ')}`);
    }
  }
  if (
    before.list?.status === 200 &&
    after.list?.status === 200 &&
    !deepEqual(before.list.json, after.list.json)
  ) {
    const was = listIds(before.list.json, r.idField, r.name);
    const now = listIds(after.list.json, r.idField, r.name);
    if (was && now) {
      const added = now.filter((id) => !was.includes(id));
      const removed = was.filter((id) => !now.includes(id));
      if (added.length > 0)
        out.push(`new items in the collection: ${r.idField} ${added.slice(0, 5).join(', ')}`);
      if (removed.length > 0)
        out.push(`items vanished from the collection: ${r.idField} ${removed.slice(0, 5).join(', ')}`);
      if (added.length === 0 && removed.length === 0 && out.length === 0)
        out.push(`the collection changed: ${diffPaths(before.list.json, after.list.json).join(', ')}`);
    } else if (out.length === 0) {
      out.push(`the collection changed: ${diffPaths(before.list.json, after.list.json).join(', ')}`);
    }
  }
  return out;
}

/**
 * The reads after the request that show a change (the message states the difference; reports
 * keep few evidence items per result, so the reads before it are left out).
 */
export function stateEvidence(before: StateView, after: StateView): Exchange[] {
  const out: Exchange[] = [];
  for (const key of ['item', 'list'] as const) {
    const b = before[key];
    const a = after[key];
    if (b && a && (b.status !== a.status || !deepEqual(b.json, a.json))) out.push(a);
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
