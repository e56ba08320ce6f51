// The OpenAPI import learns the API's shape: filter-addressed collections, trailing slashes, required headers/query, auth schemes.
import { describe, expect, it } from '@jest/globals';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { validateAgainstSchema } from '../../src/config/validate.js';
import { deriveConfig, type DerivedConfig } from '../../src/openapi/import.js';
import { loadOpenApi } from '../../src/openapi/load.js';
import { startRawFixture } from '../../src/testing/fixture-server.js';
import { cli, fixture, tempFolder } from './helpers.js';

type Json = Record<string, unknown>;

async function deriveFile(file: string): Promise<DerivedConfig> {
  return deriveConfig((await loadOpenApi(file)).document, {});
}

/** The starter `init --print` writes for a document, parsed, after checking it validates and holds no secret. */
async function starterOf(
  file: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ text: string; data: Json; stderr: string }> {
  const r = await cli(['init', '--openapi', file, '--print'], env);
  expect(r.code).toBe(0);
  const data = parse(r.stdout) as Json;
  expect(validateAgainstSchema(data)).toEqual([]);
  return { text: r.stdout, data, stderr: r.stderr };
}

/** A 3.0 document written to a temp file, with one collection/item pair and the given security. */
async function documentWith(extra: Json, collection: Json = {}): Promise<string> {
  const ok = { '200': { description: 'ok' } };
  const file = join(await tempFolder(), 'openapi.json');
  await writeFile(
    file,
    JSON.stringify({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      servers: [{ url: 'http://127.0.0.1:9/v1' }],
      paths: {
        '/widgets': { get: { responses: ok }, ...collection },
        '/widgets/{id}': {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          get: { responses: ok },
          delete: { responses: ok },
        },
      },
      ...extra,
    }),
  );
  return file;
}

const resourceOf = (data: Json): Json => (data.resources as Json[])[0];

describe('collection-only paths addressed by a query filter', () => {
  it('PostgREST: /widgets with a primary-key filter becomes item /widgets?id=eq.{id}, writes asking for the representation', async () => {
    const derived = await deriveFile(fixture('shapes', 'postgrest.json'));
    expect(derived.resources.map((r) => [r.name, r.path, r.item, r.operations])).toEqual([
      ['widgets', '/widgets', '/widgets?id=eq.{id}', ['list', 'read', 'create', 'update', 'delete']],
    ]);
    expect(derived.resources[0].requests).toEqual({
      writes: { headers: { Prefer: 'return=representation' } },
    });
    expect(derived.notProbed.map((n) => n.path)).toEqual(['/', '/rpc/restock']);
    const { data } = await starterOf(fixture('shapes', 'postgrest.json'));
    expect(resourceOf(data)).toMatchObject({
      name: 'widgets',
      path: '/widgets',
      item: '/widgets?id=eq.{id}',
      requests: { writes: { headers: { Prefer: 'return=representation' } } },
    });
  });

  it('a generic query parameter named like the id gives /widgets?widgetId={id}; none gives no resource', async () => {
    const ok = { '200': { description: 'ok' } };
    const file = join(await tempFolder(), 'openapi.json');
    const param = (name: string): Json => ({ name, in: 'query', schema: { type: 'string' } });
    await writeFile(
      file,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 't', version: '1' },
        paths: {
          '/widgets': {
            get: { parameters: [param('widgetId'), param('page')], responses: ok },
            delete: { parameters: [param('widgetId')], responses: ok },
            patch: { responses: ok },
          },
          '/reports': { get: { parameters: [param('page')], responses: ok } },
        },
      }),
    );
    const derived = await deriveFile(file);
    expect(derived.resources.map((r) => [r.path, r.item, r.idField, r.operations])).toEqual([
      ['/widgets', '/widgets?widgetId={id}', undefined, ['list', 'read', 'delete']],
    ]);
    // A PATCH without the filter is not an item operation, and the note says so.
    expect(derived.notes).toContain(
      'widgets: PATCH /widgets does not declare the filter widgetId: not audited as an item operation',
    );
    expect(derived.notProbed).toEqual([
      {
        path: '/reports',
        reason:
          "no item path (/reports/{id}) beside it, and no query parameter naming an item's id: not a collection of items",
      },
    ]);
  });

  it('a Location the POST documents with a query names the filter, and createdIdFrom: location when 201 has no body', async () => {
    const file = await documentWith(
      {},
      {
        get: {
          parameters: [{ name: 'sku', in: 'query', schema: { type: 'string' } }],
          responses: { '200': { description: 'ok' } },
        },
        post: {
          responses: {
            '201': {
              description: 'created',
              headers: { Location: { schema: { type: 'string' }, example: '/widgets?sku=eq.A-7' } },
            },
          },
        },
      },
    );
    // The pair /widgets + /widgets/{id} wins; a collection alone uses the Location's filter.
    const derived = await deriveFile(file);
    expect(derived.resources[0].item).toBeUndefined();
    const alone = join(await tempFolder(), 'alone.json');
    const doc = (await loadOpenApi(file)).document as Json;
    delete (doc.paths as Json)['/widgets/{id}'];
    await writeFile(alone, JSON.stringify(doc));
    const { data } = await starterOf(alone);
    expect(resourceOf(data)).toMatchObject({
      path: '/widgets',
      item: '/widgets?sku=eq.{id}',
      createdIdFrom: 'location',
      operations: ['list', 'read', 'create'],
    });
  });
});

