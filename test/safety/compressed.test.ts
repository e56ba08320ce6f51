// Compressed answers are read decoded (gzip, deflate, br); a decompression bomb is cut at the cap; a body that does not decode says so.
import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as zlib from 'node:zlib';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { startReshaping, writeAnswer } from './bounds-fixtures.js';
import { auditExample, readReport, STACK_LINE, tempDir, writeConfig } from './helpers.js';
import { runMeasured } from './peak.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

const ENCODERS: Record<string, (b: Buffer) => Buffer> = {
  gzip: (b) => zlib.gzipSync(b),
  deflate: (b) => zlib.deflateSync(b),
  'raw deflate': (b) => zlib.deflateRawSync(b),
  br: (b) => zlib.brotliCompressSync(b),
};

/** The example API behind a proxy that compresses every answer with a body (as some proxies do, asked or not). */
async function compressing(name: string, options: Parameters<typeof startReshaping>[1] = {}) {
  const server = await startReshaping((answer, _req, res) => {
    if (answer.body.length === 0) return writeAnswer(res, answer);
    const coding = name === 'raw deflate' ? 'deflate' : name;
    writeAnswer(res, answer, { headers: { 'content-encoding': coding }, body: ENCODERS[name](answer.body) });
  }, options);
  closers.push(() => server.close());
  return server;
}

describe('a correct API that compresses every answer', () => {
  it.each(Object.keys(ENCODERS))('%s: passes untouched', async (name) => {
    // The audit and the API share a fake clock: time moves only when the audit waits (its pacing, a
    // 429's Retry-After, LIM-RETRY's wait), and those waits take no real time. So the rate-limit
    // burst meets the limit on any machine, however slowly compressing every answer (br most) lets
    // it go, and the audit is never paced in real time. The limit of 20 a second keeps the burst short.
    const clock = new FakeClock();
    const server = await compressing(name, {
      rateLimit: { limit: 20, windowMs: 1000, scope: 'endpoint' },
      now: clock.now,
    });
    const run = await auditExample(server, [], clock);
    expect(run.report.results.filter((r) => r.status === 'failed' || r.status === 'errored')).toEqual([]);
    expect(run.code).toBe(0);
  });

  it('evidence shows the decoded body and says it came compressed', async () => {
    const server = await compressing('gzip', { breaks: { createStatus200: true } });
    // Only the check whose evidence is read: the full audit of a compressing API is the test above.
    const run = await auditExample(server, ['--only', 'MTH-CREATE']);
    const failed = run.report.results.find(
      (r) => r.checkId === 'create-answers-201' && r.status === 'failed',
    );
    const evidence = failed!.evidence.find((e) => e.request.method === 'POST' && e.response?.status === 200)!;
    // Decoded: the created item as JSON, not compressed bytes.
    expect(evidence.response!.body).toMatchObject({ id: expect.anything(), createdAt: expect.any(String) });
    expect(evidence.notes?.join('\n')).toMatch(
      /the body came compressed \(Content-Encoding: gzip, \d+ bytes received\) and is shown decoded \(\d+ bytes\)/,
    );
  });
});

describe('compressed answers that cannot be used', () => {
  it('a body declared gzip that does not decode: GEN-JSON fails saying so, with no stack trace', async () => {
    const server = await startReshaping((answer, _req, res) =>
      answer.body.length === 0
        ? writeAnswer(res, answer)
        : writeAnswer(res, answer, { headers: { 'content-encoding': 'gzip' } }),
    );
    closers.push(() => server.close());
    const run = await auditExample(server);
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).not.toMatch(STACK_LINE);
    const genJson = run.report.results.filter((r) => r.rules.includes('GEN-JSON') && r.status === 'failed');
    expect(genJson[0].message).toMatch(
      /the body is declared gzip-compressed but does not decode \(incorrect header check\)/,
    );
  });

  it('a decompression bomb (2 MB inflating to 1 GB) is cut at the cap; the audit stays within 150 MB', async () => {
    // 1 GB of spaces as 128 gzip members of 8 MB each (gzip allows members one after another).
    const member = zlib.gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20), { level: 9 });
    const bomb = Buffer.concat(Array<Buffer>(128).fill(member));
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': String(bomb.length),
      });
      res.end(bomb);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    const dir = await tempDir();
    const out = `${dir}/reports`;
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const run = await runMeasured(
      ['run', '--config', await writeConfig(dir), '--base-url', baseUrl, '--out', out, '--skip', 'LIM-*'],
      { SAFETY_TOKEN: 'bomb-token-0123456789' },
    );
    expect(run.code).toBe(1);
    const report = await readReport(out);
    const errors = report.results.flatMap((r) => r.evidence.map((e) => e.error ?? ''));
    expect(errors).toContain(
      'gzip-compressed response body, decoded, larger than 10485760 bytes: stopped reading at the cap',
    );
    expect(run.peakMb).toBeLessThan(150);
  }, 120_000);
});
