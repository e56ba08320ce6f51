// LIM-429: a bounded concurrent burst on a cheap GET is refused with 429, never with another status.
import { defineCheck } from '../../src/core/check.js';
import { requestLine } from '../../src/core/verdicts.js';
import { BURST_CONCURRENCY, rateLimitBurst } from '../support/rate-limit.js';

export default defineCheck({
  kind: 'active',
  id: 'rate-limit-429',
  rules: ['LIM-429'],
  suite: 'limits',
  title: 'A client over the rate limit is answered 429',
  severity: 'error',
  schedule: 'alone-last',
  writes: 'none',
  messages: {
    burstMetOther: 'a burst over the limit met another refusal or failure instead of 429',
    no429: 'a burst up to rateLimit.maxRequests met no 429 although one is expected',
  },
  description: {
    sends: `Last and alone: one GET of the first listable collection (an unknown item when none is listable), then up to rateLimit.maxRequests more of the same GET, ${BURST_CONCURRENCY} in flight at a time, without retrying 429s. The burst stops at the first 429.`,
    passes:
      'Every answer is the usual one or 429, and a 429 appears within the bound. With rateLimit.expected: false a burst that is never limited is skipped (no limit met, nothing judged), not failed.',
    why: 'Clients and their libraries back off on 429 (and only on 429); a 503, 403 or a 200 with an error body when the limit is hit reads as an outage, a permission problem or a success, and nobody retries at the right time.',
  },
  async run(ctx) {
    const outcome = await rateLimitBurst(ctx);
    const where = requestLine(outcome.baseline);
    if (outcome.refusal) {
      const { exchange, why } = outcome.refusal;
      ctx.fail({
        messageId: 'burstMetOther',
        message: `${where}, sent ${outcome.sent} times (up to ${BURST_CONCURRENCY} at a time), met ${why} instead of 429: a client over the limit must be answered 429`,
        evidence: [exchange, outcome.baseline],
        reproduce: { kind: 'burst', at: 1, count: ctx.config.rateLimit.maxRequests, judge: 'other-refusal' },
      });
      return;
    }
    if (outcome.limited) return;
    // The rate tells a limit the audit could not reach (a slow link, --max-rps) from a missing one.
    const seconds = (outcome.durationMs / 1000).toFixed(1);
    const perSecond = Math.round((outcome.sent * 1000) / Math.max(1, outcome.durationMs));
    if (!ctx.config.rateLimit.expected) {
      // No 429 and none required: the rule was never exercised, so it did not pass either.
      return ctx.skip(
        `no rate limit met within ${outcome.sent} requests (${perSecond} per second, up to ${BURST_CONCURRENCY} at a time), and rateLimit.expected is false: there was no 429 to judge (set rateLimit.expected: true to require one, or raise rateLimit.maxRequests)`,
      );
    }
    if (ctx.maxRps !== undefined) {
      // The user capped the audit's rate: a limit above the cap cannot be reached, so no verdict.
      return ctx.skip(
        `no 429 within ${outcome.sent} requests at ${perSecond} per second, but --max-rps ${ctx.maxRps} caps the burst below what the service may allow`,
      );
    }
    ctx.fail({
      messageId: 'no429',
      message: `sent ${outcome.sent} requests ${where} in ${seconds} s (${perSecond} per second, up to ${BURST_CONCURRENCY} at a time; rateLimit.maxRequests = ${ctx.config.rateLimit.maxRequests}) and none was answered 429, but rateLimit.expected is true`,
      evidence: [outcome.last],
      reproduce: { kind: 'burst', count: ctx.config.rateLimit.maxRequests, judge: 'no-429' },
    });
  },
});
