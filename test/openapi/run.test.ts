// `conformance run --openapi`: every fixture document audits every resource it declares, with only tokens in the environment.
import { describe, expect, it } from '@jest/globals';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startExampleFixture, startRawFixture } from '../../src/testing/fixture-server.js';
import { createExampleApi } from '../../src/example-api/index.js';
import { readFileSync } from 'node:fs';
import {
  cli,
  DOCUMENTS,
  fixture,
  readReport,
  startFor,
  tempFolder,
  tokenEnv,
  type CliRun,
  type DocumentCase,
} from './helpers.js';

type Report = Awaited<ReturnType<typeof readReport>>;

/** The document whose audit prints its console in full (not --quiet): the console test below reads it. */
const FULL_CONSOLE = DOCUMENTS[0];

/** Progress lines, which only a run without --quiet prints (to stderr). */
const PROGRESS = /^(ok|skip|FAIL|WARN|ERR|waiv)\s/;

/** A document's audit from the CLI, with the token it must never show. */
async function auditDocument(doc: DocumentCase): Promise<{ r: CliRun; report: Report; token: string }> {
  // The API and the audit on one fake clock: the rate-limit waits take no real time.
  const clock = new FakeClock();
  const { server, baseUrl } = await startFor(doc, clock);
  const out = await tempFolder();
  try {
    const r = await cli(
      [
        ...['run', '--openapi', doc.file, '--base-url', baseUrl, '--out', out, '--no-color'],
        ...(doc === FULL_CONSOLE ? [] : ['--quiet']),
      ],
      tokenEnv(server),
      clock,
    );
    return { r, report: await readReport(out), token: server.tokens.full };
  } finally {
    await server.close();
  }
}

const audits = new Map<DocumentCase, ReturnType<typeof auditDocument>>();
/** Each document's audit, run once for every test of this file that reads it. */
function auditedOnce(doc: DocumentCase): ReturnType<typeof auditDocument> {
  let audit = audits.get(doc);
  if (!audit) audits.set(doc, (audit = auditDocument(doc)));
  return audit;
}

