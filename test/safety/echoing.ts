// Echoing fixtures: example-API middleware that sends the caller's credentials back, the plain way and in every spelling.
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { packagePath } from '../../src/core/paths.js';
import type { Clock } from '../../src/http/client.js';
import { startExampleFixture, type FixtureServer } from '../../src/testing/fixture-server.js';
import { cli, LIMITED_TOKEN, readAll, tempDir, WEBHOOK_SECRET } from './helpers.js';
import { startCounter } from './hostile.js';
import { echoSpellings } from './spellings.js';

/** What the echoing middleware did, so a test cannot pass without the echoes happening. */
export interface Echoes {
  headers: number;
  errorBodies: number;
  textBodies: number;
  redirects: number;
}

export function noEchoes(): Echoes {
  return { headers: 0, errorBodies: 0, textBodies: 0, redirects: 0 };
}

/** Paths of ids the audit made up (never issued): the audit reads them expecting a 404. */
const UNKNOWN_ID = /\/(2[01]\d{8}|[^/]*conformance0missing[^/]*)$/;

/**
 * Answers like the example API, plus: every response echoes the Authorization header and sets it
 * as a cookie; unknown ids get a text/plain page quoting it; bodies sent as text/plain get a 500
 * whose JSON quotes it raw, "\/"-escaped and \u-escaped; GET /orders redirects to another origin
 * with it in the query; GET on the base URL quotes the webhook secret.
 */
export function echoing(echoes: Echoes, otherOrigin: string) {
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
    if (auth && UNKNOWN_ID.test(url.pathname)) {
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

const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

/** An HTML page quoting each spelling of each secret, and pieces of them, as a debug page does. */
function debugPage(secrets: string[]): string {
  const rows = secrets.flatMap((secret) => [
    ...echoSpellings(secret).map(([name, text]) => `<tr><th>${name}</th><td>${text}</td></tr>`),
    `<tr><th>starts</th><td>${secret.slice(0, 14)}…</td></tr>`,
    `<tr><th>ends</th><td>…${secret.slice(-13)}</td></tr>`,
  ]);
  return `<!DOCTYPE html><html><body><h1>500 Internal Server Error</h1><table>\n${rows.join('\n')}\n</table></body></html>`;
}

/**
 * Like `echoing`, but in every spelling a careless service uses (see echoSpellings): the bearer
 * token in each spelling in a response header and a cookie (in turn), and in header names (hex, base64url;
 * `nameSafe` raw, a secret made only of header-name characters); unknown ids get a 500 HTML debug
 * page with every spelling of the token and of `others` (split by line breaks too) and pieces of
 * them; text/plain bodies get a 500 JSON error quoting every spelling; GET on the base URL quotes
 * every spelling of `others` in JSON.
 */
export function echoingEverySpelling(echoes: Echoes, others: string[], nameSafe: string) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const token = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    const url = new URL(req.url ?? '/', 'http://x');
    if (token) {
      // A few spellings per response, in turn (all of them at once would overflow the client's
      // header limit): over a run, every one is echoed many times.
      const spellings = echoSpellings(token)
        .map(([, text]) => text)
        .filter((text) => HEADER_VALUE.test(text));
      const pick = (offset: number): string => spellings[(echoes.headers + offset) % spellings.length];
      res.setHeader('x-echo', pick(0));
      res.setHeader('set-cookie', [`raw=${token}; Path=/`, `spelt=${pick(7)}; Path=/`]);
      res.setHeader(`x-${Buffer.from(token).toString('hex')}`, '1');
      res.setHeader(`x-${Buffer.from(token).toString('base64url')}`, '1');
      res.setHeader(`x-${nameSafe}`, '1');
      echoes.headers++;
    }
    if (url.pathname === '/v1' || url.pathname === '/v1/') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ service: 'echo', keys: others.map((s) => Object.fromEntries(echoSpellings(s))) }),
      );
      return true;
    }
    if (token && UNKNOWN_ID.test(url.pathname)) {
      echoes.textBodies++;
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end(debugPage([token, ...others]));
      return true;
    }
    if (token && req.method === 'POST' && req.headers['content-type'] === 'text/plain') {
      echoes.errorBodies++;
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'crashed', credential: Object.fromEntries(echoSpellings(token)) }));
      return true;
    }
    return false;
  };
}

/** The example API behind `echoing`, and the other origin its redirect points at (which must get no request). */
export interface EchoingApi {
  server: FixtureServer;
  other: FixtureServer & { requests: number };
  echoes: Echoes;
  /** Stops both servers. */
  close(): Promise<void>;
}

/**
 * Starts the example API with `full` as its token (the safety limited token and webhook secret)
 * behind `echoing`; `clock` is the API's (see `auditAllOutputs`).
 */
export async function startEchoingApi(full: string, clock?: Clock): Promise<EchoingApi> {
  const other = await startCounter();
  const echoes = noEchoes();
  const server = await startExampleFixture({
    tokens: { full, limited: LIMITED_TOKEN },
    webhookSecret: WEBHOOK_SECRET,
    middleware: echoing(echoes, other.origin),
    ...(clock ? { now: clock.now } : {}),
  }).catch(async (error: unknown) => {
    await other.close();
    throw error;
  });
  return {
    server,
    other,
    echoes,
    close: async () => {
      await server.close();
      await other.close();
    },
  };
}

/** Every output of a run: stdout, stderr, each report file and the step summary, as [name, text]. */
export interface AuditOutputs {
  code: number;
  stdout: string;
  stderr: string;
  out: string;
  outputs: Array<[string, string]>;
}

/**
 * Runs `conformance run` against the server with every reporter, --verbose, and a step summary,
 * and collects every byte it wrote. `clock`, when given, is the audit's clock: a `FakeClock` the
 * API reads too (its `now`), so that the rate limit's waits (LIM-RETRY's, pacing) take no real time.
 */
export async function auditAllOutputs(
  server: FixtureServer,
  env: NodeJS.ProcessEnv,
  config = packagePath('config', 'example.yaml'),
  clock?: Clock,
): Promise<AuditOutputs> {
  const dir = await tempDir();
  const out = join(dir, 'reports');
  const stepSummary = join(dir, 'step-summary.md');
  const run = await cli(
    [
      'run',
      '--config',
      config,
      '--base-url',
      server.baseUrl,
      '--out',
      out,
      '--reporter',
      'console,json,junit,html,markdown,har',
      '--verbose',
      '--no-color',
    ],
    { env: { ...env, GITHUB_STEP_SUMMARY: stepSummary }, ...(clock ? { clock } : {}) },
  );
  const files = await readAll(out);
  files.set(stepSummary, await readFile(stepSummary));
  const names = [...files.keys()].map((f) => f.split('/').pop()).sort();
  for (const expected of ['conformance.json', 'exchanges.har', 'junit.xml', 'report.html', 'summary.md'])
    if (!names.includes(expected))
      throw new Error(`the run wrote no ${expected} (it wrote ${names.join(', ')})`);
  return {
    code: run.code,
    stdout: run.stdout,
    stderr: run.stderr,
    out,
    outputs: [
      ['stdout', run.stdout],
      ['stderr', run.stderr],
      ...[...files].map(([name, bytes]): [string, string] => [name, bytes.toString('utf8')]),
    ],
  };
}
