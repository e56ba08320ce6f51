// Reads a whole collection, page after page within a bound, for the engine's own bookkeeping.
import type { ResourceConfig } from '../core/types.js';
import type { HttpClient } from '../http/client.js';
import { nextPage, pagingHint } from '../core/paging.js';
import { unwrapList } from '../core/shapes.js';
import { answered } from '../core/verdicts.js';

/** Pages read at most (each one GET). */
export const MAX_COLLECTION_PAGES = 10;

export interface CollectionRead {
  /** The entries of every page read. */
  items: unknown[];
  /** True when the last page was reached (the service said there is no further page). */
  whole: boolean;
  /** Why the collection could not be read at all (undefined when the first page was read). */
  failure?: string;
}

/**
 * GETs the collection with the full token and follows its "next" links (Link header, a `next`
 * member, a page number; same origin only) up to MAX_COLLECTION_PAGES. Every answer passes through
 * the client, so the seen-ids registry learns the ids as they come.
 */
export async function readCollection(client: HttpClient, r: ResourceConfig): Promise<CollectionRead> {
  let page = await client.send({ method: 'GET', path: r.path, auth: 'full' }, r.name);
  const first = page.status === 200 ? unwrapList(page.json, r.name) : undefined;
  if (!first) {
    return {
      items: [],
      whole: false,
      failure: page.status === 200 ? `${answered(page)} with no list the audit recognises` : answered(page),
    };
  }
  const items = [...first];
  if (!pagingHint(page) && nextPage(page) === undefined) return { items, whole: true };
  for (let read = 1; read < MAX_COLLECTION_PAGES; read++) {
    const next = nextPage(page);
    if (next === undefined) return { items, whole: read > 1 || !pagingHint(page) };
    page = await client.send({ method: 'GET', path: next, auth: 'full' }, r.name);
    const entries = page.status === 200 ? unwrapList(page.json, r.name) : undefined;
    if (!entries) return { items, whole: false };
    if (entries.length === 0) return { items, whole: true };
    // One by one: a page of hundreds of thousands of entries is more arguments than a call takes.
    for (const entry of entries) items.push(entry);
  }
  return { items, whole: nextPage(page) === undefined && !pagingHint(page) };
}
