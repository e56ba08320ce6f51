// LIM-429: a bounded concurrent burst on a cheap GET is refused with 429, never with another status.
import { defineCheck, type CheckContext, type Exchange } from '../../src/core/check.js';
import { isObject } from '../../src/core/shapes.js';
import { answered, is2xx, requestLine } from '../../src/core/verdicts.js';
import { errorShape } from '../errors/no-error-in-2xx.js';

/** Requests of the burst in flight at once: enough to pass most limits quickly, few enough to stay polite. */
export const BURST_CONCURRENCY = 50;

/** What the burst met; LIM-429 and LIM-RETRY judge the same burst (see `rateLimitBurst`). */
export interface BurstOutcome {
  /** The GET sent, relative to the base URL. */
  path: string;
  /** Id field of the resource it reads (a 2xx body with it is a representation, not an error). */
  idField: string;
  /** True when the GET reads an item that was never issued: 404 is its usual answer. */
  unknownItem: boolean;
  /** Requests sent, the first (alone) included. */
  sent: number;
  /** The first answer, sent alone: the service's usual answer to this GET. */
  baseline: Exchange;
  /** The first 429, and when it arrived (ms since the epoch). */
  limited?: { exchange: Exchange; at: number };
  /** The first answer that refused the request some other way. */
  refusal?: { exchange: Exchange; why: string };
  /** The last answer received (evidence when no 429 came). */
  last: Exchange;
  /** How long the burst took, first request included (ms). */
  durationMs: number;
}

/** The run's one burst: the first check to ask sends it, the other judges the same outcome. */
export function rateLimitBurst(ctx: CheckContext): Promise<BurstOutcome> {
  return ctx.shared('rate-limit-burst', () => burst(ctx));
}

async function burst(ctx: CheckContext): Promise<BurstOutcome> {
  const { path, idField, unknownItem } = await cheapGet(ctx);
  const started = performance.now();
  const send = (): Promise<Exchange> => ctx.send({ method: 'GET', path, retryOn429: false });
  // The first request alone: its answer is what "not refused" looks like for this GET.
  const baseline = await send();
  const outcome: BurstOutcome = {
    path,
    idField,
    unknownItem,
    sent: 1,
    baseline,
    last: baseline,
    durationMs: 0,
  };
  if (baseline.status === 429) {
    outcome.limited = { exchange: baseline, at: Date.now() };
    return outcome;
  }
  const broken = unusable(baseline, unknownItem, idField);
  if (broken !== undefined) {
    return ctx.skip(
      `no burst sent: ${answered(baseline)} (${broken}), so a refusal could not be told from the usual answer`,
    );
  }
  const max = ctx.config.rateLimit.maxRequests;
  let stop = false;
  const worker = async (): Promise<void> => {
    while (!stop && outcome.sent < max) {
      outcome.sent++;
      let x: Exchange;
      try {
        x = await send();
      } catch (err) {
        stop = true; // a skip (interrupted, the service stopped answering) ends every worker
        throw err;
      }
      outcome.last = x;
      if (x.status === 429) {
        outcome.limited ??= { exchange: x, at: Date.now() };
        stop = true; // the limit is found: no need to keep hammering
        continue;
      }
      const why = refusal(x, baseline, idField);
      if (why !== undefined) {
        outcome.refusal ??= { exchange: x, why };
        stop = true;
      }
    }
  };
  const workers = Math.max(1, Math.min(BURST_CONCURRENCY, max - 1));
  await Promise.all(Array.from({ length: workers }, worker));
  outcome.durationMs = Math.round(performance.now() - started);
  return outcome;
}

/**
 * The cheapest GET that reaches the API: the first listable collection, else an item that was
 * never issued (its 404 is its usual answer).
 */
async function cheapGet(ctx: CheckContext): Promise<{ path: string; idField: string; unknownItem: boolean }> {
  const listable = ctx.config.resources.find((r) => r.operations.includes('list'));
  if (listable) return { path: ctx.collectionPath(listable), idField: listable.idField, unknownItem: false };
  const readable = ctx.config.resources.find((r) => r.operations.includes('read'));
  if (!readable) return ctx.skip('no resource declares list or read: there is no GET to send the burst with');
  const path = ctx.itemPath(await ctx.unknownId(readable), readable);
  return { path, idField: readable.idField, unknownItem: true };
}

/** Why the first answer cannot serve as the usual answer, if it cannot. */
function unusable(x: Exchange, unknownItem: boolean, idField: string): string | undefined {
  // A broken answer (time-out, reset, a body past the cap) must not be repeated hundreds of times.
  if (x.status === undefined || x.error) return `no complete answer: ${x.error?.message ?? 'no response'}`;
  if (unknownItem ? x.status !== 404 && !is2xx(x) : !is2xx(x)) return 'not the answer of a working read';
  if (is2xx(x) && isObject(x.json) && errorShape(x.json, idField, '')) return 'a 2xx with an error body';
  return undefined;
}

/** Why an answer in the burst is a refusal other than 429: another status, a 2xx error body, no answer. */
function refusal(x: Exchange, baseline: Exchange, idField: string): string | undefined {
  if (x.status === undefined) return `no answer (${x.error?.message ?? 'no response'})`;
  if (x.status !== baseline.status && !(is2xx(x) && is2xx(baseline))) return `status ${x.status}`;
  if (is2xx(x) && isObject(x.json) && errorShape(x.json, idField, '')) {
    return `a ${x.status} with an error body`;
  }
  return undefined;
}

export default defineCheck({
  kind: 'active',
  id: 'rate-limit-429',
  rules: ['LIM-429'],
  suite: 'limits',
  title: 'A client over the rate limit is answered 429',
  severity: 'error',
  scope: 'api',
  mutates: false,
  exclusive: true,
  touches: 'none',
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
        message: `${where}, sent ${outcome.sent} times (up to ${BURST_CONCURRENCY} at a time), met ${why} instead of 429: a client over the limit must be answered 429`,
        evidence: [exchange, outcome.baseline],
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
      message: `sent ${outcome.sent} requests ${where} in ${seconds} s (${perSecond} per second, up to ${BURST_CONCURRENCY} at a time; rateLimit.maxRequests = ${ctx.config.rateLimit.maxRequests}) and none was answered 429, but rateLimit.expected is true`,
      evidence: [outcome.last],
    });
  },
});
