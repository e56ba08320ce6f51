// A service that never answers valid HTTP does not pass: ERR-SERVER fails with what the parser refused, and the run exits 1.
import { afterEach, describe, expect, it } from '@jest/globals';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { startExampleFixture } from '../../src/testing/fixture-server.js';
import { INVALID_ANSWERS, startPassthrough, startRawAnswer } from './bounds-fixtures.js';
import { auditExample, auditWidgets, STACK_LINE } from './helpers.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

/** What the evidence says the parser refused, per answer. */
const REFUSED: Record<keyof typeof INVALID_ANSWERS, RegExp> = {
  'status 099': /no valid HTTP answer: the status line holds a status code below 100/,
  'status 0': /no valid HTTP answer: the parser refused it \(Invalid status code\)/,
  'status 999': /no valid HTTP answer: the status line holds 999, which is no HTTP status code \(100-599\)/,
  '10,000 headers':
    /no valid HTTP answer: its header section is larger than the 16 KiB the HTTP parser accepts/,
  'a header over the limit': /no valid HTTP answer: its header section is larger than the 16 KiB/,
  'a NUL byte in a header':
    /no valid HTTP answer: the parser refused it \(Invalid header value char\) at "\\u0000b/,
  'Transfer-Encoding and Content-Length':
    /no valid HTTP answer: the parser refused it \(Content-Length can't be present with Transfer-Encoding\)/,
};

async function audit(baseUrl: string, extra: string[] = []) {
  return auditWidgets(baseUrl, ['--timeout', '2000', '--no-color', ...extra]);
}

describe('a service that never answers valid HTTP', () => {
  it.each(Object.keys(INVALID_ANSWERS) as Array<keyof typeof INVALID_ANSWERS>)(
    '%s: ERR-SERVER fails with what the parser refused; exit 1, never 0',
    async (name) => {
      const server = await startRawAnswer(INVALID_ANSWERS[name]);
      closers.push(() => server.close());
      const run = await audit(server.baseUrl);
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).not.toMatch(STACK_LINE);
      const errServer = run.report.results.filter(
        (r) => r.rules.includes('ERR-SERVER') && r.status === 'failed',
      );
      expect(errServer.length).toBeGreaterThan(0);
      const errors = errServer.flatMap((r) => r.evidence.map((e) => e.error ?? ''));
      expect(errors.some((e) => REFUSED[name].test(e))).toBe(true);
      expect(errServer[0].evidence[0].curl).toMatch(/^curl /);
      // Nothing was judged a pass on the service's answers: none came.
      expect(run.report.summary.answered).toBe(0);
      expect(run.report.summary.requests).toBeGreaterThan(0);
      expect(run.stdout).toMatch(/the service gave no valid HTTP answer to any of the \d+ requests/);
      expect(run.report.results.filter((r) => r.status === 'errored')).toEqual([]);
    },
  );

  it('no green even when ERR-SERVER is not run: a run that got no valid answer exits 1', async () => {
    const server = await startRawAnswer(INVALID_ANSWERS['a NUL byte in a header']);
    closers.push(() => server.close());
    const run = await audit(server.baseUrl, ['--skip', 'ERR-SERVER']);
    expect(run.report.results.filter((r) => r.status === 'failed')).toEqual([]);
    expect(run.report.summary.answered).toBe(0);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/nothing could be judged, the run fails/);
  });

  it('the correct variant: the example API through a raw TCP passthrough passes untouched', async () => {
    // On a fake clock shared by the audit and the API: pacing and Retry-After take no real time.
    const clock = new FakeClock();
    const api = await startExampleFixture({ now: clock.now });
    closers.push(() => api.close());
    const passthrough = await startPassthrough(api);
    closers.push(() => passthrough.close());
    const { report, ...run } = await auditExample(passthrough, [], clock);
    expect(report.results.filter((r) => r.status === 'failed' || r.status === 'errored')).toEqual([]);
    expect(run.code).toBe(0);
    expect(report.summary.answered).toBe(report.summary.requests);
    expect(run.stdout).not.toMatch(/no valid HTTP answer/);
  });
});
