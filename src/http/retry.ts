// How long a 429 asks the client to wait (Retry-After, RateLimit-Reset, X-RateLimit-Reset), how long it waits
// (exponential back-off with jitter when the wait is 0, absent or proves too short), and the budget an answer advertises.

/** The advertised wait of a 429 answer in ms, and which header said so; undefined when none did. */
export function advertisedWait(
  headers: Record<string, string>,
  now: number = Date.now(),
): { ms: number; source: string } | undefined {
  const retryAfter = headers['retry-after'];
  if (retryAfter !== undefined) {
    const trimmed = retryAfter.trim();
    if (/^\d+(\.\d+)?$/.test(trimmed))
      return { ms: Math.round(Number(trimmed) * 1000), source: 'Retry-After' };
    const date = Date.parse(trimmed);
    if (!Number.isNaN(date)) return { ms: Math.max(0, date - now), source: 'Retry-After' };
  }
  const reset = resetHeader(headers, now);
  if (reset) return reset;
  // draft-ietf-httpapi-ratelimit-headers: `RateLimit: limit=100, remaining=0, reset=5` (or `t=5`)
  const combined = combinedField(headers, 'reset', 't');
  if (combined !== undefined) return { ms: combined * 1000, source: 'RateLimit' };
  return undefined;
}

/** How the client retries a request answered 429. */
export interface RetryPolicy {
  /** How many times one request is retried after 429s. */
  max429Retries: number;
  /** Wait after a 429 that gives no header (ms), doubled on each retry. */
  defaultRetryWaitMs: number;
  /** Longest single wait (ms): a longer advertised wait is cut to it. */
  maxRetryWaitMs: number;
}

/** First back-off after a 429 that says to wait 0 (or less than this), in ms; doubled on each retry. */
export const MIN_BACKOFF_MS = 200;

/**
 * How long to wait before retry number `retries` (from 0) of a request answered 429 with these
 * headers, and the note its evidence carries; undefined when the policy allows no more retries.
 * The advertised wait is honoured, but never taken as less than an exponential back-off: from
 * 200 ms when it is 0 (a limiter answering `Retry-After: 0` refuses the immediate retry too), from
 * `defaultRetryWaitMs` when absent, and at least twice `previousMs` once a wait proved too short
 * (the retry after it was refused again). The back-off is jittered (between half and all of it,
 * `random` in [0, 1)), so requests refused together do not come back together.
 */
export function retryWait(
  headers: Record<string, string>,
  retries: number,
  policy: RetryPolicy,
  previousMs?: number,
  random: () => number = Math.random,
): { ms: number; note: string } | undefined {
  if (retries >= policy.max429Retries) return undefined;
  // An HTTP date in Retry-After is read against the server's own clock (its Date header), so a
  // server whose clock is off does not make the audit wait too long or not at all.
  const serverNow = headers.date ? Date.parse(headers.date) : NaN;
  const told = advertisedWait(headers, Number.isNaN(serverNow) ? undefined : serverNow);
  let backoff = told ? MIN_BACKOFF_MS * 2 ** retries : policy.defaultRetryWaitMs * 2 ** retries;
  if (previousMs !== undefined && retries > 0) backoff = Math.max(backoff, previousMs * 2);
  const jittered = Math.round(backoff * (0.5 + random() / 2));
  const ms = Math.min(Math.max(told?.ms ?? 0, jittered), policy.maxRetryWaitMs);
  const why = !told
    ? 'no wait advertised: backed off'
    : told.ms >= jittered
      ? `as ${told.source} said`
      : retries > 0
        ? `${told.source} said ${seconds(told.ms)}, which proved too short: backed off`
        : `${told.source} said ${seconds(told.ms)}: backed off`;
  return { ms, note: `answered 429; waited ${seconds(ms)} (${why}) and retried` };
}

/**
 * What an answer says is left of the service's rate-limit budget: `RateLimit-Remaining` with
 * `RateLimit-Reset` (or the `X-RateLimit-*` / `X-Rate-Limit-*` spellings, or the combined
 * `RateLimit: limit=…, remaining=…, reset=…` / `r=…;t=…` of the IETF draft), `RateLimit-Limit` when
 * given; undefined when it says nothing usable.
 */
export function rateBudget(
  headers: Record<string, string>,
  now: number,
): { remaining: number; resetMs: number; limit?: number } | undefined {
  for (const prefix of ['ratelimit', 'x-ratelimit', 'x-rate-limit']) {
    const remaining = count(headers[`${prefix}-remaining`]);
    if (remaining === undefined) continue;
    const resetMs = resetIn(headers[`${prefix}-reset`], now);
    if (resetMs === undefined) continue;
    return { remaining, resetMs, limit: count(headers[`${prefix}-limit`]) };
  }
  const remaining = combinedField(headers, 'remaining', 'r');
  const reset = combinedField(headers, 'reset', 't');
  if (remaining === undefined || reset === undefined) return undefined;
  return { remaining, resetMs: reset * 1000, limit: combinedField(headers, 'limit', 'q') };
}

/** The first of `RateLimit-Reset` and its spellings that holds a reset time (see `resetIn`). */
function resetHeader(
  headers: Record<string, string>,
  now: number,
): { ms: number; source: string } | undefined {
  for (const name of ['ratelimit-reset', 'x-ratelimit-reset', 'x-rate-limit-reset']) {
    const ms = resetIn(headers[name], now);
    if (ms !== undefined) return { ms, source: headerName(name) };
  }
  return undefined;
}

/** A reset header's value in ms from `now`: seconds from now, or epoch seconds when large. */
function resetIn(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value.trim());
  if (!Number.isFinite(n) || n < 0) return undefined;
  // Large values are epoch seconds (X-RateLimit-Reset on GitHub-style APIs); small ones are deltas.
  return n > 1e9 ? Math.max(0, n * 1000 - now) : Math.round(n * 1000);
}

/** A field of the combined `RateLimit` header (`name=`, or its short draft name), as a count. */
function combinedField(headers: Record<string, string>, name: string, short: string): number | undefined {
  const combined = headers['ratelimit'];
  if (!combined) return undefined;
  const m = new RegExp(`(?:^|[;,\\s])(?:${name}|${short})=(\\d+)`, 'i').exec(combined);
  return m ? Number(m[1]) : undefined;
}

/** A header holding a whole non-negative number. */
function count(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function headerName(lower: string): string {
  return lower.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}

/** Resolves after `ms`, or rejects when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
