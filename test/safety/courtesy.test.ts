// Courtesy to the service: a 429 is waited out as the service says (bounded) and retried, so a tightly
// rate-limited service yields no false failures; --max-rps spaces the audit's own requests. Time is a
// fake clock shared by the client and the server: nothing here sleeps.
import { describe, expect, it } from '@jest/globals';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { packagePath } from '../../src/core/paths.js';
import { runAudit } from '../../src/engine/run.js';
import { strictRateLimit } from '../../src/example-api/index.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { startExampleFixture } from '../../src/testing/fixture-server.js';
import { exampleConfig, exampleEnv } from '../../src/testing/example-config.js';
import { catalogue } from '../../suites/index.js';
import { cli, tempDir } from './helpers.js';

/** Answers 429 (Retry-After: seconds to the window's end) past `limit` requests per method and path per second. */
function tightLimit(clock: FakeClock, limit: number, refused: { count: number }) {
  const windows = new Map<string, { start: number; count: number }>();
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const key = `${req.method} ${req.url}`;
    const start = Math.floor(clock.now() / 1000) * 1000;
    let window = windows.get(key);
    if (!window || window.start !== start) windows.set(key, (window = { start, count: 0 }));
    if (++window.count <= limit) return false;
    refused.count++;
    const retryAfter = Math.max(1, Math.ceil((start + 1000 - clock.now()) / 1000));
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(retryAfter) });
    res.end('{"error":"too many requests"}');
    return true;
  };
}

describe('a rate-limited service', () => {
  it('answering 429 during ordinary checks: waited for as told and retried, no false failures', async () => {
    const clock = new FakeClock();
    const refused = { count: 0 };
    const server = await startExampleFixture({
      rateLimit: false,
      now: clock.now,
      middleware: tightLimit(clock, 2, refused),
    });
    try {
      const config = await exampleConfig(server);
      const waits: string[] = [];
      // LIM-* probe the limit on purpose, in real time; every other check must come through unharmed.
      const result = await runAudit(config, {
        catalogue,
        skip: ['LIM-*'],
        clock,
        timeoutMs: 5000,
        onExchange: (x) =>
          waits.push(...(x.evidence.notes ?? []).filter((n) => n.startsWith('answered 429'))),
      });
      const bad = result.results.filter((r) => r.status === 'failed' || r.status === 'errored');
      expect(bad.map((r) => `${r.checkId} ${r.resource ?? ''}: ${r.message}`)).toEqual([]);
      expect(result.results.filter((r) => /rate-limited/.test(r.message ?? ''))).toEqual([]);
      expect(refused.count).toBeGreaterThan(10);
      // Every wait was at least the one the service asked for (to the end of its one-second window),
      // and longer only when that wait had proved too short (a retry after it refused again).
      expect(waits.length).toBeGreaterThan(0);
      for (const note of waits) {
        const waited = Number(/waited (\d+\.\d) s/.exec(note)?.[1]);
        expect(waited).toBeGreaterThanOrEqual(note.includes('proved too short') ? 1 : 0);
        if (!note.includes('proved too short')) expect(waited).toBeLessThanOrEqual(1);
      }
      expect(result.cleanup.leftovers).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('asking for an hour: each wait is capped, and the checks it blocks are skipped, not failed', async () => {
    const clock = new FakeClock();
    let refused = 0;
    const server = await startExampleFixture({
      rateLimit: false,
      now: clock.now,
      middleware: (req, res) => {
        if (req.method !== 'GET' || req.url !== '/v1/widgets') return false;
        refused++;
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3600' });
        res.end('{"error":"come back in an hour"}');
        return true;
      },
    });
    try {
      const config = await exampleConfig(server);
      const result = await runAudit(config, { catalogue, skip: ['LIM-*'], clock, timeoutMs: 5000 });
      expect(refused).toBeGreaterThan(0);
      expect(Math.max(...clock.sleeps)).toBeLessThanOrEqual(30_000);
      const read = result.results.find(
        (r) => r.checkId === 'read-collection-and-item' && r.resource === 'widgets',
      );
      expect(read?.status).toBe('skipped');
      expect(read?.message).toMatch(
        /rate-limited: GET \/v1\/widgets was still answered 429 after the audit waited/,
      );
      const bad = result.results.filter((r) => r.status === 'failed' && r.resource === 'widgets');
      expect(bad.map((r) => `${r.checkId}: ${r.message}`)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('a limiter at 50 requests per second answering Retry-After: 0', () => {
  // A real limiter says "retry now" and refuses the retry too: the audit must back off on its own,
  // lower its rate after a 429 (AIMD), and read RateLimit-* to slow down before one.
  for (const advertise of [true, false]) {
    it(`${advertise ? 'with RateLimit-* headers' : 'with no RateLimit-* header'}: no check skipped as rate-limited, none failed`, async () => {
      const clock = new FakeClock();
      const server = await startExampleFixture({ rateLimit: strictRateLimit(50, advertise), now: clock.now });
      let limited = 0;
      try {
        const config = await exampleConfig(server);
        const result = await runAudit(config, {
          catalogue,
          skip: ['LIM-*'],
          clock,
          timeoutMs: 5000,
          random: () => 0.5,
          onExchange: (x) => {
            if (x.evidence.notes?.some((n) => n.startsWith('answered 429'))) limited++;
          },
        });
        const bad = result.results.filter((r) => r.status === 'failed' || r.status === 'errored');
        expect(bad.map((r) => `${r.checkId} ${r.resource ?? ''}: ${r.message}`)).toEqual([]);
        expect(result.results.filter((r) => /rate-limited/.test(r.message ?? ''))).toEqual([]);
        expect(result.summary.skipped).toBe(0);
        // Paced: the client waited, and without headers it met 429s and came back from them.
        expect(clock.sleeps.length).toBeGreaterThan(0);
        if (!advertise) expect(limited).toBeGreaterThan(0);
        expect(result.cleanup.leftovers).toEqual([]);
      } finally {
        await server.close();
      }
    });
  }
});

describe('--max-rps', () => {
  it('spaces the audit’s requests at 1/N s', async () => {
    const clock = new FakeClock();
    const arrivals: number[] = [];
    const server = await startExampleFixture({
      now: clock.now,
      middleware: () => {
        arrivals.push(clock.now());
        return false;
      },
    });
    try {
      const out = join(await tempDir(), 'reports');
      const args = ['run', '--config', packagePath('config', 'example.yaml'), '--base-url', server.baseUrl];
      // One check at a time, so requests are sent one after another and the fake clock is exact
      // (delete-removes reads the collection and its items at once: concurrent waits on a fake
      // clock add up, so their arrival times would not show the spacing the client kept).
      const run = await cli(
        [
          ...args,
          ...['--out', out, '--quiet', '--max-rps', '4', '--concurrency', '1'],
          ...['--only', 'methods', '--skip', 'delete-removes'],
        ],
        {
          env: exampleEnv(server),
          clock,
        },
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(arrivals.length).toBeGreaterThan(10);
      // Arrivals are stamped when the server reads them: two reads sent together (a state
      // comparison reads the collection and its items at once) go 250 ms apart but may both be
      // stamped at the second one's time. So: 4 per second on average, and never 5 in 750 ms.
      const span = arrivals[arrivals.length - 1] - arrivals[0];
      expect(span / (arrivals.length - 1)).toBeGreaterThanOrEqual(250);
      const fives = arrivals.slice(4).map((t, i) => t - arrivals[i]);
      expect(Math.min(...fives)).toBeGreaterThanOrEqual(750);
    } finally {
      await server.close();
    }
  });
});
