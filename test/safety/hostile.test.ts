// Hostile services: each misbehaves one way; the audit finishes within its time-outs, exits 1 with a
// failed result and evidence, prints no stack trace, and keeps to its caps.
import { afterEach, describe, expect, it } from '@jest/globals';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { startExampleFixture } from '../../src/testing/fixture-server.js';
import {
  auditExample,
  auditWidgets,
  readAll,
  STACK_LINE,
  type ReportedRun,
  type ReportJson,
} from './helpers.js';
import {
  DRIP_INTERVAL_MS,
  HUGE_BODY_BYTES,
  startCounter,
  startHostile,
  type HostileKind,
  type HostileServer,
} from './hostile.js';

/** Short per-request deadline: long enough for loopback, short enough to keep the suite quick. */
const TIMEOUT_MS = 400;

/**
 * The deadline where no answer ever completes (each request waits it out, four one after another
 * before the breaker stops the audit): any deadline proves the same there, so a shorter one.
 * (The services that reset or cut the answer short fail at once: they keep TIMEOUT_MS.)
 */
const STALL_TIMEOUT_MS = 100;

/**
 * The drip test's deadline: four of the drip's bytes (one every DRIP_INTERVAL_MS) fall within it,
 * as they fell within 400 ms at one byte every 100 ms.
 */
const DRIP_TIMEOUT_MS = 4 * DRIP_INTERVAL_MS;

/** The client's default body cap (src/http/client.ts). */
const BODY_CAP = 10 * 1024 * 1024;

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

async function audit(
  server: HostileServer,
  timeoutMs = TIMEOUT_MS,
  extraArgs: string[] = [],
): Promise<ReportedRun> {
  return auditWidgets(server.baseUrl, ['--timeout', String(timeoutMs), '--no-color', ...extraArgs]);
}

function failed(report: ReportJson, rule?: string): ReportJson['results'] {
  return report.results.filter(
    (r) => r.status === 'failed' && (rule === undefined || r.rules.includes(rule)),
  );
}

/** What every hostile run must show: exit 1, a failed result with evidence and a curl line, no stack trace. */
function expectCleanFailure(run: Awaited<ReturnType<typeof audit>>, rule: string): ReportJson['results'] {
  expect(run.code).toBe(1);
  expect(run.stdout + run.stderr).not.toMatch(STACK_LINE);
  const results = failed(run.report, rule);
  expect(results.length).toBeGreaterThan(0);
  for (const r of results) {
    expect(r.evidence.length).toBeGreaterThan(0);
    expect(r.evidence[0].curl).toMatch(/^curl /);
  }
  expect(run.report.results.filter((r) => r.status === 'errored')).toEqual([]);
  return results;
}

async function hostile(kind: HostileKind, other?: string): Promise<HostileServer> {
  const server = await startHostile(kind, other);
  closers.push(() => server.close());
  return server;
}

describe('a service that stops answering', () => {
  const stalls: Array<[HostileKind, RegExp, number]> = [
    ['silent', /no complete response within 100 ms/, STALL_TIMEOUT_MS],
    ['stall-after-headers', /no complete response within 100 ms/, STALL_TIMEOUT_MS],
    ['drip', /no complete response within 100 ms/, STALL_TIMEOUT_MS],
    ['reset', /connection reset/, TIMEOUT_MS],
    ['short-body', /closed before|other side closed|Content-Length/, TIMEOUT_MS],
  ];
  it.each(stalls)(
    '%s: ERR-SERVER fails with evidence; the rest is skipped as "stopped answering"',
    async (kind, error, timeoutMs) => {
      const server = await hostile(kind);
      const run = await audit(server, timeoutMs);
      const results = expectCleanFailure(run, 'ERR-SERVER');
      const errors = results.flatMap((r) => r.evidence.map((e) => e.error ?? ''));
      expect(errors.some((e) => error.test(e))).toBe(true);
      // The circuit breaker: the preflight, one round of what was in flight at once (at most 8 checks,
      // the auth matrix sends 6 at a time) and the probe; not the ~300 requests of a full audit.
      expect(server.requests).toBeLessThanOrEqual(16);
      const skipped = run.report.results.filter((r) => r.status === 'skipped');
      expect(skipped.some((r) => /the service stopped answering/.test(r.message ?? ''))).toBe(true);
      expect(run.stdout).toMatch(/the service stopped answering/);
    },
  );

  it(`drip: a byte every ${DRIP_INTERVAL_MS} ms never extends the deadline`, async () => {
    const server = await hostile('drip');
    // Four bytes fall within each deadline: a time-out that each byte restarted would never fire.
    const run = await audit(server, DRIP_TIMEOUT_MS);
    const results = expectCleanFailure(run, 'ERR-SERVER');
    expect(results[0].evidence[0].error).toMatch(
      new RegExp(`no complete response within ${DRIP_TIMEOUT_MS} ms`),
    );
  });
});

