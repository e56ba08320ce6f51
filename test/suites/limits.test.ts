// CheckTester cases for LIM-429: refusals other than 429, and no 429 within the bound while one is expected.
import { CheckTester } from '../../src/testing/check-tester.js';
import rateLimit429 from '../../suites/limits/rate-limit-429.js';
import { VALID_VARIANTS } from './valid-variants.js';
import { limited, VALID_429S, withLowLimit, withRateLimit } from './limits-fixtures.js';

const tester = new CheckTester();

tester.run(rateLimit429, {
  valid: [
    ...withLowLimit(VALID_VARIANTS),
    ...VALID_429S,
    {
      name: 'no rate limit at all, and none expected',
      api: { rateLimit: false },
      config: (config) => withRateLimit(config, { maxRequests: 100, expected: false }),
    },
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
  invalid: [
    limited(
      'the burst is answered 503 instead of 429',
      { after: 20, blockMs: Infinity, status: 503 },
      {
        message: /met status 503 instead of 429/,
      },
    ),
    limited(
      'the burst is answered 403 instead of 429',
      { after: 20, blockMs: Infinity, status: 403 },
      {
        message: /met status 403 instead of 429/,
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
      { message: /met a 200 with an error body instead of 429/ },
    ),
    {
      name: 'no 429 within the bound while one is expected',
      api: { rateLimit: false },
      config: (config) => withRateLimit(config, { maxRequests: 120, expected: true }),
      message: /sent 120 requests GET \/v1\/widgets .* none was answered 429, but rateLimit.expected is true/,
    },
  ],
});
