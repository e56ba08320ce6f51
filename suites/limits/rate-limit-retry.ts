// LIM-RETRY: a 429 says when to come back, and a client that waits that long is served again.
import { defineCheck } from '../../src/core/check.js';
import { answered, is2xx, requestLine } from '../../src/core/verdicts.js';
import { advertisedWait } from '../support/http.js';
import { rateLimitBurst } from '../support/rate-limit.js';

/** Longest wait for a 429 to lift when the config does not say (rateLimit.maxWaitMs). */
export const DEFAULT_MAX_WAIT_MS = 60_000;

/** Slack on top of the advertised wait: clocks differ, and Retry-After has whole seconds only. */
function graceFor(waitMs: number): number {
  return Math.min(5000, Math.max(250, Math.round(waitMs * 0.1)));
}

export default defineCheck({
  kind: 'active',
  id: 'rate-limit-retry',
  rules: ['LIM-RETRY'],
  suite: 'limits',
  title: 'A 429 says when to retry, and the client can come back',
  severity: 'error',
  schedule: 'alone-last',
  writes: 'none',
  messages: {
    noRetryHint: 'a 429 says neither Retry-After nor RateLimit-* when to come back',
    stillRefusedAfterWait: 'a retry after the wait the 429 asked for is still refused',
  },
  description: {
    sends:
      'After the rate-limit burst (rate-limit-429) met a 429: waits as the 429 says (Retry-After in seconds or as an HTTP date, else RateLimit-Reset, X-RateLimit-Reset or RateLimit reset=; else rateLimit.waitMs), plus a grace of 10% (at least 250 ms), then sends the same GET once more.',
    passes:
      'The retry gets the usual answer. Warning: the 429 carries no Retry-After or RateLimit-* header. Skipped when no 429 was seen, or when the advertised wait is longer than rateLimit.maxWaitMs (default 60 s).',
    why: 'A 429 without a time makes every client guess, and guessing clients either hammer the service or wait far too long; a limit that does not lift when it said it would locks well-behaved clients out.',
  },
  async run(ctx) {
    const outcome = await rateLimitBurst(ctx);
    if (!outcome.limited) {
      return ctx.skip(
        outcome.refusal
          ? `the burst met ${outcome.refusal.why} instead of a 429 (see rate-limit-429): there is no 429 to retry after`
          : `no 429 in ${outcome.sent} requests (rateLimit.maxRequests): there is no 429 to retry after`,
      );
    }
    const { exchange: limited, at } = outcome.limited;
    // Judge an HTTP-date against the service's own clock when it sent one (clock skew).
    const serverNow = Date.parse(limited.headers.date ?? '');
    const told = advertisedWait(limited.headers, Number.isNaN(serverNow) ? at : serverNow);
    if (!told) {
      ctx.fail({
        severity: 'warning',
        messageId: 'noRetryHint',
        message: `${answered(limited)} without Retry-After or RateLimit-* headers: the client is not told when to come back`,
        evidence: [limited],
        reproduce: { kind: 'burst', count: ctx.config.rateLimit.maxRequests, judge: 'no-retry-header' },
      });
    }
    const waitMs = told?.ms ?? ctx.config.rateLimit.waitMs;
    if (waitMs === undefined) {
      return ctx.skip(
        'the 429 names no wait and rateLimit.waitMs is not set: the audit cannot tell when the limit should lift',
      );
    }
    const source = told ? told.source : 'rateLimit.waitMs';
    const maxWait = ctx.config.rateLimit.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    if (waitMs > maxWait) {
      return ctx.skip(
        `${source} asks for ${seconds(waitMs)}, longer than rateLimit.maxWaitMs (${seconds(maxWait)}): not waited for`,
      );
    }
    // An absolute time (HTTP date, epoch seconds) has whole-second resolution: allow for that second.
    const grace = graceFor(waitMs) + (told && isAbsolute(limited.headers, told.source) ? 1000 : 0);
    const remaining = at + waitMs + grace - ctx.clock.now();
    if (remaining > 0) {
      try {
        await ctx.clock.sleep(remaining, ctx.signal);
      } catch {
        return ctx.skip('not finished: the audit was interrupted');
      }
    }
    const retry = await ctx.send({ method: 'GET', path: outcome.path, retryOn429: false });
    // The usual answer: 2xx for the collection, 404 (or 2xx) for an item that was never issued.
    const usual = outcome.unknownItem ? '404' : '2xx';
    const served = is2xx(retry) || (outcome.unknownItem && retry.status === 404);
    if (!served) {
      ctx.fail({
        messageId: 'stillRefusedAfterWait',
        message: `still refused: ${answered(retry)} ${seconds(ctx.clock.now() - at)} after the 429, which said to wait ${seconds(waitMs)} (${source}); the usual answer to ${requestLine(retry)} is ${usual}`,
        evidence: [limited, retry],
        reproduce: {
          kind: 'burst',
          at: 1,
          count: ctx.config.rateLimit.maxRequests,
          judge: 'still-limited',
          maxWaitMs: maxWait,
        },
      });
    }
  },
});

/** True when the header that named the wait gave a point in time rather than a number of seconds. */
function isAbsolute(headers: Record<string, string>, source: string): boolean {
  const value = (headers[source.toLowerCase()] ?? '').trim();
  return source === 'Retry-After' ? !/^\d+(\.\d+)?$/.test(value) : Number(value) > 1e9;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;
}
