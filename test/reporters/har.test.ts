// HAR export: HAR 1.2 shape DevTools imports, redaction, bounded memory, and every exchange of a real run.
import { describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main.js';
import type { Evidence } from '../../src/core/types.js';
import { packagePath } from '../../src/core/paths.js';
import { ExchangeLog, harDocument, harReporter, type HarEntry } from '../../src/reporters/har.js';
import { exampleEnv } from '../../src/testing/example-config.js';
import { startExampleFixture } from '../../src/testing/fixture-server.js';
import { fixtureRun } from './fixture.js';

type Json = Record<string, any>;

function exchange(evidence: Partial<Evidence> = {}, durationMs = 12, resource = 'widgets') {
  const full: Evidence = {
    request: {
      method: 'POST',
      url: 'https://api.example.com/v1/widgets?a=1&b=x%20y',
      headers: { authorization: 'Bearer [redacted]', 'content-type': 'application/json' },
      body: { name: 'bolt' },
    },
    response: {
      status: 201,
      headers: { 'content-type': 'application/json', location: '/v1/widgets/7' },
      body: { id: 7, name: 'bolt' },
      durationMs,
    },
    curl: 'curl …',
    ...evidence,
  };
  return { evidence: full, durationMs, resource };
}

/** The fields HAR 1.2 requires (and Chrome's importer reads) on one entry. */
function expectValidEntry(e: Json): void {
  expect(typeof e.startedDateTime).toBe('string');
  expect(Number.isNaN(Date.parse(e.startedDateTime))).toBe(false);
  expect(typeof e.time).toBe('number');
  for (const key of ['method', 'url', 'httpVersion']) expect(typeof e.request[key]).toBe('string');
  for (const key of ['headers', 'queryString', 'cookies']) expect(Array.isArray(e.request[key])).toBe(true);
  expect(typeof e.request.headersSize).toBe('number');
  expect(typeof e.request.bodySize).toBe('number');
  expect(typeof e.response.status).toBe('number');
  for (const key of ['statusText', 'httpVersion', 'redirectURL'])
    expect(typeof e.response[key]).toBe('string');
  for (const key of ['headers', 'cookies']) expect(Array.isArray(e.response[key])).toBe(true);
  expect(typeof e.response.content.size).toBe('number');
  expect(typeof e.response.content.mimeType).toBe('string');
  expect(e.cache).toEqual({});
  for (const key of ['send', 'wait', 'receive']) expect(typeof e.timings[key]).toBe('number');
}

describe('ExchangeLog and the HAR document', () => {
  it('turns an exchange into a HAR 1.2 entry', () => {
    const log = new ExchangeLog({ now: () => Date.parse('2026-11-22T10:00:01.000Z') });
    log.add(exchange());
    const doc = JSON.parse(harReporter.render(fixtureRun(), { color: false, exchanges: log })) as Json;
    expect(harReporter.fileName).toBe('exchanges.har');
    expect(doc.log.version).toBe('1.2');
    expect(doc.log.creator).toEqual({ name: 'conformance', version: '0.1.0' });
    const [entry] = doc.log.entries as Json[];
    expectValidEntry(entry);
    expect(entry.startedDateTime).toBe('2026-11-22T10:00:00.988Z');
    expect(entry.time).toBe(12);
    expect(entry.timings).toEqual({ send: 0, wait: 12, receive: 0 });
    expect(entry.request.queryString).toEqual([
      { name: 'a', value: '1' },
      { name: 'b', value: 'x y' },
    ]);
    expect(entry.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer [redacted]' });
    expect(entry.request.postData).toEqual({
      mimeType: 'application/json',
      text: JSON.stringify({ name: 'bolt' }, null, 2),
    });
    expect(entry.response).toMatchObject({
      status: 201,
      statusText: 'Created',
      redirectURL: '/v1/widgets/7',
      content: { mimeType: 'application/json', text: JSON.stringify({ id: 7, name: 'bolt' }, null, 2) },
    });
    expect(entry._resource).toBe('widgets');
  });

  it('records a request that got no answer with status 0 and the error', () => {
    const log = new ExchangeLog();
    log.add(exchange({ response: null, error: 'UND_ERR_HEADERS_TIMEOUT: headers not received' }));
    const entry = log.entries[0] as HarEntry;
    expectValidEntry(entry);
    expect(entry.response.status).toBe(0);
    expect(entry.response._error).toBe('UND_ERR_HEADERS_TIMEOUT: headers not received');
  });

  it('stays bounded: bodies cut, a body budget, and an entry limit', () => {
    const big = 'y'.repeat(20_000);
    const log = new ExchangeLog({ maxEntries: 3, maxBodyChars: 100, maxTotalBodyChars: 250 });
    for (let i = 0; i < 5; i++) {
      log.add(
        exchange({ response: { status: 200, headers: {}, body: big, durationMs: 1, truncated: true } }),
      );
    }
    expect(log.entries).toHaveLength(3);
    expect(log.dropped).toBe(2);
    const [first, , third] = log.entries;
    expect(first.response.content.text!.length).toBeLessThan(150);
    expect(first.response.content.comment).toMatch(/body cut/);
    expect(third.response.content.text).toBeUndefined();
    expect(third.comment).toMatch(/budget/);
    const doc = harDocument(fixtureRun(), log) as Json;
    expect(doc.log.comment).toContain('2 later exchanges left out (entry limit)');
    expect(JSON.stringify(doc).length).toBeLessThan(10_000);
  });

  it('renders an empty log when no exchanges were recorded', () => {
    const doc = JSON.parse(harReporter.render(fixtureRun(), { color: false })) as Json;
    expect(doc.log.entries).toEqual([]);
    expect(doc.log.comment).toContain('no exchanges were recorded');
  });
});

describe('conformance run --reporter har', () => {
  it('writes every exchange of the audit, with the token redacted', async () => {
    const server = await startExampleFixture();
    const out = await mkdtemp(join(tmpdir(), 'conf-har-'));
    try {
      const stdout = new PassThrough().resume();
      const stderr = new PassThrough().resume();
      const code = await main(
        [
          'run',
          '--base-url',
          server.baseUrl,
          '--config',
          packagePath('config', 'example.yaml'),
          '--out',
          out,
          '--reporter',
          'json,har',
          '--only',
          'MTH-*',
        ],
        { io: { stdout, stderr, env: exampleEnv(server) } },
      );
      expect(code).toBe(0);
      const text = await readFile(join(out, 'exchanges.har'), 'utf8');
      const report = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8')) as Json;
      const har = JSON.parse(text) as Json;
      expect(har.log.entries.length).toBe(report.summary.requests);
      for (const e of har.log.entries as Json[]) expectValidEntry(e);
      expect(har.log.entries.map((e: Json) => e.request.method)).toEqual(
        expect.arrayContaining(['GET', 'POST', 'DELETE']),
      );
      const auth = (har.log.entries as Json[])
        .flatMap((e) => e.request.headers as Json[])
        .filter((h) => h.name === 'authorization');
      expect(auth.length).toBeGreaterThan(0);
      expect(auth.every((h) => h.value === 'Bearer [redacted]')).toBe(true);
      expect(text).not.toContain(server.tokens.full);
      expect(text).not.toContain(server.tokens.limited);
      // Each entry says which check sent it (with its rules), or which phase of the audit did.
      const entries = har.log.entries as Json[];
      const rulesOf = new Map((report.results as Json[]).map((r) => [r.checkId, r.rules]));
      for (const e of entries) {
        if (e._check === undefined) expect(['setup', 'cleanup']).toContain(e._phase);
        else expect([e._check, e._rules]).toEqual([e._check, rulesOf.get(e._check)]);
      }
      const byCheck = (id: string) => entries.filter((e) => e._check === id);
      expect(byCheck('create-answers-201').map((e) => e.request.method)).toContain('POST');
      expect(byCheck('create-answers-201')[0]._rules).toEqual(['MTH-CREATE']);
      expect(byCheck('delete-removes').map((e) => e.request.method)).toContain('DELETE');
      expect(entries.filter((e) => e._phase === 'setup').length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});
