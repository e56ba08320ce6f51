// Paths stay under the base URL: dot segments, plain or encoded, are refused in configured paths and never probed from a document.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dotSegmentIn } from '../../src/core/dot-segments.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { startExampleFixture, type FixtureServer } from '../../src/testing/fixture-server.js';
import { cli, readReport, STACK_LINE, tempDir, writeConfig } from './helpers.js';
import { startCounter } from './hostile.js';

describe('dotSegmentIn', () => {
  it('finds every spelling a server may turn into "." or ".."', () => {
    const found: Array<[string, string]> = [
      ['/widgets/../../admin', '..'],
      ['/widgets/./x', '.'],
      ['/widgets/..', '..'],
      ['/%2e%2e/admin', '%2e%2e'],
      ['/%2E%2e/admin', '%2E%2e'],
      ['/.%2E/admin', '.%2E'],
      ['/%2e/admin', '%2e'],
      ['/%252e%252e/admin', '%252e%252e'],
      ['/%25252E%25252E/admin', '%25252E%25252E'],
      ['/widgets%2F..%2Fadmin', 'widgets%2F..%2Fadmin'],
      ['/widgets%252F%252e%252e/admin', 'widgets%252F%252e%252e'],
      ['/widgets\\..\\admin', '..'],
      ['/widgets/..;/admin', '..;'],
      ['/widgets/%2e%2e%3Bx/admin', '%2e%2e%3Bx'],
    ];
    for (const [path, segment] of found)
      expect({ path, segment: dotSegmentIn(path) }).toEqual({ path, segment });
  });

  it('leaves names that merely hold dots alone', () => {
    for (const path of [
      '/widgets',
      '/.well-known/things',
      '/v1.2/things',
      '/a.../b',
      '/...',
      '/%2e%2e%2e',
      '/x%2Fy',
      '/',
    ]) {
      expect({ path, segment: dotSegmentIn(path) }).toEqual({ path, segment: undefined });
    }
  });
});

