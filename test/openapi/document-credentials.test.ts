// `--openapi <url>` sends the configured credential for the document, to the base URL's origin only.
import { afterEach, describe, expect, it } from '@jest/globals';
import type { IncomingHttpHeaders } from 'node:http';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startRawFixture, type FixtureServer } from '../../src/testing/fixture-server.js';
import { cli, tempFolder } from './helpers.js';

const KEY = 'doc-key-5f2c9a77e1';

const DOCUMENT = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'protected', version: '1' },
  paths: {
    '/widgets': { get: { responses: { '200': { description: 'ok' } } } },
    '/widgets/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { responses: { '200': { description: 'ok' } } },
    },
  },
});

const servers: FixtureServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A server whose /openapi.json needs the key in X-API-Key (or `Authorization: Bearer <key>`); it records every request. */
async function protectedServer(
  seen: Array<{ url: string; headers: IncomingHttpHeaders }>,
  redirect?: () => string,
): Promise<FixtureServer> {
  const server = await startRawFixture((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    if (redirect && req.url === '/openapi.json') {
      res.writeHead(302, { location: redirect() });
      return res.end();
    }
    const ok = req.headers['x-api-key'] === KEY || req.headers.authorization === `Bearer ${KEY}`;
    if (req.url === '/openapi.json' && !ok) {
      res.writeHead(401, { 'content-type': 'application/json' });
      return res.end('{"error":"key required"}');
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(req.url === '/openapi.json' ? DOCUMENT : '[]');
  });
  servers.push(server);
  return server;
}

async function configWithKey(): Promise<string> {
  const file = join(await tempFolder(), 'conformance.config.yaml');
  await writeFile(file, 'auth:\n  token: ${API_KEY}\n  header: X-API-Key\nresources: []\n');
  return file;
}

const credentialIn = (seen: Array<{ headers: IncomingHttpHeaders }>): boolean =>
  seen.some((r) => JSON.stringify(r.headers).includes(KEY));

/** `conformance run` with the X-API-Key config (API_KEY=`key`), the document at `document`, against `api`; `extra` follows --out. */
async function runWithDocument(document: string, api: FixtureServer, key: string, extra: string[] = []) {
  return cli(
    [
      'run',
      '--config',
      await configWithKey(),
      '--openapi',
      document,
      '--base-url',
      api.baseUrl,
      '--out',
      await tempFolder(),
      ...extra,
    ],
    { API_KEY: key },
  );
}

describe('--openapi <url> with credentials', () => {
  it('sends the configured credential (as auth places it) to a document on the base URL origin', async () => {
    const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
    const api = await protectedServer(seen);
    const r = await runWithDocument(`${api.origin}/openapi.json`, api, KEY, ['--only', 'RES-NOUN']);
    expect(r.stderr).not.toContain('cannot fetch');
    expect(r.code).toBe(0);
    expect(seen.find((x) => x.url === '/openapi.json')?.headers['x-api-key']).toBe(KEY);
  });

  it('never sends it to a document on another origin; the 401 says why none was sent', async () => {
    const seenDoc: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
    const elsewhere = await protectedServer(seenDoc);
    const api = await protectedServer([]);
    const r = await runWithDocument(`${elsewhere.origin}/openapi.json`, api, KEY);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `cannot fetch ${elsewhere.origin}/openapi.json: it answered 401, expected 200: no credentials were sent (auth.token goes only to the base URL's origin, ${api.origin})`,
    );
    expect(seenDoc.length).toBe(1);
    expect(credentialIn(seenDoc)).toBe(false);
    expect(r.stderr + r.stdout).not.toContain(KEY);
  });

  it('a redirect to another origin is not followed: the credential never leaves the base URL origin', async () => {
    const seenOther: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
    const other = await protectedServer(seenOther);
    const api = await protectedServer([], () => `${other.origin}/openapi.json`);
    const r = await runWithDocument(`${api.origin}/openapi.json`, api, KEY);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not followed: another origin, and credentials are never sent there');
    expect(seenOther).toEqual([]);
  });

  it('a refused credential is named, never shown', async () => {
    const api = await protectedServer([]);
    const r = await runWithDocument(`${api.origin}/openapi.json`, api, 'wrong-key-0000000');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('it answered 401, expected 200: auth.token was sent and refused');
    expect(r.stderr).not.toContain('wrong-key');
  });

  it('init --openapi <url> --base-url sends CONFORMANCE_TOKEN (bearer) on that origin only', async () => {
    const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
    const api = await protectedServer(seen);
    const r = await cli(
      ['init', '--openapi', `${api.origin}/openapi.json`, '--base-url', api.baseUrl, '--print'],
      {
        CONFORMANCE_TOKEN: KEY,
      },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('name: widgets');
    expect(r.stdout).not.toContain(KEY);
    const seenElsewhere: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
    const elsewhere = await protectedServer(seenElsewhere);
    const refused = await cli(
      ['init', '--openapi', `${elsewhere.origin}/openapi.json`, '--base-url', api.baseUrl, '--print'],
      { CONFORMANCE_TOKEN: KEY },
    );
    expect(refused.code).toBe(2);
    expect(credentialIn(seenElsewhere)).toBe(false);
  });
});
