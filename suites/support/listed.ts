// Whether ids are listed in a resource's collection: the first page, a few more pages, then a filter by id.
import type { Exchange, ResourceCheckContext } from '../../src/core/check.js';
import { listIds, unwrapList } from '../../src/core/shapes.js';
import { nextPage, pagingHint } from '../../src/core/paging.js';
import { answered, requestLine } from '../../src/core/verdicts.js';

/** Pages of a paged collection read while looking for the ids (each one request). */
export const MAX_PAGES = 10;

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
export async function findListed(ctx: ResourceCheckContext, ids: string[]): Promise<Listed> {
  const r = ctx.resource;
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
