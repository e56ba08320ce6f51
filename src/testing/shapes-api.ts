// A tiny API of configurable shape (item by path, trailing slashes, query filter, nesting...), correct unless a break is set.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startRawFixture, type FixtureServer } from './fixture-server.js';

/** How the API is shaped; every shape is a valid choice, and the API is correct in it. */
export interface ShapesApiOptions {
  /** `path`: /v1/widgets/7; `slash`: /v1/widgets/ and /v1/widgets/7/ only (301 without); `filter`: /v1/widgets?id=eq.7 answering [item]. */
  addressing?: 'path' | 'slash' | 'filter';
  /** What a create answers: the item, a one-element array, {data: item}, only a Location (path or query), {meta: {newId}} without Location, or {ok: true} alone. */
  createAnswer?: 'item' | 'array' | 'envelope' | 'location' | 'meta' | 'nothing';
  /** Ids that need percent-encoding ("w 1/ä") instead of integers. */
  textIds?: boolean;
  /** Widgets carry a unique `email` (a second create of the same value answers 409). */
  uniqueEmail?: boolean;
  /** PUT must carry the item's id, equal to the URL's (PostgREST). */
  putNeedsId?: boolean;
  /** Adds customers with orders under them (/v1/customers/{cid}/orders/{id}); a customer with orders cannot be deleted (409). */
  nested?: boolean;
  breaks?: {
    /** DELETE answers 204 and does nothing. */
    ignoreDelete?: boolean;
    /** DELETE marks the item deleted; it still reads 200 with deleted: true. */
    softDelete?: boolean;
    /** A filter that matches nothing answers 200 [] (PostgREST) instead of 404. */
    emptyArrayForUnknown?: boolean;
  };
}

export interface ShapesFixture extends FixtureServer {
  snapshot: () => Record<string, unknown[]>;
}

type Item = Record<string, unknown> & { id: string | number };

