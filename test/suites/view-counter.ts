// Example-API middleware: items count their reads in a `views` member (IDEM-GET's finding, and no other rule's).
import type { ServerResponse } from 'node:http';
import type { Middleware } from '../../src/example-api/index.js';
import { isInner, pathOf } from './self-requests.js';

const ITEM = /^\/v1\/(widgets|orders)\/([^/]+)$/;
const COLLECTION = /^\/v1\/(widgets|orders)$/;

/**
 * Every GET of an item (not the middleware's own calls) counts a view, and every representation
 * of the item shows the count as `views`: item answers, list entries, answers to writes. A correct
 * API but for IDEM-GET. `then` runs after it, so a fixture that breaks another rule gets the
 * counter too (its own calls to the API are not counted).
 */
export function countingViews(then?: Middleware): Middleware {
  const views = new Map<string, number>();
  return async (req, res, body) => {
    if (isInner(req)) return then ? then(req, res, body) : false;
    const path = pathOf(req);
    const item = ITEM.test(path);
    if (item && req.method === 'GET') views.set(path, (views.get(path) ?? 0) + 1);
    if (item || (COLLECTION.test(path) && req.method === 'GET')) {
      rewriteJson(res, (json) => withViews(json, item ? path : undefined, path, views));
    }
    return then ? then(req, res, body) : false;
  };
}

/** The body with `views` on the item (`itemPath`) or on every entry of a list of `collection`. */
function withViews(
  json: unknown,
  itemPath: string | undefined,
  collection: string,
  views: Map<string, number>,
): unknown {
  const show = (entry: unknown, path: string): unknown =>
    typeof entry === 'object' && entry !== null && !Array.isArray(entry) && 'id' in entry
      ? { ...entry, views: views.get(path) ?? 0 }
      : entry;
  if (itemPath !== undefined) return show(json, itemPath);
  const list = (json as { data?: unknown }).data;
  if (!Array.isArray(list)) return json;
  return {
    ...(json as object),
    data: list.map((e) => show(e, `${collection}/${String((e as { id?: unknown }).id)}`)),
  };
}

/** Rewrites a JSON answer's body on its way out (whoever writes it: the API or another middleware). */
function rewriteJson(res: ServerResponse, change: (json: unknown) => unknown): void {
  const writeHead = res.writeHead.bind(res) as (status: number, headers?: Record<string, string>) => unknown;
  const end = res.end.bind(res) as (chunk?: string | Buffer) => ServerResponse;
  (res as { writeHead: unknown }).writeHead = (status: number, headers: Record<string, string> = {}) => {
    const copy = Object.fromEntries(
      Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'content-length'),
    );
    return writeHead(status, copy);
  };
  (res as { end: unknown }).end = (chunk?: string | Buffer) => {
    if (chunk === undefined || chunk.length === 0) return end(chunk);
    try {
      return end(JSON.stringify(change(JSON.parse(String(chunk)))));
    } catch {
      return end(chunk);
    }
  };
}
