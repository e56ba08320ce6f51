// `conformance init --base-url` without --collections: the OpenAPI document at the usual URLs, else the base URL's links; and the editor's $schema comment.
import { describe, expect, it } from '@jest/globals';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { validateAgainstSchema } from '../../src/config/validate.js';
import { documentCandidates, linkedCollections } from '../../src/cli/discover.js';
import { schemaLocation } from '../../src/cli/init.js';
import type { Middleware } from '../../src/example-api/index.js';
import { runCli } from '../../src/testing/cli-runner.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { startExampleFixture } from '../../src/testing/fixture-server.js';
import { cli, fixture, readReport, tempFolder, tokenEnv } from '../openapi/helpers.js';

/** The widgets document as JSON, served by a middleware at `at` (a path on the origin). */
async function serveDocument(at: string, seen: string[]): Promise<Middleware> {
  const document = JSON.stringify(parse(await readFile(fixture('widgets-31.yaml'), 'utf8')));
  return (req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (req.method !== 'GET' || req.url !== at) return false;
    res.writeHead(200, { 'content-type': 'application/json' }).end(document);
    return true;
  };
}

describe('init discovers what to audit when --collections is not given', () => {
  it('finds the OpenAPI document at the origin (after the base URL), writes a config that audits with zero failures', async () => {
    const seen: string[] = [];
    // The audit shares a fake clock with the API: pacing and LIM-RETRY's wait take no real time.
    const clock = new FakeClock();
    const server = await startExampleFixture({
      middleware: await serveDocument('/v3/api-docs', seen),
      now: clock.now,
    });
    const dir = await tempFolder();
    const file = join(dir, 'conformance.config.yaml');
    try {
      const r = await cli(['init', '--base-url', server.baseUrl, '--out', file], tokenEnv(server));
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(
        `conformance: note: found an OpenAPI document at ${server.origin}/v3/api-docs: the config is derived from it`,
      );
      // Tried in order: under the base URL, then under the origin; GET only.
      expect(seen.slice(0, 6)).toEqual([
        'GET /v1/openapi.json',
        'GET /v1/swagger.json',
        'GET /v1/v3/api-docs',
        'GET /openapi.json',
        'GET /swagger.json',
        'GET /v3/api-docs',
      ]);
      // Then the document is read as --openapi reads it, and the collections with GET and OPTIONS.
      expect(seen.filter((x) => !/^(GET|OPTIONS) /.test(x))).toEqual([]);
      const text = await readFile(file, 'utf8');
      expect(validateAgainstSchema(parse(text))).toEqual([]);
      expect(text).toContain(`openapi: ${server.origin}/v3/api-docs`);
      expect(text).toContain(`baseUrl: ${server.baseUrl}`);
      const out = await tempFolder();
      const audit = await runCli(['run', '--config', file, '--out', out, '--quiet'], {
        env: tokenEnv(server),
        clock,
      });
      const report = await readReport(out);
      expect(report.results.filter((x) => x.status === 'failed' || x.status === 'errored')).toEqual([]);
      expect(audit.code).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('else reads the collections the base URL links to (HAL, plain strings, Link header), leaving out what is not one', async () => {
    const server = await startExampleFixture({
      middleware: (req, res) => {
        if (req.method !== 'GET' || req.url !== '/v1') return false;
        const body = {
          _links: {
            self: { href: '/v1' },
            widgets: { href: '/v1/widgets{?page}' },
            docs: { href: 'https://elsewhere.example/v1/docs' },
          },
          status: '/v1/status',
        };
        res
          .writeHead(200, { 'content-type': 'application/json', link: '</v1/orders>; rel="orders"' })
          .end(JSON.stringify(body));
        return true;
      },
    });
    try {
      const r = await cli(['init', '--base-url', server.baseUrl, '--print'], tokenEnv(server));
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(
        `conformance: note: GET ${server.baseUrl} links to /widgets, /status, /orders: read as collections`,
      );
      expect(r.stderr).toContain('conformance: note: left out: GET /status answered 404, expected 200');
      const config = parse(r.stdout) as { resources: Array<{ name: string }> };
      expect(config.resources.map((x) => x.name)).toEqual(['widgets', 'orders']);
      expect(validateAgainstSchema(config)).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('otherwise says exactly what to pass (exit 2), naming the URLs it tried', async () => {
    const server = await startExampleFixture();
    try {
      const r = await cli(['init', '--base-url', server.baseUrl, '--print'], tokenEnv(server));
      expect(r.code).toBe(2);
      const tried = documentCandidates(server.baseUrl).join(', ');
      expect(r.stderr).toBe(
        `conformance: found no OpenAPI document (tried ${tried}) and no links to collections in the answer of GET ${server.baseUrl}: name the collections with --collections <names> (e.g. --collections widgets,orders), or pass --openapi <file|url>\n`,
      );
      expect(r.stdout).toBe('');
    } finally {
      await server.close();
    }
  });

  it('an API that cannot be reached is exit 2 with one line', async () => {
    const server = await startExampleFixture();
    await server.close();
    const r = await cli(['init', '--base-url', server.baseUrl, '--print'], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^conformance: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/openapi\.json: .*\n$/,
    );
  });

  it('links: only one segment below the base URL, on its origin; templates dropped', () => {
    const base = 'https://api.test/v1';
    const json = {
      a: 'https://api.test/v1/widgets',
      b: { href: '/v1/orders{?page,size}' },
      c: ['/v1/widgets/7', '/v2/gadgets', 'https://other.test/v1/x', 'not a link', '/v1', '/v1/'],
    };
    expect(
      linkedCollections(base, json, '</v1/users>; rel="users", <https://other.test/v1/y>; rel="y"'),
    ).toEqual(['/widgets', '/orders', '/users']);
  });
});

describe("the config's $schema comment (editors)", () => {
  it('points at the installed package from the config folder, also from a subfolder', async () => {
    const project = await tempFolder();
    const installed = join(project, 'node_modules', 'api-conformance', 'config', 'schema.json');
    await mkdir(dirname(installed), { recursive: true });
    await writeFile(installed, '{}');
    await writeFile(join(project, 'package.json'), '{}');
    await mkdir(join(project, 'api', 'audit'), { recursive: true });
    expect(schemaLocation(project).ref).toBe('./node_modules/api-conformance/config/schema.json');
    const sub = schemaLocation(join(project, 'api', 'audit'));
    expect(sub).toMatchObject({
      ref: '../../node_modules/api-conformance/config/schema.json',
      installed: true,
    });
    expect(resolve(project, 'api', 'audit', sub.ref)).toBe(installed);
  });

  it('not installed: where `npm i -D api-conformance` puts it (beside package.json), and init says how', async () => {
    const project = await tempFolder();
    await writeFile(join(project, 'package.json'), '{}');
    await mkdir(join(project, 'conf'));
    const file = join(project, 'conf', 'conformance.config.yaml');
    const r = await cli(['init', '--openapi', fixture('widgets-31.yaml'), '--out', file], {});
    expect(r.code).toBe(0);
    const text = await readFile(file, 'utf8');
    expect(text.split('\n')[0]).toBe(
      '# yaml-language-server: $schema=../node_modules/api-conformance/config/schema.json',
    );
    expect(r.stdout).toContain(
      'Editors: its $schema comment points at ../node_modules/api-conformance/config/schema.json; `npm i -D api-conformance` puts the schema there',
    );
  });
});
