// Large bodies under the cap: memory stays within the bound, and a state read cut short is "could not compare", never an effect.
import { afterEach, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { packagePath } from '../../src/core/paths.js';
import { exampleEnv } from '../../src/testing/example-config.js';
import { startReshaping, writeAnswer } from './bounds-fixtures.js';
import { cli, readReport, tempDir } from './helpers.js';
import { runMeasured } from './peak.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

const MB = 1024 * 1024;
const example = packagePath('config', 'example.yaml');

/** The checks that compare the state before and after a request (and MTH-CREATE's read-back). */
const COMPARING = [
  'missing-credentials-401',
  'invalid-credentials-401',
  'forbidden-403',
  'delete-removes',
  'put-repeatable',
  'delete-repeatable',
  'malformed-400',
];

describe('answers about widgets 9 MB (under the 10 MB cap)', () => {
  // Every check runs on widgets, several at once (concurrency 4), so the checks meet 9 MB answers
  // and the peak holds concurrent ones. Padded: every 2xx answer (each representation the audit
  // parses, keeps and compares: every state read) and the first error answer of each method and
  // status (each kind of error body read at 9 MB once). Padding every answer (about 300, a third of
  // them the auth matrix's 401s) took 52 s alone and proved nothing more: what a leak needs is
  // volume, and 100 answers of 9 MB are 900 MB, six times the bound. The time-out allows a loaded machine.
  it('passes untouched, records unchanged, peak memory under 150 MB', async () => {
    // Those answers gain 9 MB of trailing spaces: still the same JSON, 9 MB on the wire.
    const pad = Buffer.alloc(9 * MB, 0x20);
    const kinds = new Set<string>();
    let padded = 0;
    const server = await startReshaping((answer, req, res) => {
      if (answer.body.length === 0 || !/\/widgets(\/|\?|$)/.test(req.url ?? ''))
        return writeAnswer(res, answer);
      const kind = `${req.method} ${answer.status}`;
      if (answer.status >= 300 && kinds.has(kind)) return writeAnswer(res, answer);
      kinds.add(kind);
      padded++;
      writeAnswer(res, answer, { append: pad });
    });
    closers.push(() => server.close());
    const before = JSON.stringify(server.upstream.snapshot!());
    const out = join(await tempDir(), 'reports');
    const run = await runMeasured(
      ['run', '--config', example, '--base-url', server.baseUrl, '--out', out, '--skip', 'LIM-*,HOOK-*'],
      exampleEnv(server),
    );
    const report = await readReport(out);
    expect(report.results.filter((r) => r.status === 'failed' || r.status === 'errored')).toEqual([]);
    expect(run.code).toBe(0);
    // Nothing was cut for want of memory: every comparing check judged (none skipped as "could not compare").
    expect(report.results.filter((r) => /could not compare/.test(r.message ?? ''))).toEqual([]);
    expect(report.cleanup.leftovers).toEqual([]);
    expect(JSON.stringify(server.upstream.snapshot!())).toBe(before);
    // Enough volume that an audit keeping its answers would pass the bound several times over
    // (80 answers of 9 MB: 720 MB), and every kind of answer among them (each method and status).
    expect(padded).toBeGreaterThan(80);
    expect(kinds.size).toBeGreaterThan(10);
    expect(run.peakMb).toBeLessThan(150);
    if (process.env.SHOW_PEAKS) process.stderr.write(`9 MB answers: ${run.peakMb} MB, ${padded} of them\n`);
  }, 360_000);
});

describe('a state read cut short', () => {
  it('is "could not compare" (the check skipped with the reason), never an effect', async () => {
    // After the first write, every read answers a body over the cap: the state can no longer be read.
    const pad = Buffer.alloc(11 * MB, 0x20);
    let written = false;
    const server = await startReshaping((answer, req, res) => {
      if (req.method !== 'GET') written = true;
      if (req.method !== 'GET' || !written || answer.body.length === 0) return writeAnswer(res, answer);
      writeAnswer(res, answer, { append: pad });
    });
    closers.push(() => server.close());
    const out = join(await tempDir(), 'reports');
    await cli(
      ['run', '--config', example, '--base-url', server.baseUrl, '--out', out, '--skip', 'LIM-*,HOOK-*'],
      {
        env: exampleEnv(server),
      },
    );
    const report = await readReport(out);
    const comparing = report.results.filter((r) => COMPARING.includes(r.checkId));
    expect(comparing.length).toBe(2 * COMPARING.length);
    for (const r of comparing) {
      expect({ check: r.checkId, resource: r.resource, status: r.status }).toEqual({
        check: r.checkId,
        resource: r.resource,
        status: 'skipped',
      });
      expect(r.message).toMatch(
        /could not compare: GET \/v1\/\S+ was cut short \(response body of \d+ bytes \(Content-Length\), larger than the cap/,
      );
    }
    // No result anywhere claims an effect on what the audit could not read.
    for (const r of report.results.filter((x) => x.status === 'failed')) {
      expect(r.message ?? '').not.toMatch(
        /still acted|changed the (item|collection)|vanished|state changed|also (removed|affected)/,
      );
    }
  }, 60_000);
});
