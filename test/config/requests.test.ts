// Config headers/query/contentType/requests: precedence, the operation a probe imitates, a full audit of a server that needs them, secrets in header values.
import { describe, expect, it } from '@jest/globals';
import type { Middleware } from '../../src/example-api/index.js';
import { RequestDecorator, operationOf, withQuery } from '../../src/http/decorate.js';
import { resourceRequests, topRequests } from '../../src/config/requests.js';
import { runAudit } from '../../src/engine/run.js';
import { catalogue } from '../../suites/index.js';
import { startExampleFixture } from '../../src/testing/fixture-server.js';
import { schemeConfig } from '../../src/testing/scheme-config.js';
import { reporters } from '../../src/reporters/index.js';

const TOKEN_YAML = '  token: ${CONFORMANCE_TOKEN}\n  limitedToken: ${CONFORMANCE_LIMITED_TOKEN}\n';

describe('request settings: precedence and the operation a request imitates', () => {
  const top = topRequests({ headers: { 'X-Tenant': 'acme', Accept: 'application/json' }, query: { v: '1' } });
  const requests = resourceRequests(top, {
    headers: { 'x-tenant': 'north' },
    query: { v: '2' },
    contentType: 'application/vnd.api+json',
    requests: {
      writes: { headers: { Prefer: 'return=representation' } },
      reads: { query: { expand: 'none' } },
      create: { headers: { PREFER: 'return=minimal' } },
    },
  });
  const decorator = new RequestDecorator(
    { requests: top, resources: [{ name: 'widgets', path: '/widgets', requests }] },
    () => ({ full: 'tok' }),
    'http://h/v1',
  );
  const send = (method: string, path: string, body = false) =>
    decorator.decorate({ method, path }, `http://h/v1${path}`, {}, body, undefined);

  it('top level < resource < reads/writes < operation, names case-insensitive', () => {
    expect(send('POST', '/widgets', true).headers).toEqual({
      'content-type': 'application/vnd.api+json',
      'x-tenant': 'north',
      accept: 'application/json',
      prefer: 'return=minimal',
      authorization: 'Bearer tok',
    });
    expect(send('PUT', '/widgets/7', true).headers.prefer).toBe('return=representation');
    expect(send('GET', '/widgets').url).toBe('http://h/v1/widgets?v=2&expand=none');
    expect(send('DELETE', '/widgets/7').url).toBe('http://h/v1/widgets/7?v=2');
    // A path outside every resource gets the top level only.
    expect(send('GET', '/other').headers['x-tenant']).toBe('acme');
    expect(send('GET', '/other').url).toBe('http://h/v1/other?v=1');
  });

  it('probes use the operation they imitate', () => {
    expect(operationOf('GET', '/widgets/', '/widgets')).toBe('list');
    expect(operationOf('GET', '/widgets/999', '/widgets')).toBe('read');
    expect(operationOf('PUT', '/widgets/999', '/widgets')).toBe('replace');
    expect(operationOf('POST', '/widgets', '/widgets')).toBe('create');
    expect(
      decorator.decorate(
        { method: 'GET', path: '/widgets', operation: 'read' },
        'http://h/v1/widgets',
        {},
        false,
        'widgets',
      ).url,
    ).toBe('http://h/v1/widgets?v=2&expand=none');
  });

  it("a parameter in the path wins; a check's content type (MTH-JSON-BODY's) changes only Content-Type", () => {
    expect(
      withQuery('http://h/w?v=9', [
        ['v', '2'],
        ['a b', 'c&d'],
      ]),
    ).toBe('http://h/w?v=9&a%20b=c%26d');
    const probe = decorator.decorate(
      { method: 'POST', path: '/widgets', contentType: null },
      'http://h/v1/widgets',
      {},
      true,
      'widgets',
    );
    expect(probe.headers['content-type']).toBeUndefined();
    expect(probe.headers['x-tenant']).toBe('north');
  });
});

/** The example API refusing (400) any request without the tenant header or api-version, and writes without Prefer. */
const demanding: Middleware = (req, res) => {
  const url = new URL(req.url ?? '/', 'http://h');
  const write = req.method !== 'GET' && req.method !== 'HEAD';
  const missing =
    req.headers['x-tenant'] !== 'acme'
      ? 'X-Tenant'
      : req.headers['x-tenant-key'] !== 'tenant-key-0123456789'
        ? 'X-Tenant-Key'
        : url.searchParams.get('api-version') !== '2'
          ? 'api-version'
          : write && req.headers.prefer !== 'return=representation'
            ? 'Prefer'
            : undefined;
  if (missing === undefined) return false;
  res.writeHead(400, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { code: 'bad_request', message: `${missing} is required` } }));
  return true;
};

describe('a server that needs a tenant header, a query parameter and Prefer on writes', () => {
  it('audits with zero failures; the secret-named header value is in no report, curl lines name its variable', async () => {
    const server = await startExampleFixture({ middleware: demanding });
    const curls: string[] = [];
    try {
      const config = await schemeConfig(
        server,
        TOKEN_YAML,
        'headers:\n  X-Tenant: acme\n  X-Tenant-Key: ${TENANT_API_KEY}\nquery:\n  api-version: "2"\n',
        { TENANT_API_KEY: 'tenant-key-0123456789' },
      );
      for (const r of config.resources)
        for (const op of ['create', 'replace', 'update', 'delete'] as const)
          r.requests!.operations[op].headers.prefer = 'return=representation';
      const result = await runAudit(config, {
        catalogue: catalogue.filter((c) => !c.rules.some((rule) => rule.startsWith('LIM-'))),
        concurrency: 4,
        timeoutMs: 5000,
        onExchange: (x) => curls.push(x.evidence.curl),
      });
      const bad = result.results.filter((r) => r.status === 'failed' || r.status === 'errored');
      expect(bad.map((r) => `${r.checkId} ${r.resource}: ${r.message}`)).toEqual([]);
      expect(result.results.find((r) => r.checkId === 'json-body-required')?.status).toBe('passed');
      for (const reporter of Object.values(reporters))
        expect(reporter.render(result, { color: false, verbose: true })).not.toContain(
          'tenant-key-0123456789',
        );
      expect(curls.join('\n')).not.toContain('tenant-key-0123456789');
      expect(
        curls.some(
          (c) =>
            c.includes('X-Tenant-Key: ${TENANT_API_KEY}') || c.includes('x-tenant-key: ${TENANT_API_KEY}'),
        ),
      ).toBe(true);
    } finally {
      await server.close();
    }
  });
});
