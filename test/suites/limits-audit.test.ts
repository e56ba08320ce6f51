// Every other check survives the service's own rate limit: a tightly limited example API yields no false failures (on a fake clock: no real waits).
import { describe, expect, it } from '@jest/globals';
import type { Exchange } from '../../src/core/check.js';
import { auditFixture } from '../../src/testing/check-tester.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { catalogue } from '../../suites/index.js';

describe('the whole audit against a tightly rate-limited API', () => {
  // With RateLimit-* headers the audit slows down before a 429 (it may meet none); without them only
  // the 429s tell it, and it must wait them out instead of failing.
  for (const advertise of [false, true]) {
    it(`honours every 429 (no false failures), and still finds the limit and its lifting (${advertise ? 'with' : 'without'} RateLimit-* headers)`, async () => {
      const waited: Exchange[] = [];
      const clock = new FakeClock();
      const { result, before, after } = await auditFixture(catalogue, {
        clock,
        api: { rateLimit: { limit: 20, windowMs: 200, advertise } },
        run: {
          concurrency: 8,
          onExchange: (x) => {
            if (x.evidence.notes?.some((n) => n.startsWith('answered 429; waited'))) waited.push(x);
          },
        },
      });
      const bad = result.results.filter((r) => r.status === 'failed' || r.status === 'errored');
      expect(bad.map((r) => `${r.checkId} ${r.resource ?? ''}: ${r.message}`)).toEqual([]);
      expect(result.results.filter((r) => /rate-limited/.test(r.message ?? ''))).toEqual([]);
      // Without headers the ordinary checks did meet the limit, and waited (on the fake clock) instead of failing.
      if (!advertise) expect(waited.length).toBeGreaterThan(0);
      if (!advertise) expect(clock.sleeps.length).toBeGreaterThan(0);
      const limits = result.results
        .filter((r) => r.suite === 'limits')
        .map((r) => `${r.checkId}: ${r.status}`);
      expect(limits).toEqual(['rate-limit-429: passed', 'rate-limit-retry: passed']);
      expect(result.cleanup.leftovers).toEqual([]);
      expect(JSON.stringify(after)).toBe(JSON.stringify(before));
    });
  }
});