describe('configured paths with a dot segment: config error, exit 2, nothing sent', () => {
  let server: Awaited<ReturnType<typeof startCounter>>;
  beforeAll(async () => {
    server = await startCounter();
  });
  afterAll(async () => {
    await server.close();
  });

  async function runWith(resources: unknown[], extra: Record<string, unknown> = {}) {
    const dir = await tempDir();
    const config = join(dir, 'c.yaml');
    const lines = [`auth: { token: '\${SAFETY_TOKEN}' }`, 'resources:'];
    for (const r of resources) lines.push(`  - ${JSON.stringify(r)}`);
    if (extra.webhooks) lines.push(`webhooks: ${JSON.stringify(extra.webhooks)}`);
    await writeFile(config, `${lines.join('\n')}\n`);
    const before = server.requests;
    const r = await cli(['run', '--config', config, '--base-url', server.baseUrl, '--out', join(dir, 'out')]);
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(server.requests).toBe(before);
    return { code: r.code, stderr: r.stderr.split(`${config}: `).join('c.yaml: ') };
  }

  it('resource paths, plain, encoded in any case, double-encoded: each named with its line', async () => {
    const r = await runWith([
      { name: 'widgets', path: '/widgets' },
      { name: 'up', path: '/widgets/../../admin' },
      { name: 'encoded', path: '/%2E%2e/admin' },
      { name: 'twice', path: '/%252e%252e/admin' },
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      'conformance: c.yaml: resources[1].path: must not contain a dot segment (..): it could lead requests out of the base URL (got "/widgets/../../admin") (line 4)',
      'conformance: c.yaml: resources[2].path: must not contain a dot segment (%2E%2e, which decodes to a dot segment): it could lead requests out of the base URL (got "/%2E%2e/admin") (line 5)',
      'conformance: c.yaml: resources[3].path: must not contain a dot segment (%252e%252e, which decodes to a dot segment): it could lead requests out of the base URL (got "/%252e%252e/admin") (line 6)',
    ]);
  });

  it('the control: the same server gets requests from a config without dot segments', async () => {
    const dir = await tempDir();
    const config = await writeConfig(dir);
    const before = server.requests;
    const args = ['--out', join(dir, 'o'), '--only', 'read-collection-and-item', '--quiet'];
    const r = await cli(['run', '--config', config, '--base-url', server.baseUrl, ...args]);
    expect(r.stderr).toBe('');
    expect(server.requests).toBeGreaterThan(before);
  });

  it('the webhook subscription path', async () => {
    const r = await runWith([{ name: 'widgets', path: '/widgets' }], {
      webhooks: {
        subscribe: { path: '/hooks/%2e%2e/%2e%2e/admin', body: { url: '{{receiverUrl}}' } },
        expect: [{ after: { resource: 'widgets', operation: 'create' }, event: 'widget.created' }],
      },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'conformance: c.yaml: webhooks.subscribe.path: must not contain a dot segment (%2e%2e, which decodes to a dot segment): it could lead requests out of the base URL (got "/hooks/%2e%2e/%2e%2e/admin") (line 4)\n',
    );
  });
});

describe('a document whose paths hold dot segments: those paths are not probed, with the reason', () => {
  let api: FixtureServer & { admin: string[] };
  // The audit shares a fake clock with the API: pacing and Retry-After take no real time.
  const clock = new FakeClock();
  beforeAll(async () => {
    const admin: string[] = [];
    const server = await startExampleFixture({
      now: clock.now,
      middleware: (req) => {
        // Whatever the spelling, a request that a server would resolve to /admin is recorded.
        const url = req.url ?? '';
        if (/admin/i.test(url)) admin.push(`${req.method} ${url}`);
        return false;
      },
    });
    api = Object.assign(server, { admin });
  });
  afterAll(async () => {
    await api.close();
  });

  it('no request goes near /admin; the clean resource is audited; the report says why the others were not', async () => {
    const item = (name: string) =>
      `  ${name}/{id}:\n    parameters: [{ name: id, in: path, required: true, schema: { type: string } }]\n    get: { responses: { '200': { description: ok } } }\n    delete: { responses: { '204': { description: gone } } }\n`;
    const collection = (name: string) =>
      `  ${name}:\n    get: { responses: { '200': { description: ok } } }\n    post:\n      requestBody: { content: { application/json: { schema: { type: object, properties: { name: { type: string } }, example: { name: bolt } } } } }\n      responses: { '201': { description: created } }\n`;
    const dangerous = ['/widgets/../../admin', '/%2e%2e/admin', '/%252E%252E/admin', '/search/../admin'];
    let doc = "openapi: 3.0.3\ninfo: { title: t, version: '1' }\npaths:\n";
    for (const path of ['/widgets', ...dangerous]) doc += collection(path) + item(path);
    const dir = await tempDir();
    await writeFile(join(dir, 'doc.yaml'), doc);
    const out = join(dir, 'out');
    const r = await cli(
      ['run', '--openapi', join(dir, 'doc.yaml'), '--base-url', api.baseUrl, '--out', out, '--quiet'],
      { env: { CONFORMANCE_TOKEN: api.tokens.full }, clock },
    );
    expect(r.stderr).toBe('');
    expect(api.admin).toEqual([]);
    const report = await readReport(out);
    expect([...new Set(report.results.map((x) => x.resource).filter(Boolean))]).toEqual(['widgets']);
    const notProbed = (report as unknown as { notProbed: Array<{ path: string; reason: string }> }).notProbed;
    const paths = dangerous.flatMap((p) => [p, `${p}/{id}`]);
    expect(notProbed.map((n) => n.path).sort()).toEqual(paths.sort());
    for (const n of notProbed)
      expect(n.reason).toMatch(
        /^it holds a dot segment \(.+\), which could lead requests out of the base URL: never sent$/,
      );
  });
});