describe('trailing slashes and Django REST framework', () => {
  it('/widgets/ and /widgets/{id}/ keep their slashes; "Authorization: Token" from the scheme description', async () => {
    const { data, text, stderr } = await starterOf(fixture('shapes', 'drf.yaml'));
    expect(resourceOf(data)).toMatchObject({
      name: 'widgets',
      path: '/widgets/',
      item: '/widgets/{id}/',
      operations: ['list', 'read', 'create', 'replace', 'update', 'delete'],
    });
    expect(data.auth).toEqual({
      token: '${CONFORMANCE_TOKEN}',
      limitedToken: '${CONFORMANCE_LIMITED_TOKEN:-}',
      prefix: 'Token',
    });
    expect(text).toContain('(full access, sent as "Authorization: Token ...")');
    expect(stderr).toContain(
      'security: the audit uses "tokenAuth" (API key in header "Authorization" with prefix "Token"); the document also accepts "basicAuth" (HTTP basic), "cookieAuth" (API key in cookie "sessionid")',
    );
  });

  it('an item path alone with a slash gives a collection path with one; the default item is not written', async () => {
    const derived = await deriveFile(await documentWith({}));
    expect(derived.resources[0]).toMatchObject({ path: '/widgets' });
    expect(derived.resources[0].item).toBeUndefined();
  });
});

describe('required header and query parameters', () => {
  it('top level when on every operation, else per operation; a credential parameter is never one; a value missing is a placeholder', async () => {
    const { data, text, stderr } = await starterOf(fixture('shapes', 'tenant.yaml'));
    expect(data.headers).toEqual({ 'X-Tenant': 'acme' });
    expect(data.query).toEqual({ 'api-version': '2' });
    expect(data.auth).toEqual({
      token: '${CONFORMANCE_TOKEN}',
      limitedToken: '${CONFORMANCE_LIMITED_TOKEN:-}',
      header: 'X-API-Key',
    });
    expect(resourceOf(data).requests).toEqual({
      create: { headers: { 'X-Request-Source': 'conformance' } },
      delete: { headers: { 'X-Reason': '${X_REASON}' } },
    });
    expect(resourceOf(data).headers).toBeUndefined();
    expect(text).toContain(
      '# requests.delete.headers.X-Reason is required by the document, which gives no value for it: set X_REASON or write the value there.',
    );
    expect(text).toContain('sent as "X-API-Key: ..."');
    expect(stderr).toBe('');
  });

  it('a run from the document alone: the values are sent; a required parameter without one stops it naming the key', async () => {
    const out = await tempFolder();
    const r = await cli(
      [
        'run',
        '--openapi',
        fixture('shapes', 'tenant.yaml'),
        '--base-url',
        'http://127.0.0.1:9/v1',
        '--out',
        out,
      ],
      {},
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'the document requires the header X-Reason and gives no example, default or enum value for it: set resources (orders): requests.delete.headers.X-Reason in the config',
    );
    // Set in the config (at any level of the resource), it is no problem.
    const dir = await tempFolder();
    const config = join(dir, 'c.yaml');
    await writeFile(
      config,
      `openapi: ${fixture('shapes', 'tenant.yaml')}\nresources:\n  - name: orders\n    path: /orders\n    requests:\n      writes:\n        headers: { x-reason: audit }\n`,
    );
    const again = await cli(
      ['run', '--config', config, '--base-url', 'http://127.0.0.1:9/v1', '--out', out],
      {},
    );
    expect(again.stderr).not.toContain('X-Reason');
  });
});

