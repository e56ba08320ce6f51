// Adaptive pacing on a fake clock: back-off with jitter when a 429's wait is 0, absent or too short; AIMD
// after a 429; the RateLimit-* budget read before a 429; the burst kept out of it. Nothing here sleeps.
import { describe, expect, it } from '@jest/globals';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { DECREASE, INCREASE_PER_S, Pacer } from '../../src/http/pacing.js';
import { MIN_BACKOFF_MS, rateBudget, retryWait, type RetryPolicy } from '../../src/http/retry.js';

const policy: RetryPolicy = { max429Retries: 5, defaultRetryWaitMs: 1000, maxRetryWaitMs: 30_000 };

describe('retryWait', () => {
  it('Retry-After: 0 is backed off from 200 ms, doubling, jittered between half and all of it', () => {
    const headers = { 'retry-after': '0' };
    expect(retryWait(headers, 0, policy, undefined, () => 0)?.ms).toBe(MIN_BACKOFF_MS / 2);
    expect(retryWait(headers, 0, policy, undefined, () => 0.999999)?.ms).toBe(MIN_BACKOFF_MS);
    const waits = [0, 1, 2, 3, 4].map((r) => retryWait(headers, r, policy, undefined, () => 0.999999)?.ms);
    expect(waits).toEqual([200, 400, 800, 1600, 3200]);
    expect(retryWait(headers, 0, policy, undefined, () => 0.5)?.note).toBe(
      'answered 429; waited 0.1 s (Retry-After said 0.0 s: backed off) and retried',
    );
    expect(retryWait(headers, 5, policy)).toBeUndefined();
  });

  it('honours a longer advertised wait exactly, and doubles it once it proved too short', () => {
    const headers = { 'retry-after': '2' };
    expect(retryWait(headers, 0, policy, undefined, () => 0.9)).toEqual({
      ms: 2000,
      note: 'answered 429; waited 2.0 s (as Retry-After said) and retried',
    });
    // The retry after 2 s was refused again: the next wait is 2-4 s, not 2 s once more.
    const again = retryWait(headers, 1, policy, 2000, () => 0.5);
    expect(again?.ms).toBe(3000);
    expect(again?.note).toMatch(/Retry-After said 2\.0 s, which proved too short: backed off/);
    expect(retryWait(headers, 1, policy, 2000, () => 0)?.ms).toBe(2000);
  });

  it('without a header backs off from defaultRetryWaitMs, and never waits past maxRetryWaitMs', () => {
    expect(retryWait({}, 0, policy, undefined, () => 0.999999)?.ms).toBe(1000);
    expect(retryWait({}, 2, policy, undefined, () => 0)?.ms).toBe(2000);
    expect(retryWait({ 'retry-after': '3600' }, 0, policy)?.ms).toBe(30_000);
  });
});

describe('rateBudget', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  it('reads RateLimit-*, X-RateLimit-* (epoch resets too) and the combined RateLimit header', () => {
    expect(
      rateBudget({ 'ratelimit-remaining': '3', 'ratelimit-reset': '2', 'ratelimit-limit': '50' }, now),
    ).toEqual({ remaining: 3, resetMs: 2000, limit: 50 });
    expect(
      rateBudget({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 30) }, now),
    ).toEqual({ remaining: 0, resetMs: 30_000, limit: undefined });
    expect(rateBudget({ ratelimit: 'limit=100, remaining=7, reset=10' }, now)).toEqual({
      remaining: 7,
      resetMs: 10_000,
      limit: 100,
    });
    expect(rateBudget({ ratelimit: '"default";r=4;t=5' }, now)).toEqual({
      remaining: 4,
      resetMs: 5000,
      limit: undefined,
    });
  });

  it('says nothing without both a remaining count and a reset', () => {
    expect(rateBudget({ 'ratelimit-remaining': '3' }, now)).toBeUndefined();
    expect(rateBudget({ 'ratelimit-remaining': 'lots', 'ratelimit-reset': '1' }, now)).toBeUndefined();
    expect(rateBudget({}, now)).toBeUndefined();
  });
});

describe('Pacer', () => {
  /** Takes `n` turns one after another; the times they were given. */
  async function turns(pacer: Pacer, n: number, mode?: 'paced' | 'burst'): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(await pacer.turn(undefined, mode));
    return out;
  }

  it('sends at once until a 429; then at 70% of what the service admitted in the last second', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer(clock);
    const start = clock.now();
    for (const at of await turns(pacer, 50)) {
      expect(at).toBe(start);
      pacer.answered({});
    }
    expect(clock.sleeps).toEqual([]);
    pacer.limited(start);
    expect(pacer.adaptiveRps).toBeCloseTo(50 * DECREASE);
    const times = await turns(pacer, 4);
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    for (const gap of gaps) expect(gap).toBeCloseTo(1000 / 35, 3);
  });

  it('cuts once per round: 429s to requests sent before the cut change nothing', () => {
    const clock = new FakeClock();
    const pacer = new Pacer(clock);
    for (let i = 0; i < 40; i++) pacer.answered({});
    const sent = clock.now();
    clock.t += 10;
    pacer.limited(sent);
    const rate = pacer.adaptiveRps;
    pacer.limited(sent);
    pacer.limited(sent + 5);
    expect(pacer.adaptiveRps).toBe(rate);
    clock.t += 10;
    pacer.limited(clock.now());
    expect(pacer.adaptiveRps).toBeCloseTo((rate ?? 0) * DECREASE);
  });

  it('raises the rate again slowly: about 5 requests per second for each second of answers', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer(clock);
    for (let i = 0; i < 20; i++) pacer.answered({});
    pacer.limited(clock.now());
    const low = pacer.adaptiveRps ?? 0;
    const until = clock.now() + 4000;
    while (clock.now() < until) {
      await pacer.turn();
      pacer.answered({});
    }
    const gained = (pacer.adaptiveRps ?? 0) - low;
    expect(gained).toBeGreaterThan(INCREASE_PER_S * 4 * 0.8);
    expect(gained).toBeLessThan(INCREASE_PER_S * 4 * 1.2);
  });

  it('waits for the reset when the advertised budget is spent, and spreads a low one', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer(clock);
    pacer.answered({ 'ratelimit-remaining': '0', 'ratelimit-reset': '2', 'ratelimit-limit': '100' });
    const start = clock.now();
    expect(await pacer.turn()).toBe(start + 2000);
    // 4 left of 100 with 2 s to go: 2 per second.
    pacer.answered({ 'ratelimit-remaining': '4', 'ratelimit-reset': '2', 'ratelimit-limit': '100' });
    const times = await turns(pacer, 3);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(400);
    // Plenty left: no spacing at all.
    const fresh = new Pacer(clock);
    fresh.answered({ 'ratelimit-remaining': '900', 'ratelimit-reset': '3600', 'ratelimit-limit': '1000' });
    const free = await turns(fresh, 5);
    expect(new Set(free).size).toBe(1);
  });

  it('keeps the burst (retryOn429: false) out of the adaptive rate and the budget, not out of --max-rps', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer(clock);
    for (let i = 0; i < 10; i++) pacer.answered({});
    pacer.limited(clock.now());
    pacer.answered({ 'ratelimit-remaining': '0', 'ratelimit-reset': '5' });
    const burst = await turns(pacer, 20, 'burst');
    expect(new Set(burst).size).toBe(1);
    const capped = new Pacer(clock, 10);
    const spaced = await turns(capped, 3, 'burst');
    expect(spaced[2] - spaced[0]).toBe(200);
  });
});
