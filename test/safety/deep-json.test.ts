// Deeply nested JSON and endless one-byte bodies: the audit ends in bounded time and memory, with a verdict and no stack trace.
import { afterEach, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { startReshaping, writeAnswer } from './bounds-fixtures.js';
import { auditExample, ENV, readAll, readReport, STACK_LINE, tempDir, writeConfig } from './helpers.js';
import { startHostile, type HostileKind } from './hostile.js';
import { runMeasured } from './peak.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

/** The README's bound on the audit's peak memory. */
const PEAK_MB = 150;

async function hostile(kind: HostileKind) {
  const server = await startHostile(kind);
  closers.push(() => server.close());
  return server;
}

/** The CLI in a child process (its peak memory is its own), every report written. */
async function measuredAudit(baseUrl: string, extra: string[]) {
  const dir = await tempDir();
  const out = join(dir, 'reports');
  const args = ['run', '--config', await writeConfig(dir), '--base-url', baseUrl, '--out', out];
  const run = await runMeasured([...args, '--reporter', 'console,json,junit,html,markdown', ...extra], ENV);
  return { ...run, out, report: await readReport(out) };
}

describe('JSON nested deeper than the audit parses', () => {
  it.each<[HostileKind, string]>([
    ['deep-array', '8 MB of [[[…]]]'],
    ['deep-object', 'a million nested objects'],
  ])(
    '%s (%s): not usable JSON, evidence cut, no stack overflow, within the memory bound',
    async (kind) => {
      const server = await hostile(kind);
      const run = await measuredAudit(server.baseUrl, ['--skip', 'LIM-*', '--timeout', '5000']);
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).not.toMatch(STACK_LINE);
      expect(run.stdout + run.stderr).not.toMatch(/Maximum call stack/);
      expect(run.report.results.filter((r) => r.status === 'errored')).toEqual([]);
      const genJson = run.report.results.filter((r) => r.rules.includes('GEN-JSON') && r.status === 'failed');
      expect(genJson.length).toBeGreaterThan(0);
      expect(genJson[0].message).toMatch(
        /labelled application\/json but the body nests arrays or objects more than 512 levels deep: not usable JSON/,
      );
      // The evidence shows the start of the body, cut: no report holds megabytes of brackets.
      const body = genJson[0].evidence[0].response!.body as string;
      expect(body).toMatch(/… \[\d+ more characters not shown\]$/);
      for (const [name, bytes] of await readAll(run.out)) {
        expect({ name, small: bytes.length < 2 * 1024 * 1024 }).toEqual({ name, small: true });
        expect(bytes.toString('utf8')).not.toMatch(/Maximum call stack/);
      }
      // Every request got its answer: no event-loop stall made a false time-out.
      expect(run.report.summary.answered).toBe(run.report.summary.requests);
      expect(run.peakMb).toBeLessThan(PEAK_MB);
      if (process.env.SHOW_PEAKS) process.stderr.write(`${kind}: ${run.peakMb} MB\n`);
    },
    120_000,
  );

  it('the correct variant: answers nested 500 levels deep (under the limit) pass untouched', async () => {
    // Each object answer gains a member nested 500 levels deep; everything else is the example API.
    const nested = '{"n":'.repeat(499) + '1' + '}'.repeat(499);
    // On a fake clock shared with the API (see the byte-per-chunk variant): no wait takes real time.
    const clock = new FakeClock();
    const server = await startReshaping(
      (answer, _req, res) => {
        const text = answer.body.toString('utf8');
        if (!text.startsWith('{')) return writeAnswer(res, answer);
        writeAnswer(res, answer, { body: Buffer.from(`{"deep":${nested},${text.slice(1)}`) });
      },
      { now: clock.now },
    );
    closers.push(() => server.close());
    const run = await auditExample(server, [], clock);
    expect(run.report.results.filter((r) => r.status === 'failed' || r.status === 'errored')).toEqual([]);
    expect(run.code).toBe(0);
  });
});

describe('a body sent one byte at a time', () => {
  it('endless: the deadline covers the whole body; ERR-SERVER fails, memory stays bounded', async () => {
    // Four requests meet the deadline one after another (three in a row, then the breaker's probe):
    // 500 ms each of eight one-byte chunks a turn is more chunks than 1.5 s each of one a turn was.
    const server = await hostile('drip-bytes');
    const run = await measuredAudit(server.baseUrl, ['--timeout', '500']);
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).not.toMatch(STACK_LINE);
    const errServer = run.report.results.filter(
      (r) => r.rules.includes('ERR-SERVER') && r.status === 'failed',
    );
    expect(errServer.flatMap((r) => r.evidence.map((e) => e.error))).toContain(
      'no complete response within 500 ms',
    );
    expect(run.report.results.some((r) => /the service stopped answering/.test(r.message ?? ''))).toBe(true);
    expect(run.peakMb).toBeLessThan(PEAK_MB);
    if (process.env.SHOW_PEAKS) process.stderr.write(`drip-bytes: ${run.peakMb} MB\n`);
  }, 120_000);

  it('the correct variant: every answer sent one byte per chunk, but complete, passes untouched', async () => {
    // The audit and the API share a fake clock (see compressed.test.ts): the rate-limit burst meets
    // the limit however slowly byte-per-chunk answers let it go, and no wait takes real time.
    const clock = new FakeClock();
    const server = await startReshaping(
      (answer, _req, res) => {
        const headers = { ...answer.headers };
        delete headers['content-length'];
        res.writeHead(answer.status, headers);
        // Each write is a chunk of its own (chunked encoding): the client sees one byte per chunk.
        for (let at = 0; at < answer.body.length; at++) res.write(answer.body.subarray(at, at + 1));
        res.end();
      },
      { rateLimit: { limit: 20, windowMs: 1000, scope: 'endpoint' }, now: clock.now },
    );
    closers.push(() => server.close());
    const run = await auditExample(server, [], clock);
    expect(run.report.results.filter((r) => r.status === 'failed' || r.status === 'errored')).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.report.summary.answered).toBeGreaterThan(0);
  }, 60_000);
});