describe('conformance run --openapi <file> --base-url <url>, with only tokens in the environment', () => {
  for (const doc of DOCUMENTS) {
    it(`${doc.name}: audits every resource of the document, with zero failures`, async () => {
      const { r, report, token } = await auditedOnce(doc);
      const bad = report.results.filter((x) => x.status === 'failed' || x.status === 'errored');
      expect(bad.map((x) => `${x.checkId} ${x.resource ?? ''}: ${x.message}`)).toEqual([]);
      // Nothing on stderr but progress lines: no note, no warning.
      expect(r.stderr.split('\n').filter((line) => line !== '' && !PROGRESS.test(line))).toEqual([]);
      if (doc !== FULL_CONSOLE) expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      // Every resource was probed: its CRUD checks and its schema check ran and passed.
      for (const resource of doc.resources) {
        const passed = report.results.filter((x) => x.resource === resource && x.status === 'passed');
        expect({ resource, checks: passed.map((x) => x.checkId) }).toEqual({
          resource,
          checks: expect.arrayContaining([
            'read-collection-and-item',
            'create-answers-201',
            'matches-schema',
          ]),
        });
      }
      const probed = new Set(report.results.map((x) => x.resource).filter(Boolean));
      expect([...probed].sort()).toEqual([...doc.resources].sort());
      expect((report.notProbed ?? []).map((n) => n.path)).toEqual(doc.notProbed);
      // The token never appears in any output.
      expect(JSON.stringify(report) + r.stdout + r.stderr).not.toContain(token);
    });
  }

  it('shows the paths it did not probe, with the reason, on the console', async () => {
    // The pet store's audit above: its console output in full.
    const { r } = await auditedOnce(FULL_CONSOLE);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Not probed (2)');
    expect(r.stdout).toContain('/pets/{petId}/photos: nested under a path parameter');
    expect(r.stdout).toContain('/health: no item path (/health/{id}) beside it');
  });

  it('curl lines name CONFORMANCE_TOKEN, the variable the token came from', async () => {
    const clock = new FakeClock();
    const server = await startExampleFixture({ breaks: { deleteNoop: true }, now: clock.now });
    const out = await tempFolder();
    try {
      const r = await cli(
        [
          'run',
          '--openapi',
          fixture('widgets-31.yaml'),
          '--base-url',
          server.baseUrl,
          '--out',
          out,
          '--quiet',
          // The one check whose failure's evidence this reads: the rest of the audit would add nothing.
          '--only',
          'delete-removes',
        ],
        tokenEnv(server),
        clock,
      );
      expect(r.code).toBe(1);
      const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8'));
      const failed = report.results.find((x: { checkId: string }) => x.checkId === 'delete-removes');
      expect(failed.status).toBe('failed');
      expect(failed.evidence[0].curl).toContain('CONFORMANCE_TOKEN');
      expect(failed.evidence[0].request.headers.authorization).toBe('Bearer [redacted]');
    } finally {
      await server.close();
    }
  });

  it("sends the token where the document's API-key scheme says (X-API-Key), redacted", async () => {
    const dir = await tempFolder();
    const file = join(dir, 'api-key.yaml');
    const text = readFileSync(fixture('widgets-31.yaml'), 'utf8').replace(
      'bearer: { type: http, scheme: bearer }',
      'bearer: { type: apiKey, in: header, name: X-API-Key }',
    );
    await writeFile(file, text);
    const seen: Array<Record<string, string | string[] | undefined>> = [];
    const server = await startRawFixture((req, res) => {
      seen.push(req.headers);
      const ok = req.headers['x-api-key'] === 'fixture-full-token';
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(ok ? '[]' : '{"error":"no key"}');
    });
    try {
      const out = await tempFolder();
      const r = await cli(
        ['run', '--openapi', file, '--base-url', server.baseUrl, '--out', out, '--only', 'MTH-READ'],
        tokenEnv(server),
      );
      expect(r.stderr).not.toContain('not supported');
      expect(r.stderr).not.toContain('refused');
      expect(seen.length).toBeGreaterThan(0);
      // Every request the run sent with credentials carried the key in X-API-Key, none as Bearer.
      expect(seen.some((h) => h['x-api-key'] === 'fixture-full-token')).toBe(true);
      expect(seen.filter((h) => h.authorization !== undefined)).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('without --base-url, a relative server URL is a clear error (exit 2)', async () => {
    const r = await cli(['run', '--openapi', fixture('petstore-30-refs', 'openapi.yaml')], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('server URL "/v1" is relative: pass --base-url');
  });

  it('an invalid document is reported problem by problem, with its path and line (exit 2), before any request', async () => {
    const dir = await tempFolder();
    const file = join(dir, 'bad.yaml');
    await writeFile(
      file,
      [
        'openapi: 3.0.3',
        'info: { title: t }',
        'paths:',
        '  /widgets:',
        '    get:',
        '      summery: typo',
        "      responses: { '200': { description: 5 } }",
      ].join('\n'),
    );
    const r = await cli(['run', '--openapi', file, '--base-url', 'http://127.0.0.1:9/v1'], {});
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toEqual([
      `conformance: ${file}: info: must have required property 'version' (line 2)`,
      `conformance: ${file}: paths["/widgets"].get: unknown key "summery" (line 6)`,
      `conformance: ${file}: paths["/widgets"].get.responses["200"].description: must be string (line 7)`,
    ]);
  });
});

describe('the config file and the document together', () => {
  it('`openapi:` in the config derives the resources; what the config sets wins, field by field', async () => {
    const clock = new FakeClock();
    const server = await startExampleFixture({ now: clock.now });
    const dir = await tempFolder();
    const out = join(dir, 'reports');
    try {
      await writeFile(
        join(dir, 'conformance.config.yaml'),
        [
          `openapi: ${fixture('widgets-31.yaml')}`,
          'auth:',
          '  token: ${MY_TOKEN}',
          'resources:',
          '  - name: widgets',
          '    path: /widgets',
          '    sample: { name: from-config, price: 7 }',
          '    operations: [list, read]',
        ].join('\n'),
      );
      const r = await cli(
        [
          'run',
          '--config',
          join(dir, 'conformance.config.yaml'),
          '--base-url',
          server.baseUrl,
          '--out',
          out,
          '--quiet',
        ],
        { MY_TOKEN: server.tokens.full },
        clock,
      );
      expect(r.code).toBe(0);
      const report = await readReport(out);
      const widgets = report.results.filter((x) => x.resource === 'widgets');
      // operations from the config: nothing that creates widgets ran.
      const create = widgets.find((x) => x.checkId === 'create-answers-201');
      expect(create?.status).toBe('skipped');
      // orders came from the document alone and were fully probed.
      const orders = report.results.filter(
        (x) => x.resource === 'orders' && x.checkId === 'create-answers-201',
      );
      expect(orders.map((x) => x.status)).toEqual(['passed']);
      // DOC-SCHEMA ran for widgets with the document's schema.
      expect(widgets.find((x) => x.checkId === 'matches-schema')?.status).toBe('passed');
    } finally {
      await server.close();
    }
  });

  it('--openapi <url>: the document (and its relative $refs) are fetched; a relative server URL resolves against it', async () => {
    // The example API serves the pet store's files next to its /v1 routes.
    const base = fixture('petstore-30-refs');
    const clock = new FakeClock();
    const api = createExampleApi({
      ...(await import('./helpers.js')).PETS_API,
      now: clock.now,
      middleware: (req, res) => {
        const m = /^\/docs\/(.+)$/.exec(req.url ?? '');
        if (!m) return false;
        try {
          const text = readFileSync(join(base, m[1]), 'utf8');
          res.writeHead(200, { 'content-type': 'application/yaml' }).end(text);
        } catch {
          res.writeHead(404).end();
        }
        return true;
      },
    });
    const { origin } = await api.listen(0, '127.0.0.1');
    const out = await tempFolder();
    try {
      const r = await cli(
        ['run', '--openapi', `${origin}/docs/openapi.yaml`, '--out', out, '--quiet'],
        { CONFORMANCE_TOKEN: api.tokens.full },
        clock,
      );
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const report = await readReport(out);
      expect(
        report.results.some(
          (x) => x.resource === 'pets' && x.checkId === 'matches-schema' && x.status === 'passed',
        ),
      ).toBe(true);
      const missing = await cli(['run', '--openapi', `${origin}/docs/nope.yaml`], {});
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain(
        `cannot fetch ${origin}/docs/nope.yaml: it answered 404, expected 200`,
      );
    } finally {
      await api.close();
    }
  });

  it('a document URL that never answers fails after the deadline, as exit 2', async () => {
    const server = await startRawFixture((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/yaml' });
      res.write('openapi: 3.0.3\n'); // and never ends
    });
    try {
      const { loadOpenApi } = await import('../../src/openapi/load.js');
      await expect(
        loadOpenApi(`${server.origin}/openapi.yaml`, { limits: { timeoutMs: 200 } }),
      ).rejects.toMatchObject({
        problems: [`cannot fetch ${server.origin}/openapi.yaml: no complete response within 200 ms`],
      });
    } finally {
      await server.close();
    }
  });
});