describe('a service that answers with broken bodies', () => {
  const bodies: Array<[HostileKind, RegExp]> = [
    ['not-json', /does not parse as JSON/],
    ['invalid-utf8', /not valid UTF-8/],
    ['nul-byte', /does not parse as JSON/],
  ];
  it.each(bodies)('%s: GEN-JSON fails with the body in evidence', async (kind, message) => {
    const server = await hostile(kind);
    const run = await audit(server);
    const results = expectCleanFailure(run, 'GEN-JSON');
    expect(results.some((r) => message.test(r.message ?? ''))).toBe(true);
    // The reports stay parseable and the console stays printable.
    expect(run.stdout.includes('\u0000')).toBe(false);
    const files = await readAll(run.out);
    const junit = [...files].find(([name]) => name.endsWith('junit.xml'))?.[1].toString('utf8') ?? '';
    expect(junit.includes('\u0000')).toBe(false);
  });

  it('huge chunked body: the client stops reading at the cap and says so', async () => {
    const server = await hostile('huge-body');
    // The burst of the rate-limit check would only repeat the same reads 200 times (the bench runs it all).
    const run = await audit(server, 10_000, ['--skip', 'LIM-*']);
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).not.toMatch(STACK_LINE);
    const evidence = failed(run.report).flatMap((r) => r.evidence);
    const capped = evidence.filter((e) => e.response?.truncated === true);
    expect(capped.length).toBeGreaterThan(0);
    expect(capped[0].error).toMatch(/stopped reading at the cap/);
    // No request read more than the cap plus what sits in socket buffers; none the whole body.
    expect(server.maxBytesOneRequest).toBeLessThan(BODY_CAP + 16 * 1024 * 1024);
    // Evidence keeps only a short excerpt of each body.
    expect(JSON.stringify(run.report).length).toBeLessThan(2 * 1024 * 1024);
  }, 90_000);

  it('huge declared body: Content-Length over the cap stops the read at once', async () => {
    const server = await hostile('huge-body-declared');
    const run = await audit(server, 10_000, ['--skip', 'LIM-*']);
    expect(run.code).toBe(1);
    const evidence = failed(run.report).flatMap((r) => r.evidence);
    const capped = evidence.filter((e) => e.response?.truncated === true);
    expect(capped[0].error).toMatch(
      new RegExp(
        `response body of ${HUGE_BODY_BYTES} bytes \\(Content-Length\\), larger than the cap of ${BODY_CAP} bytes`,
      ),
    );
    expect(server.maxBytesOneRequest).toBeLessThan(16 * 1024 * 1024);
  }, 90_000);
});

describe('redirects', () => {
  it('a redirect loop ends at the redirect limit with evidence', async () => {
    const server = await hostile('redirect-loop');
    const run = await audit(server);
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).not.toMatch(STACK_LINE);
    const evidence = failed(run.report).flatMap((r) => r.evidence);
    expect(evidence.some((e) => /more than 5 redirects/.test(e.error ?? ''))).toBe(true);
  });

  it('a redirect to another origin is not followed; the report says where it pointed', async () => {
    const other = await startCounter();
    closers.push(() => other.close());
    const server = await hostile('redirect-other-origin', other.origin);
    const run = await audit(server);
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).not.toMatch(STACK_LINE);
    expect(other.requests).toBe(0);
    const notes = failed(run.report)
      .flatMap((r) => r.evidence)
      .flatMap((e) => e.notes ?? []);
    expect(
      notes.some((n) => n.includes(`redirect (307) to ${other.origin}/`) && n.includes('not followed')),
    ).toBe(true);
  });
});

describe('a service that drops only some requests', () => {
  it('resets malformed writes: ERR-SERVER fails, yet the breaker does not stop the audit', async () => {
    let dropped = 0;
    const clock = new FakeClock();
    const server = await startExampleFixture({
      now: clock.now,
      middleware: (req, _res, body) => {
        if (!['POST', 'PUT', 'PATCH'].includes(req.method ?? '')) return false;
        try {
          JSON.parse(body.toString('utf8'));
          if ((req.headers['content-type'] ?? '').startsWith('application/json')) return false;
        } catch {
          // not JSON: dropped below
        }
        dropped++;
        req.socket.resetAndDestroy();
        return true;
      },
    });
    closers.push(() => server.close());
    // On a fake clock shared with the API: the rate limit's waits (LIM-RETRY's) take no real time.
    const { report, ...run } = await auditExample(server, [], clock);
    expect(dropped).toBeGreaterThan(3);
    expect(run.code).toBe(1);
    expect(failed(report, 'ERR-SERVER').length).toBeGreaterThan(0);
    // Every other request was answered, so the probe found the service well and the audit went on.
    expect(report.results.filter((r) => /stopped answering/.test(r.message ?? ''))).toEqual([]);
    expect(
      report.results.filter((r) => r.checkId === 'read-collection-and-item').map((r) => r.status),
    ).toEqual(['passed', 'passed']);
    expect(report.cleanup.leftovers).toEqual([]);
  });
});
