// `init` on a live API: how its items are addressed (a trailing slash, a query filter) and what OPTIONS allows, found without writing.
import { sameButSlash } from '../core/addressing.js';
import { idOf, unwrapList } from '../core/shapes.js';
import type { HttpClient } from '../http/client.js';

/** How a collection's items are read: the template (undefined: `<path>/{id}`), and one item's answer. */
export interface ItemShape {
  /** The collection path as the service serves it (`/widgets/` when it redirected there). */
  path: string;
  /** The item template when not the default (`/widgets/{id}/`, `/widgets?id=eq.{id}`). */
  item?: string;
  /** The answer to reading the known item, when one was read (200). */
  json?: unknown;
  /** Where the known item was read, for the starter's comment. */
  readAt?: string;
}

/**
 * The path a GET of `requested` ended at, when a redirect only added a trailing slash (Django) or
 * only took one away (FastAPI, whose collection is /widgets/ and whose items are /widgets/1):
 * that is where the service serves it. Any other redirect keeps the path requested.
 */
export function servedPath(requested: string, finalUrl: string, baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  if (!finalUrl.startsWith(base)) return requested;
  const served = finalUrl.slice(base.length).split(/[?#]/)[0];
  return sameButSlash(served, requested) ? served : requested;
}

/**
 * Reads the known item `id` at `<path>/<id>` (with the collection's trailing slash, and noting
 * a redirect that adds one); when that is not an item, at a query filter on the collection
 * (PostgREST's `?<idField>=eq.<id>`, then `?<idField>=<id>`): a filter counts when it answers a
 * one-element array holding that item and an id that does not exist answers an empty array (or
 * 404), so a service that ignores the query is not mistaken for one that filters.
 */
export async function itemShape(
  client: HttpClient,
  path: string,
  idField: string,
  id: string,
): Promise<ItemShape> {
  const trimmed = path.replace(/\/+$/, '');
  const slash = path.endsWith('/') ? '/' : '';
  const direct = `${trimmed}/${encodeURIComponent(id)}${slash}`;
  const one = await client.send({ method: 'GET', path: direct });
  if (one.status === 200 && !Array.isArray(one.json)) {
    const served = servedPath(direct, one.url, client.baseUrl);
    const itemSlash = served.endsWith('/') ? '/' : '';
    const item = `${trimmed}/{id}${itemSlash}`;
    return {
      path,
      ...(item !== `${trimmed}/{id}` ? { item } : {}),
      json: one.json,
      readAt: `${trimmed}/${id}${itemSlash}`,
    };
  }
  const absent = /^\d+$/.test(id) ? String(Number(id) + 987_654_321) : `${id}-absent-0`;
  for (const prefix of ['eq.', '']) {
    const at = (value: string): string =>
      `${path}?${encodeURIComponent(idField)}=${prefix}${encodeURIComponent(value)}`;
    const hit = await client.send({ method: 'GET', path: at(id) });
    const items = hit.status === 200 ? unwrapList(hit.json) : undefined;
    if (!items || items.length !== 1 || idOf(items[0], idField) !== id) continue;
    const miss = await client.send({ method: 'GET', path: at(absent) });
    const none = miss.status === 404 || (miss.status === 200 && unwrapList(miss.json)?.length === 0);
    if (!none) continue;
    return {
      path,
      item: `${path}?${encodeURIComponent(idField)}=${prefix}{id}`,
      json: hit.json,
      readAt: at(id),
    };
  }
  return { path };
}

/** The methods an OPTIONS request's Allow header lists, or undefined when it lists none. */
export async function allowed(client: HttpClient, path: string): Promise<string[] | undefined> {
  const answer = await client.send({ method: 'OPTIONS', path });
  const allow = answer.status !== undefined && answer.status < 300 ? answer.headers.allow : undefined;
  if (!allow) return undefined;
  return allow
    .split(',')
    .map((m) => m.trim().toUpperCase())
    .filter(Boolean);
}
