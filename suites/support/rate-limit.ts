// The run's one rate-limit burst (a bounded concurrent GET), judged by LIM-429 and LIM-RETRY alike.
import type { CheckContext, Exchange } from '../../src/core/check.js';
import { isErrorIn2xx } from '../../src/core/error-body.js';
import { answered, is2xx } from '../../src/core/verdicts.js';

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
  /** The first 429, and when it arrived (ms since the epoch, on `ctx.clock`). */
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
  const started = ctx.clock.now();
  const max = ctx.config.rateLimit.maxRequests;
  // Tagged as a burst: a 5xx it meets (ERR-SERVER) is reproduced by the same burst, not one GET.
  const send = (): Promise<Exchange> => ctx.send({ method: 'GET', path, retryOn429: false, burst: max });
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
    outcome.limited = { exchange: baseline, at: ctx.clock.now() };
    return outcome;
  }
  const broken = unusable(baseline, unknownItem, idField);
  if (broken !== undefined) {
    return ctx.skip(
      `no burst sent: ${answered(baseline)} (${broken}), so a refusal could not be told from the usual answer`,
    );
  }
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
        outcome.limited ??= { exchange: x, at: ctx.clock.now() };
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
  outcome.durationMs = Math.round(ctx.clock.now() - started);
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
  if (isErrorIn2xx(x, idField)) return 'a 2xx with an error body';
  return undefined;
}

/** Why an answer in the burst is a refusal other than 429: another status, a 2xx error body, no answer. */
function refusal(x: Exchange, baseline: Exchange, idField: string): string | undefined {
  if (x.status === undefined) return `no answer (${x.error?.message ?? 'no response'})`;
  if (x.status !== baseline.status && !(is2xx(x) && is2xx(baseline))) return `status ${x.status}`;
  if (isErrorIn2xx(x, idField)) return `a ${x.status} with an error body`;
  return undefined;
}
