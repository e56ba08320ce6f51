// `conformance init`: the starter config validates against config/schema.json and audits the example API with zero failures.
import { describe, expect, it } from '@jest/globals';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { parse } from 'yaml';
import { parseConfigText } from '../../src/config/load.js';
import { validateAgainstSchema } from '../../src/config/validate.js';
import { runCli } from '../../src/testing/cli-runner.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { startExampleFixture, type FixtureServer } from '../../src/testing/fixture-server.js';
import { cli, fixture, readReport, tempFolder, tokenEnv } from '../openapi/helpers.js';

// The audits share a fake clock with the example API they audit: pacing and the wait after the
// 429 burst (LIM-RETRY) take no real time.
const clock = new FakeClock();

/** Runs the audit with a written config and returns its failures (expected: none). */
async function auditWith(
  configFile: string,
  server: FixtureServer,
): Promise<{ code: number; bad: string[] }> {
  const out = await tempFolder();
  const r = await runCli(
    ['run', '--config', configFile, '--base-url', server.baseUrl, '--out', out, '--quiet'],
    { env: tokenEnv(server), clock },
  );
  const report = await readReport(out);
  const bad = report.results
    .filter((x) => x.status === 'failed' || x.status === 'errored')
    .map((x) => `${x.checkId} ${x.resource ?? ''}: ${x.message}`);
  return { code: r.code, bad };
}

/** The written file is a valid config: against the schema as written, and loaded with the tokens set. */
function expectValidConfig(text: string, server: FixtureServer): void {
  expect(validateAgainstSchema(parse(text))).toEqual([]);
  const config = parseConfigText(text, {
    source: 'init.yaml',
    env: tokenEnv(server),
    baseUrl: server.baseUrl,
  });
  expect(config.resources.length).toBeGreaterThan(0);
}