/** Starts the shapes API on 127.0.0.1, port 0, with two pre-existing widgets (and a customer with an order). */
export async function startShapesApi(options: ShapesApiOptions = {}): Promise<ShapesFixture> {
  const mode = options.addressing ?? 'path';
  const stores = new Map<string, Map<string, Item>>();
  let next = 1;
  const newId = (): string | number => (options.textIds ? `w ${next++}/ä` : next++);
  const store = (key: string): Map<string, Item> => {
    let s = stores.get(key);
    if (!s) stores.set(key, (s = new Map()));
    return s;
  };
  const seed = (key: string, item: Record<string, unknown>): Item => {
    const made = { id: newId(), ...item } as Item;
    store(key).set(String(made.id), made);
    return made;
  };
  seed('widgets', { name: 'seed-a', price: 1, ...(options.uniqueEmail ? { email: 'a@example.com' } : {}) });
  seed('widgets', { name: 'seed-b', price: 2, ...(options.uniqueEmail ? { email: 'b@example.com' } : {}) });
  if (options.nested) {
    const customer = seed('customers', { name: 'Ada' });
    seed(`orders:${customer.id}`, { item: 'tea', qty: 1 });
  }
  const tokens = { full: 'shapes-full-token', limited: 'shapes-limited-token' };
  const slash = mode === 'slash' ? '/' : '';

  const handler = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body?: unknown, headers: Record<string, string> = {}): void => {
      const text = body === undefined ? '' : JSON.stringify(body);
      res.writeHead(status, { ...(text ? { 'content-type': 'application/json' } : {}), ...headers });
      res.end(text);
    };
    const error = (status: number, message: string, headers?: Record<string, string>): void =>
      send(status, { message }, headers);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString();
    const auth = req.headers.authorization ?? '';
    if (auth !== `Bearer ${tokens.full}` && auth !== `Bearer ${tokens.limited}`) {
      return error(401, 'authentication required', { 'www-authenticate': 'Bearer realm="shapes"' });
    }
    if (!url.pathname.startsWith('/v1/')) return error(404, 'no such path');
    const method = req.method ?? 'GET';
    if (method !== 'GET' && auth !== `Bearer ${tokens.full}`) return error(403, 'read-only token');

    // Route: [collection key, item id or undefined] from the path (and the filter).
    const parts = url.pathname.slice(4).split('/');
    const trailing = parts.at(-1) === '';
    if (trailing) parts.pop();
    if ((mode === 'slash') !== trailing) {
      if (mode !== 'slash') return error(404, 'no such path');
      return send(301, undefined, { location: `${url.pathname}/${url.search}` });
    }
    let key: string | undefined;
    let id: string | undefined;
    let segs: string[];
    try {
      segs = parts.map((p) => decodeURIComponent(p));
    } catch {
      return error(400, 'bad path');
    }
    if (segs[0] === 'widgets' && segs.length <= 2) [key, id] = ['widgets', segs[1]];
    if (options.nested && segs[0] === 'customers' && segs.length <= 2) [key, id] = ['customers', segs[1]];
    if (options.nested && segs[0] === 'customers' && segs[2] === 'orders' && segs.length <= 4) {
      if (!store('customers').has(segs[1])) return error(404, 'no such customer');
      [key, id] = [`orders:${segs[1]}`, segs[3]];
    }
    if (key === undefined) return error(404, 'no such collection');
    const filtered = mode === 'filter' && key === 'widgets';
    if (filtered) {
      if (id !== undefined) return error(404, 'no such path');
      const filter = url.searchParams.get('id');
      if (filter !== null) {
        if (!filter.startsWith('eq.') || filter.length === 3) return error(400, 'bad filter');
        id = filter.slice(3);
      } else if (['PUT', 'PATCH', 'DELETE'].includes(method)) return error(400, 'a write needs a filter');
    }
    const items = store(key);
    const shown = (item: Item): unknown => (filtered ? [item] : item);
    const itemUrl = (item: Item): string =>
      filtered
        ? `/v1/widgets?id=eq.${encodeURIComponent(String(item.id))}`
        : `${url.pathname.replace(/\/+$/, '')}/${encodeURIComponent(String(item.id))}${slash}`;

    let body: Record<string, unknown> | undefined;
    if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
      const type = (req.headers['content-type'] ?? '').split(';')[0].trim();
      if (type !== 'application/json') return error(415, 'send application/json');
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return error(400, 'not JSON');
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        return error(400, 'not an object');
      const problem = invalid(key, body, method === 'PATCH', options);
      if (problem) return error(400, problem);
    }
    const clean = (b: Record<string, unknown>): Record<string, unknown> =>
      Object.fromEntries(Object.entries(b).filter(([k]) => fieldsOf(key!, options).includes(k)));
    const taken = (b: Record<string, unknown>, self?: string): boolean =>
      options.uniqueEmail === true &&
      key === 'widgets' &&
      b.email !== undefined &&
      [...items.values()].some((i) => i.email === b.email && String(i.id) !== self && !i.deleted);

    if (id === undefined) {
      if (method === 'GET') return send(200, [...items.values()]);
      if (method !== 'POST') return error(405, 'not allowed', { allow: 'GET, POST' });
      if (taken(body!)) return error(409, 'email taken');
      const made = { id: newId(), ...clean(body!) } as Item;
      items.set(String(made.id), made);
      const answer = options.createAnswer ?? 'item';
      const location = { location: itemUrl(made) };
      if (answer === 'location') return send(201, undefined, location);
      if (answer === 'nothing') return send(201, { ok: true });
      if (answer === 'meta') return send(201, { meta: { newId: made.id } });
      if (answer === 'array') return send(201, [made], location);
      if (answer === 'envelope') return send(201, { data: made }, location);
      return send(201, shown(made), location);
    }
    const item = items.get(id);
    if (!item) {
      if (filtered && options.breaks?.emptyArrayForUnknown && method !== 'DELETE') return send(200, []);
      return error(404, 'no such item');
    }
    if (method === 'GET') return send(200, shown(item));
    if (method === 'DELETE') {
      if (key === 'customers' && store(`orders:${id}`).size > 0) return error(409, 'the customer has orders');
      if (options.breaks?.softDelete) item.deleted = true;
      else if (!options.breaks?.ignoreDelete) items.delete(id);
      return send(204);
    }
    if (method === 'PUT' || method === 'PATCH') {
      if (method === 'PUT' && options.putNeedsId && String(body!.id) !== String(item.id)) {
        return error(400, 'the body must carry the id of the URL');
      }
      if (taken(body!, id)) return error(409, 'email taken');
      const changed = { ...(method === 'PUT' ? {} : item), ...clean(body!), id: item.id } as Item;
      items.set(id, changed);
      return send(200, shown(changed));
    }
    return error(405, 'not allowed', { allow: 'GET, PUT, PATCH, DELETE' });
  };

  const server = await startRawFixture(
    (req, res) => {
      handler(req, res).catch(() => res.destroy());
    },
    { tokens },
  );
  return {
    ...server,
    snapshot: () =>
      Object.fromEntries(
        [...stores]
          .filter(([, s]) => s.size > 0)
          .map(([k, s]) => [k, [...s.values()].map((i) => ({ ...i }))]),
      ),
  };
}

/** The fields a collection stores (others are ignored). */
function fieldsOf(key: string, options: ShapesApiOptions): string[] {
  if (key === 'widgets') return ['name', 'price', ...(options.uniqueEmail ? ['email'] : [])];
  if (key === 'customers') return ['name'];
  return ['item', 'qty'];
}

/** Why a body is invalid (required fields on POST/PUT, types always), if it is. */
function invalid(
  key: string,
  body: Record<string, unknown>,
  partial: boolean,
  options: ShapesApiOptions,
): string | undefined {
  const types: Record<string, string> = {
    name: 'string',
    price: 'number',
    email: 'string',
    item: 'string',
    qty: 'number',
  };
  for (const field of fieldsOf(key, options)) {
    const value = body[field];
    if (value === undefined) {
      if (!partial) return `${field} is required`;
      continue;
    }
    if (typeof value !== types[field]) return `${field} must be a ${types[field]}`;
    if (typeof value === 'string' && value === '') return `${field} must not be empty`;
    if (typeof value === 'number' && value < 0) return `${field} must not be negative`;
  }
  return undefined;
}