describe('the derived request settings are sent', () => {
  it("X-Tenant and api-version on every request, the config's value where it sets one, the key in X-API-Key", async () => {
    const seen: Array<{ url: string; headers: Record<string, unknown> }> = [];
    const server = await startRawFixture((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[]');
    });
    try {
      const config = join(await tempFolder(), 'c.yaml');
      await writeFile(
        config,
        `openapi: ${fixture('shapes', 'tenant.yaml')}\nheaders: { x-tenant: globex }\nresources:\n  - name: orders\n    path: /orders\n    requests:\n      delete:\n        headers: { X-Reason: audit }\n`,
      );
      const r = await cli(
        [
          'run',
          '--config',
          config,
          '--base-url',
          server.baseUrl,
          '--out',
          await tempFolder(),
          '--only',
          'MTH-READ',
        ],
        { CONFORMANCE_TOKEN: 'tenant-token-0000' },
      );
      expect(r.stderr).not.toContain('requires');
      const lists = seen.filter((x) => x.url.startsWith('/v1/orders?'));
      expect(lists.length).toBeGreaterThan(0);
      for (const x of lists) {
        expect(x.url).toContain('api-version=2');
        expect(x.headers['x-tenant']).toBe('globex');
        expect(x.headers['x-api-key']).toBe('tenant-token-0000');
      }
    } finally {
      await server.close();
    }
  });
});

describe('security schemes map to the auth keys, values only as ${VAR} placeholders', () => {
  const scheme = (s: Json): Json => ({ security: [{ s: [] }], components: { securitySchemes: { s } } });

  it('HTTP Basic: auth.basic from CONFORMANCE_USERNAME / CONFORMANCE_PASSWORD', async () => {
    const { data, text } = await starterOf(await documentWith(scheme({ type: 'http', scheme: 'basic' })), {
      CONFORMANCE_PASSWORD: 'hunter2-secret',
      CONFORMANCE_USERNAME: 'admin',
    });
    expect(data.auth).toEqual({
      basic: { username: '${CONFORMANCE_USERNAME}', password: '${CONFORMANCE_PASSWORD}' },
    });
    expect(text).not.toContain('hunter2');
  });

  it('an API key in a cookie or the query: auth.cookie / auth.query', async () => {
    const cookie = await starterOf(
      await documentWith(scheme({ type: 'apiKey', in: 'cookie', name: 'session' })),
    );
    expect(cookie.data.auth).toMatchObject({ token: '${CONFORMANCE_TOKEN}', cookie: 'session' });
    expect(cookie.text).toContain('sent as the cookie session');
    const query = await starterOf(
      await documentWith(scheme({ type: 'apiKey', in: 'query', name: 'api_key' })),
    );
    expect(query.data.auth).toMatchObject({ token: '${CONFORMANCE_TOKEN}', query: 'api_key' });
  });

  it('bearer stays the default; an API key in Authorization without a stated prefix is sent as Bearer, with a note', async () => {
    const bearer = await starterOf(await documentWith(scheme({ type: 'http', scheme: 'bearer' })));
    expect(bearer.data.auth).toEqual({
      token: '${CONFORMANCE_TOKEN}',
      limitedToken: '${CONFORMANCE_LIMITED_TOKEN:-}',
    });
    const key = await starterOf(
      await documentWith(scheme({ type: 'apiKey', in: 'header', name: 'Authorization' })),
    );
    expect(key.data.auth).toEqual(bearer.data.auth);
    expect(key.stderr).toContain('set auth.prefix when the API expects another scheme');
  });

  it('digest only is named as unsupported', async () => {
    const derived = await deriveFile(await documentWith(scheme({ type: 'http', scheme: 'digest' })));
    expect(derived.security.kind).toBe('unsupported');
    expect(derived.notes[0]).toMatch(/^security scheme "s" \(HTTP digest\) is not supported/);
  });
});