describe('conformance init --openapi', () => {
  it('writes a commented config that validates and audits the example API with zero failures', async () => {
    const server = await startExampleFixture({ now: clock.now });
    const dir = await tempFolder();
    const file = join(dir, 'conformance.config.yaml');
    try {
      const r = await cli(['init', '--openapi', fixture('widgets-31.yaml'), '--out', file], {});
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Wrote ${file}: 2 resources (widgets, orders).`);
      const text = await readFile(file, 'utf8');
      expectValidConfig(text, server);
      expect(text).toMatch(
        /^# yaml-language-server: \$schema=\.\/node_modules\/api-conformance\/config\/schema\.json\n# Starter config for the conformance auditor, written by `conformance init`/,
      );
      expect(text).toContain('baseUrl: http://127.0.0.1:8080/v1');
      expect(text).toContain('token: ${CONFORMANCE_TOKEN}');
      expect(text).toContain("# Valid POST body: the document's example.");
      expect(text).toContain('sample: { name: bolt, price: 3, tags: [ metal, small ] }');
      expect(text).toContain('# forbidden: [create, replace, update, delete]');
      // The document is referenced relative to the config (../ when not below it), so the
      // config works in any checkout.
      expect(text).toContain(`\nopenapi: ${relative(dirname(file), fixture('widgets-31.yaml'))}\n`);
      expect(await auditWith(file, server)).toEqual({ code: 0, bad: [] });
    } finally {
      await server.close();
    }
  });

  it('refers to a document below the config by a relative path', async () => {
    const dir = await tempFolder();
    await mkdir(join(dir, 'api'));
    await copyFile(fixture('widgets-31.yaml'), join(dir, 'api', 'openapi.yaml'));
    const r = await cli(
      ['init', '--openapi', join(dir, 'api', 'openapi.yaml'), '--out', join(dir, 'c.yaml')],
      {},
    );
    expect(r.code).toBe(0);
    expect(await readFile(join(dir, 'c.yaml'), 'utf8')).toContain('\nopenapi: ./api/openapi.yaml\n');
  });

  it('never overwrites without --force (exit 2, file unchanged); --force overwrites; --print prints', async () => {
    const dir = await tempFolder();
    const file = join(dir, 'conformance.config.yaml');
    await writeFile(file, 'mine\n');
    const refused = await cli(['init', '--openapi', fixture('widgets-31.yaml'), '--out', file], {});
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `conformance: ${file} already exists: pass --force to overwrite it, or --out <another file>\n`,
    );
    expect(await readFile(file, 'utf8')).toBe('mine\n');
    const forced = await cli(['init', '--openapi', fixture('widgets-31.yaml'), '--out', file, '--force'], {});
    expect(forced.code).toBe(0);
    expect(await readFile(file, 'utf8')).toContain('resources:');
    const printed = await cli(['init', '--openapi', fixture('widgets-swagger2.json'), '--print'], {});
    expect(printed.code).toBe(0);
    expect(validateAgainstSchema(parse(printed.stdout))).toEqual([]);
  });

  it('a relative server URL: baseUrl is left for --base-url, with a comment saying so; not-probed paths are listed', async () => {
    const r = await cli(['init', '--openapi', fixture('petstore-30-refs', 'openapi.yaml'), '--print'], {});
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/^baseUrl:/m);
    expect(r.stdout).toContain(
      '# baseUrl: https://... (the OpenAPI document\'s server URL "/v1" is relative',
    );
    expect(r.stdout).toContain('#   /pets/{petId}/photos: nested under a path parameter');
    expect(validateAgainstSchema(parse(r.stdout))).toEqual([]);
  });

  it('an invalid document is exit 2, with its problems', async () => {
    const dir = await tempFolder();
    await writeFile(join(dir, 'bad.yaml'), 'openapi: 3.0.3\ninfo: { title: t }\npaths: {}\n');
    const r = await cli(['init', '--openapi', join(dir, 'bad.yaml'), '--print'], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("info: must have required property 'version' (line 2)");
  });
});

describe('conformance init --base-url --collections (reading a live API)', () => {
  it('reads with GET and OPTIONS only, changes nothing, and the config audits the API with zero failures', async () => {
    const methods: string[] = [];
    const server = await startExampleFixture({
      middleware: (req) => {
        methods.push(req.method ?? '');
        return false;
      },
      now: clock.now,
    });
    const dir = await tempFolder();
    const file = join(dir, 'conformance.config.yaml');
    try {
      const before = JSON.stringify(server.snapshot!());
      const r = await cli(
        ['init', '--base-url', server.baseUrl, '--collections', 'widgets,orders', '--out', file],
        tokenEnv(server),
      );
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect([...new Set(methods)].sort()).toEqual(['GET', 'OPTIONS']);
      expect(JSON.stringify(server.snapshot!())).toBe(before);
      const text = await readFile(file, 'utf8');
      expectValidConfig(text, server);
      // The first seeded widget without its id and timestamps; the operations OPTIONS allowed.
      expect(text).toContain('sample: { name: sprocket, price: 2.5, tags: [ metal, round ] }');
      expect(text).toContain('sample: { widgetId: 1, quantity: 2, note: rush }');
      expect(text).toContain('operations: [ list, read, create, replace, update, delete ]');
      expect(text).not.toContain(server.tokens.full);
      methods.length = 0;
      expect(await auditWith(file, server)).toEqual({ code: 0, bad: [] });
    } finally {
      await server.close();
    }
  });

  it('says what is wrong: no token, an unknown collection, missing flags (exit 2)', async () => {
    const server = await startExampleFixture();
    try {
      const base = ['init', '--base-url', server.baseUrl, '--print'];
      const noToken = await cli([...base, '--collections', 'widgets'], {});
      expect(noToken.code).toBe(2);
      expect(noToken.stderr).toBe(
        'conformance: GET /widgets answered 401: set CONFORMANCE_TOKEN to a valid token\n',
      );
      const unknown = await cli([...base, '--collections', 'gizmos'], tokenEnv(server));
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('GET /gizmos answered 404, expected 200: is "gizmos" a collection');
      const nothing = await cli(['init'], {});
      expect(nothing.code).toBe(2);
      expect(nothing.stderr).toContain(
        'init needs --openapi <file|url>, or --base-url <url> (its OpenAPI document or collections are then found, or name them with --collections <names>)',
      );
      const both = await cli(
        ['init', '--openapi', fixture('widgets-31.yaml'), '--collections', 'widgets'],
        {},
      );
      expect(both.code).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('an empty collection gets no sample and a note; an API that cannot be reached is exit 2', async () => {
    const server = await startExampleFixture({
      resources: [{ name: 'gizmos', ids: 'int', fields: { label: { type: 'string', required: true } } }],
    });
    try {
      const r = await cli(
        ['init', '--base-url', server.baseUrl, '--collections', '/gizmos/', '--print'],
        tokenEnv(server),
      );
      expect(r.code).toBe(0);
      expect(r.stderr).toBe(
        'conformance: note: gizmos: the collection is empty: write a valid POST body as its sample\n',
      );
      expect(r.stdout).not.toContain('sample:');
      expect(validateAgainstSchema(parse(r.stdout))).toEqual([]);
    } finally {
      await server.close();
    }
    const down = await cli(['init', '--base-url', server.baseUrl, '--collections', 'gizmos', '--print'], {});
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(/^conformance: cannot reach /);
  });
});
