// RES-ITEM: /<collection>/<id> answers that one resource, and a created item is listed in its collection.
import { defineCheck, type CheckContext, type Exchange } from '../../src/core/check.js';
import { idOf, listIds, unwrapItem, unwrapList } from '../../src/core/shapes.js';
import { nextPage, pagingHint } from '../../src/core/paging.js';
import { answered, requestLine } from '../../src/core/verdicts.js';

/** Pages of a paged collection read while looking for the created items (each one request). */
const MAX_PAGES = 5;

export default defineCheck({
  kind: 'active',
  id: 'item-url-names-one',
  rules: ['RES-ITEM'],
  suite: 'resources',
  title: 'An item URL names exactly one resource, and created items are listed',
  severity: 'error',
  scope: 'resource',
  mutates: false,
  description: {
    sends:
      'Creates two items (under --read-only, or without a create operation: takes two listed items instead), GETs each item URL, and GETs the collection. When a created item is not on the first page of a paged collection it follows the "next" link or page number (at most 5 pages) and tries one filter by id (?<idField>=<id>).',
    passes:
      'Each item URL answers the item with that id (bare or in an envelope; numeric or string ids), and every created item is in the collection. Reading two items catches a URL that always answers the first or the latest item. When the collection is paged and the item could not be found within those few requests, that part is skipped, not failed.',
    why: 'Clients cache, link and update items by their URL; a URL that answers another item, or a list that hides new items, makes them show or overwrite the wrong data.',
  },
  async run(ctx) {
    const r = ctx.resource!;
    const canRead = r.operations.includes('read');
    const canList = r.operations.includes('list');
    if (!canRead && !canList) return ctx.skip(`${r.name} declares neither the read nor the list operation`);
    const canCreate = r.operations.includes('create') && r.sample !== undefined && !ctx.readOnly;
    if (!canCreate && !canRead) {
      return ctx.skip(
        `${r.name} declares no read operation, and the audit cannot create items to look for in the list`,
      );
    }
    let items: Array<{ id: string; path: string; exchange?: Exchange }>;
    if (canCreate) {
      items = [await ctx.create(), await ctx.create()];
    } else {
      const list = await ctx.send({ method: 'GET', path: r.path });
      const ids = listIds(list.json, r.idField, r.name) ?? [];
      if (ids.length === 0) {
        return ctx.skip(
          `the collection lists no items with a "${r.idField}" to read, and the audit cannot create any`,
        );
      }
      items = ids.slice(0, 2).map((id) => ({ id, path: ctx.itemPath(id) }));
    }

    const unjudged: string[] = [];
    let judged = 0;
    if (canRead) {
      for (const item of items) {
        const read = await ctx.send({ method: 'GET', path: item.path });
        const got = idOf(unwrapItem(read.json, r.idField), r.idField);
        if (read.status !== 200) {
          unjudged.push(`${answered(read)} (see read-collection-and-item)`);
        } else if (got === undefined) {
          unjudged.push(`${answered(read)} with no "${r.idField}" field to compare`);
        } else if (sameId(got, item.id)) {
          judged++;
        } else {
          judged++;
          ctx.fail({
            message: `${requestLine(read)} answered the item with ${r.idField} ${got}, not ${item.id}: the URL of one resource answers another`,
            evidence: [read],
          });
        }
      }
    }
    if (canList && canCreate) {
      const listed = await findListed(
        ctx,
        items.map((i) => i.id),
      );
      if (listed.inconclusive) unjudged.push(listed.inconclusive);
      else judged++;
      if (listed.missing.length > 0) {
        ctx.fail({
          message: `the created item${listed.missing.length > 1 ? 's' : ''} with ${r.idField} ${listed.missing.join(', ')} ${listed.missing.length > 1 ? 'are' : 'is'} missing from the collection (${listed.how})`,
          evidence: [...items.flatMap((i) => (i.exchange ? [i.exchange] : [])), ...listed.exchanges],
        });
      }
    }
    if (judged === 0) ctx.skip(`nothing could be judged: ${unjudged.join('; ')}`);
  },
});

/** Ids are compared as text; UUIDs case-insensitively. */
function sameId(a: string, b: string): boolean {
  return a === b || (/^[0-9a-f-]{32,36}$/i.test(a) && a.toLowerCase() === b.toLowerCase());
}

export interface Listed {
  /** Ids proven absent from a complete collection. */
  missing: string[];
  /** How absence was proven (for the message). */
  how?: string;
  /** Why absence could not be proven (a paged collection, no list in the answer...). */
  inconclusive?: string;
  exchanges: Exchange[];
}

/** Looks for the ids in the collection: the first page, a few more pages, then a filter by id. */
export async function findListed(ctx: CheckContext, ids: string[]): Promise<Listed> {
  const r = ctx.resource!;
  const first = await ctx.send({ method: 'GET', path: r.path });
  if (first.status !== 200) return { missing: [], inconclusive: `${answered(first)}`, exchanges: [first] };
  if (!unwrapList(first.json, r.name)) {
    return {
      missing: [],
      inconclusive: `${answered(first)} with no list the audit recognises`,
      exchanges: [first],
    };
  }
  const found = new Set(listIds(first.json, r.idField, r.name));
  let missing = ids.filter((id) => !found.has(id));
  if (missing.length === 0) return { missing, exchanges: [first] };

  const paged = pagingHint(first);
  // A first page that looks complete is the whole collection: absence from it is proven.
  if (!paged) return { missing, how: `${answered(first)} with a complete list`, exchanges: [first] };
  let page = first;
  /** The answer that listed the last id found (evidence for callers that look for a listed id). */
  let shown = first;
  let exhausted = false;
  for (let followed = 0; followed < MAX_PAGES && missing.length > 0; followed++) {
    const next = nextPage(page);
    if (next === undefined) {
      // The service says there is no further page: every page has been read.
      exhausted = followed > 0;
      break;
    }
    page = await ctx.send({ method: 'GET', path: next });
    const ids = page.status === 200 ? listIds(page.json, r.idField, r.name) : undefined;
    if (ids === undefined) break;
    if (ids.length === 0) {
      exhausted = true;
      break;
    }
    for (const id of ids) found.add(id);
    if (missing.some((id) => found.has(id))) shown = page;
    missing = missing.filter((id) => !found.has(id));
  }
  if (exhausted) {
    return { missing, how: `read every page to the last, ${requestLine(page)}`, exchanges: [first, page] };
  }
  for (const id of [...missing]) {
    const filtered = await ctx.send({
      method: 'GET',
      path: `${r.path}?${encodeURIComponent(r.idField)}=${encodeURIComponent(id)}`,
    });
    if (filtered.status === 200 && (listIds(filtered.json, r.idField, r.name) ?? []).includes(id)) {
      missing = missing.filter((m) => m !== id);
      shown = filtered;
    }
  }
  if (missing.length === 0) return { missing, exchanges: shown === first ? [first] : [first, shown] };
  return {
    missing: [],
    inconclusive: `the collection is paged (${paged}) and the created items were not found within ${MAX_PAGES} pages or by filtering on ${r.idField}`,
    exchanges: [first],
  };
}
