// CheckTester cases for LIM-RETRY (waits that do or do not lift the limit, 429s that name no wait) and its skips, on fake clocks.
import { describe, expect, it } from '@jest/globals';
import { auditFixture, CheckTester } from '../../src/testing/check-tester.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import rateLimit429 from '../../suites/limits/rate-limit-429.js';
import rateLimitRetry from '../../suites/limits/rate-limit-retry.js';
import { VALID_VARIANTS } from './valid-variants.js';
import {
  limited,
  limiter,
  secondsUntil,
  VALID_429S,
  withLowLimit,
  withRateLimit,
} from './limits-fixtures.js';

const tester = new CheckTester();

tester.run(rateLimitRetry, {
  valid: [...withLowLimit(VALID_VARIANTS), ...VALID_429S],
  invalid: [
    limited(
      '429 without Retry-After or RateLimit-* headers',
      { after: 20, blockMs: 1000 },
      { failures: [{ messageId: 'noRetryHint' }], severity: 'warning' },
    ),
    limited(
      'still 429 after the advertised wait',
      { after: 20, blockMs: Infinity, headers: () => ({ 'retry-after': '1' }) },
      { failures: [{ messageId: 'stillRefusedAfterWait' }] },
    ),
    limited(
      'still 429 after the configured wait (no header)',
      { after: 20, blockMs: Infinity },
      {
        config: (config) => withRateLimit(config, { maxRequests: 200, expected: true, waitMs: 300 }),
        failures: [{ messageId: 'noRetryHint' }, { messageId: 'stillRefusedAfterWait' }],
      },
    ),
    limited(
      'answered 503 after the advertised wait',
      { after: 20, blockMs: Infinity },
      {
        middleware: (clock) => {
          const inner = limiter({ after: 20, blockMs: 500, headers: () => ({ 'retry-after': '1' }) }, clock);
          let refusedAt: number | undefined;
          return (req, res, body) => {
            // Once the advertised second has passed, the collection fails instead of answering.
            if (refusedAt !== undefined && clock.now() - refusedAt >= 1000 && req.url === '/v1/widgets') {
              res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"overloaded"}');
              return true;
            }
            const answered = inner(req, res, body) as boolean;
            if (answered) refusedAt ??= clock.now();
            return answered;
          };
        },
        failures: [{ messageId: 'stillRefusedAfterWait' }],
      },
    ),
  ],
});

describe('rate-limit-retry skips', () => {
  const results = async (fixture: Parameters<typeof auditFixture>[1]) =>
    (await auditFixture([rateLimit429, rateLimitRetry], fixture)).result.results;
  const clock = (): FakeClock => new FakeClock();

  it('skips with the reason when no 429 was seen', async () => {
    const out = await results({
      api: { rateLimit: false },
      config: (config) => withRateLimit(config, { maxRequests: 50, expected: false }),
    });
    const retry = out.find((r) => r.checkId === 'rate-limit-retry');
    expect([retry?.status, retry?.message]).toEqual([
      'skipped',
      'no 429 in 50 requests (rateLimit.maxRequests): there is no 429 to retry after',
    ]);
    // Nothing was limited and nothing had to be: neither check had anything to judge.
    expect(out.find((r) => r.checkId === 'rate-limit-429')?.status).toBe('skipped');
  });

  it('skips, without waiting, when the advertised wait is longer than rateLimit.maxWaitMs', async () => {
    const time = clock();
    const out = await results({
      clock: time,
      api: {
        rateLimit: false,
        middleware: limiter({ after: 5, blockMs: Infinity, headers: () => ({ 'retry-after': '120' }) }, time),
      },
      config: (config) => withRateLimit(config, { maxRequests: 50, expected: true, maxWaitMs: 30_000 }),
    });
    const retry = out.find((r) => r.checkId === 'rate-limit-retry');
    expect(retry?.status).toBe('skipped');
    expect(retry?.message).toBe(
      'Retry-After asks for 120 s, longer than rateLimit.maxWaitMs (30 s): not waited for',
    );
    // No wait of 30 s or more was even asked of the clock.
    expect(time.sleeps.filter((ms) => ms >= 30_000)).toEqual([]);
  });

  it('sends one burst for both checks, and stops it at the first 429', async () => {
    let requests = 0;
    const time = clock();
    const count = limiter(
      { after: 40, blockMs: 1000, headers: (until, now) => ({ 'retry-after': secondsUntil(until, now) }) },
      time,
    );
    const { result } = await auditFixture([rateLimit429, rateLimitRetry], {
      clock: time,
      api: {
        rateLimit: false,
        middleware: (req, res, body) => {
          if (req.method === 'GET' && req.url === '/v1/widgets') requests++;
          return count(req, res, body);
        },
      },
      config: (config) => withRateLimit(config, { maxRequests: 1000, expected: true }),
    });
    expect(result.results.map((r) => `${r.checkId}: ${r.status}`)).toEqual([
      'rate-limit-429: passed',
      'rate-limit-retry: passed',
    ]);
    // 40 let through, then at most the 50 in flight when the first 429 came back, then the one retry.
    expect(requests).toBeGreaterThan(41);
    expect(requests).toBeLessThanOrEqual(40 + 50 + 1);
  });
});
