// `init --collections` on a live API writes the shape it reads (GET/OPTIONS only): trailing slashes, a query-filter item.
import { afterEach, describe, expect, it } from '@jest/globals';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse } from 'yaml';
import { validateAgainstSchema } from '../../src/config/validate.js';
import { startRawFixture, type FixtureServer } from '../../src/testing/fixture-server.js';
import { cli } from '../openapi/helpers.js';

type Json = Record<string, unknown>;
const ROWS = [
  { id: 1, name: 'bolt' },
  { id: 2, name: 'nut' },
];

const servers: FixtureServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A fixture answering GETs from `route` (JSON), OPTIONS with an Allow header, and recording every method. */
async function serve(
  route: (url: URL) => { status: number; body?: unknown; location?: string },
  methods: string[],
): Promise<FixtureServer> {
  const server = await startRawFixture((req: IncomingMessage, res: ServerResponse) => {
    methods.push(req.method ?? '');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { allow: 'GET, POST, PATCH, DELETE' });
      return res.end();
    }
    const answer = route(new URL(req.url ?? '/', 'http://x'));
    res.writeHead(answer.status, {
      'content-type': 'application/json',
      ...(answer.location ? { location: answer.location } : {}),
    });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  });
  servers.push(server);
  return server;
}

async function starter(server: FixtureServer, collections: string): Promise<Json> {
  const r = await cli(['init', '--base-url', server.baseUrl, '--collections', collections, '--print'], {});
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const data = parse(r.stdout) as Json;
  expect(validateAgainstSchema(data)).toEqual([]);
  return (data.resources as Json[])[0];
}

describe('init reads how items are addressed', () => {
  it('Django-style: the collection and the item redirect to their trailing slash, which is kept', async () => {
    const methods: string[] = [];
    const server = await serve((url) => {
      if (url.pathname === '/v1/widgets') return { status: 301, location: '/v1/widgets/' };
      if (url.pathname === '/v1/widgets/') return { status: 200, body: ROWS };
      if (url.pathname === '/v1/widgets/1') return { status: 301, location: '/v1/widgets/1/' };
      if (url.pathname === '/v1/widgets/1/') return { status: 200, body: ROWS[0] };
      return { status: 404, body: { detail: 'Not found.' } };
    }, methods);
    expect(await starter(server, 'widgets')).toMatchObject({
      path: '/widgets/',
      item: '/widgets/{id}/',
      sample: { name: 'bolt' },
    });
    expect(new Set(methods)).toEqual(new Set(['GET', 'OPTIONS']));
  });

  it('FastAPI-style: the collection redirects to its slash, an item away from one: items at /widgets/{id}', async () => {
    const server = await serve((url) => {
      if (url.pathname === '/v1/widgets') return { status: 307, location: '/v1/widgets/' };
      if (url.pathname === '/v1/widgets/') return { status: 200, body: ROWS };
      if (url.pathname === '/v1/widgets/1/') return { status: 307, location: '/v1/widgets/1' };
      if (url.pathname === '/v1/widgets/1') return { status: 200, body: ROWS[0] };
      return { status: 404, body: { detail: 'Not Found' } };
    }, []);
    const resource = await starter(server, 'widgets');
    // The items at /widgets/{id}: the default item of path /widgets/, so no item key.
    expect(resource.path).toBe('/widgets/');
    expect(resource.item).toBeUndefined();
  });

  it('--collections widgets/ keeps the slash the user wrote; a plain /widgets/{id} writes no item key', async () => {
    const server = await serve((url) => {
      if (url.pathname === '/v1/widgets/') return { status: 200, body: ROWS };
      if (url.pathname === '/v1/widgets/1/') return { status: 200, body: ROWS[0] };
      return { status: 404, body: {} };
    }, []);
    expect(await starter(server, 'widgets/')).toMatchObject({ path: '/widgets/', item: '/widgets/{id}/' });
    const plain = await serve((url) => {
      if (url.pathname === '/v1/widgets') return { status: 200, body: ROWS };
      if (url.pathname === '/v1/widgets/1') return { status: 200, body: ROWS[0] };
      return { status: 404, body: {} };
    }, []);
    const resource = await starter(plain, 'widgets');
    expect(resource.path).toBe('/widgets');
    expect(resource.item).toBeUndefined();
  });

  /** A filter-addressed API: `?id=<prefix><n>` answers the matching rows as an array; /widgets/1 is 404. */
  const filtering = (prefix: string) => (url: URL) => {
    if (url.pathname !== '/v1/widgets') return { status: 404, body: { message: 'not found' } };
    const filter = url.searchParams.get('id');
    if (filter === null) return { status: 200, body: ROWS };
    if (!filter.startsWith(prefix)) return { status: 400, body: { message: 'bad filter' } };
    return { status: 200, body: ROWS.filter((r) => String(r.id) === filter.slice(prefix.length)) };
  };

  it('PostgREST-style: the item read by ?id=eq.1 answers a one-element array: item /widgets?id=eq.{id}', async () => {
    const resource = await starter(await serve(filtering('eq.'), []), 'widgets');
    expect(resource).toMatchObject({
      path: '/widgets',
      item: '/widgets?id=eq.{id}',
      sample: { name: 'bolt' },
    });
  });

  it('a plain filter ?id=1 gives item /widgets?id={id}', async () => {
    expect((await starter(await serve(filtering(''), []), 'widgets')).item).toBe('/widgets?id={id}');
  });

  it('a service that ignores the query is not taken for a filter (an absent id must answer no row)', async () => {
    const ignoring = await serve((url) => {
      if (url.pathname === '/v1/widgets') return { status: 200, body: [ROWS[0]] };
      return { status: 404, body: {} };
    }, []);
    expect((await starter(ignoring, 'widgets')).item).toBeUndefined();
  });
});
