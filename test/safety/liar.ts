// A lying service: a small widgets API holding records of someone else, whose answers to writes lie in one way.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { posix } from 'node:path';
import { startRawFixture, type FixtureServer } from '../../src/testing/fixture-server.js';
import { TOKEN } from './helpers.js';

export type Lie =
  /** POST stores a new record but answers 201 with the sample's fields and the id of record 1. */
  | 'existing-id'
  /** POST stores a new record but answers 201 with no body and an absolute Location naming record 1. */
  | 'existing-location'
  /** POST stores a new record but answers 201 with no body and a Location on another origin. */
  | 'other-origin-location'
  /** POST stores a new record but answers its id as "x/../1"; item paths are decoded and normalised. */
  | 'dot-id'
  /** PUT, PATCH and DELETE of the audit's items answer 307 to record 1. */
  | 'redirect-writes'
  /** POST answers 301 to record 1 (and stores nothing). */
  | 'redirect-create'
  /** POST stores the record, then resets the connection: the answer is lost. */
  | 'lost-create'
  /** POST stores the record, then never answers: the audit times out. */
  | 'lost-create-silent';

export interface LiarServer extends FixtureServer {
  /** The records as stored, for before/after comparisons. */
  records(): Array<Record<string, unknown>>;
  /** Requests other than GET that reached a record of someone else (after path normalisation). */
  writesToOthers: string[];
  /** Records a POST stored. */
  stored: number;
}

/** Records that existed before the audit: someone else's data. */
const OTHERS: Array<Record<string, unknown>> = [
  { id: 1, name: 'main valve', price: 1200, owner: 'plant-3' },
  { id: 2, name: 'spare valve', price: 900, owner: 'plant-3' },
  { id: 3, name: 'gasket', price: 4, owner: 'stores' },
];

const JSON_TYPE = { 'content-type': 'application/json' };

/** Starts the lying service; `otherOrigin` is where the other-origin Location points. */
export async function startLiar(lie: Lie, otherOrigin = 'http://127.0.0.1:9'): Promise<LiarServer> {
  const records = OTHERS.map((r) => ({ ...r }));
  let nextId = 100;
  const state = { writesToOthers: [] as string[], stored: 0 };
  let origin = '';
  const send = (
    res: ServerResponse,
    status: number,
    body?: unknown,
    headers: Record<string, string> = {},
  ): void => {
    res.writeHead(status, body === undefined ? headers : { ...JSON_TYPE, ...headers });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
  const handler = (req: IncomingMessage, res: ServerResponse, raw: string): void => {
    const method = req.method ?? 'GET';
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      return send(res, 401, { error: 'unauthorized' }, { 'www-authenticate': 'Bearer realm="liar"' });
    }
    const url = new URL(req.url ?? '/', 'http://liar');
    if (
      ['POST', 'PUT', 'PATCH'].includes(method) &&
      !/^application\/json/.test(req.headers['content-type'] ?? '')
    ) {
      return send(res, 415, { error: 'send application/json' });
    }
    let path = url.pathname.replace(/\/$/, '');
    try {
      // The dot-id service decodes the whole path and resolves dot segments before routing.
      if (lie === 'dot-id') path = posix.normalize(decodeURIComponent(url.pathname));
    } catch {
      return send(res, 400, { error: 'bad path' });
    }
    const match = /^\/v1\/widgets(?:\/([^/]+))?$/.exec(path);
    if (!match) return send(res, 404, { error: 'not found' });
    let id: string | undefined;
    try {
      id = match[1] === undefined ? undefined : decodeURIComponent(match[1]);
    } catch {
      return send(res, 404, { error: 'not found' });
    }
    const record = id === undefined ? undefined : records.find((r) => String(r.id) === id);
    const others = record !== undefined && OTHERS.some((o) => o.id === record.id);
    if (others && method !== 'GET' && method !== 'HEAD') state.writesToOthers.push(`${method} ${req.url}`);
    if (id === undefined && method === 'GET') return send(res, 200, records);
    if (id === undefined && method === 'POST') return create(res, raw);
    if (id === undefined) return send(res, 405, { error: 'method not allowed' }, { allow: 'GET, POST' });
    if (!record) return send(res, 404, { error: 'not found' });
    if (lie === 'redirect-writes' && !others && method !== 'GET') {
      return send(res, 307, undefined, { location: `${origin}/v1/widgets/1` });
    }
    if (method === 'GET') return send(res, 200, record);
    if (method === 'DELETE') {
      records.splice(records.indexOf(record), 1);
      return send(res, 204);
    }
    const body = parse(raw);
    if (!valid(body, method === 'PATCH')) return send(res, 400, { error: 'invalid body' });
    if (method === 'PUT') for (const k of Object.keys(record)) if (k !== 'id') delete record[k];
    Object.assign(record, body, { id: record.id });
    return send(res, 200, record);
  };
  const create = (res: ServerResponse, raw: string): void => {
    if (lie === 'redirect-create') return send(res, 301, undefined, { location: `${origin}/v1/widgets/1` });
    const body = parse(raw);
    if (!valid(body, false)) return send(res, 400, { error: 'invalid body' });
    const record = { ...(body as Record<string, unknown>), id: nextId++ };
    records.push(record);
    state.stored++;
    switch (lie) {
      case 'existing-id':
        return send(res, 201, { ...(body as object), id: 1 });
      case 'existing-location':
        return send(res, 201, undefined, { location: `${origin}/v1/widgets/1` });
      case 'other-origin-location':
        return send(res, 201, undefined, { location: `${otherOrigin}/v1/widgets/1` });
      case 'dot-id':
        return send(res, 201, { ...record, id: 'x/../1' });
      case 'lost-create':
        res.socket?.resetAndDestroy();
        return;
      case 'lost-create-silent':
        return; // stored, and never answered
      default:
        return send(res, 201, record, { location: `${origin}/v1/widgets/${record.id}` });
    }
  };
  const server = await startRawFixture((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  origin = server.origin;
  // Live values (Object.assign would copy a getter's value once).
  return Object.defineProperties(server, {
    records: { value: () => records.map((r) => ({ ...r })) },
    writesToOthers: { get: () => state.writesToOthers },
    stored: { get: () => state.stored },
  }) as LiarServer;
}

/** The pre-existing records, as they were before any audit. */
export function othersBefore(): Array<Record<string, unknown>> {
  return OTHERS.map((r) => ({ ...r }));
}

function parse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** A widget body: an object with a string name and a number price (PATCH: either may be left out). */
function valid(body: unknown, partial: boolean): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const b = body as Record<string, unknown>;
  if (!partial && (b.name === undefined || b.price === undefined)) return false;
  if (b.name !== undefined && typeof b.name !== 'string') return false;
  if (b.price !== undefined && typeof b.price !== 'number') return false;
  return true;
}
