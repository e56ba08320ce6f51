// The full audit of the bundled example API: zero failures, pre-existing records untouched, nothing left behind.
import { describe, expect, it } from '@jest/globals';
import { auditFixture } from '../../src/testing/check-tester.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { catalogue } from '../../suites/index.js';

describe('full audit of the example API', () => {
  it('reports zero failures, leaves pre-existing records byte-identical and deletes everything it created', async () => {
    const { result, before, after } = await auditFixture(catalogue, {
      // On a fake clock shared with the API: pacing and the 429 burst's Retry-After take no real time.
      clock: new FakeClock(),
    });
    const bad = result.results.filter((r) => r.status === 'failed' || r.status === 'errored');
    expect(bad.map((r) => `${r.checkId} ${r.resource ?? ''}: ${r.message}`)).toEqual([]);
    expect(result.summary.passed).toBeGreaterThan(0);
    // Memory bounded by the work: a result that proves no failure keeps no evidence.
    const kept = result.results.filter((r) => r.status !== 'failed' && r.evidence.length > 0);
    expect(kept.map((r) => `${r.checkId} ${r.resource ?? ''}`)).toEqual([]);
    expect(result.cleanup.leftovers).toEqual([]);
    expect(result.cleanup.created).toBeGreaterThan(0);
    // Same records, same bytes: nothing pre-existing changed, nothing created remains.
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });

  it('runs only what --read-only allows and changes nothing', async () => {
    const { result, before, after } = await auditFixture(catalogue, {
      run: { readOnly: true },
      clock: new FakeClock(),
    });
    expect(result.results.filter((r) => r.status === 'failed' || r.status === 'errored')).toEqual([]);
    const skipped = result.results.filter((r) => r.status === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.every((r) => /read-only|no exchange/.test(r.message ?? ''))).toBe(true);
    expect(result.cleanup.created).toBe(0);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });
});
