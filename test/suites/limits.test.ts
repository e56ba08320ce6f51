// CheckTester cases for LIM-429: refusals other than 429, and no 429 within the bound while one is expected.
import { describe, expect, it } from '@jest/globals';
import { auditFixture, CheckTester } from '../../src/testing/check-tester.js';
import rateLimit429 from '../../suites/limits/rate-limit-429.js';
import { VALID_VARIANTS } from './valid-variants.js';
import { limited, VALID_429S, withLowLimit, withRateLimit } from './limits-fixtures.js';

const tester = new CheckTester();

tester.run(rateLimit429, {
  valid: [
    ...withLowLimit(VALID_VARIANTS),
    ...VALID_429S,
    {
      name: 'an API whose only readable resource has no list (the burst GETs an unknown item: 404)',
      api: { rateLimit: { limit: 30, windowMs: 1000 } },
      config: (config) => ({
        ...withRateLimit(config, { maxRequests: 100 }),
        resources: config.resources.map((r) => ({
          ...r,
          operations: r.operations.filter((op) => op !== 'list'),
        })),
      }),
    },
  ],
  skipped: [
    {
      // Not exercised is not passed: no 429 came, and none was required, so nothing was judged.
      name: 'no rate limit at all, and none expected',
      api: { rateLimit: false },
      config: (config) => withRateLimit(config, { maxRequests: 100, expected: false }),
      message:
        /^no rate limit met within 100 requests \(\d+ per second, up to 50 at a time\), and rateLimit.expected is false: there was no 429 to judge/,
    },
  ],
  invalid: [
    limited(
      'the burst is answered 503 instead of 429',
      { after: 20, blockMs: Infinity, status: 503 },
      {
        failures: [{ messageId: 'burstMetOther' }],
      },
    ),
    limited(
      'the burst is answered 403 instead of 429',
      { after: 20, blockMs: Infinity, status: 403 },
      {
        failures: [{ messageId: 'burstMetOther' }],
      },
    ),
    limited(
      'the burst is answered 200 with an error body',
      {
        after: 20,
        blockMs: Infinity,
        status: 200,
        body: '{"error":{"code":"rate_limited","message":"slow down"}}',
      },
      { failures: [{ messageId: 'burstMetOther' }] },
    ),
    {
      name: 'no 429 within the bound while one is expected',
      api: { rateLimit: false },
      config: (config) => withRateLimit(config, { maxRequests: 120, expected: true }),
      failures: [{ messageId: 'no429' }],
    },
  ],
});

describe('rate-limit-429 on a broken GET', () => {
  it('sends no burst when the first answer is broken, and says why', async () => {
    let gets = 0;
    const { result } = await auditFixture([rateLimit429], {
      api: {
        middleware: (req) => {
          if (req.method !== 'GET' || req.url !== '/v1/widgets') return false;
          gets++;
          req.socket.destroy();
          return true;
        },
      },
    });
    expect(result.results[0].status).toBe('skipped');
    expect(result.results[0].message).toMatch(/^no burst sent: GET \/v1\/widgets answered nothing \(/);
    expect(gets).toBe(2); // the credential probe before the run, and the burst's first GET
  });
});

describe('rate-limit-429 under --max-rps', () => {
  it('gives no verdict when no 429 came and the user capped the rate', async () => {
    const { result } = await auditFixture([rateLimit429], {
      api: { rateLimit: false },
      config: (config) => withRateLimit(config, { maxRequests: 30, expected: true }),
      run: { maxRps: 2000 },
    });
    expect(result.results[0].status).toBe('skipped');
    expect(result.results[0].message).toMatch(/--max-rps 2000 caps the burst/);
  });
});
