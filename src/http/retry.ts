// How long a 429 asks the client to wait (Retry-After, RateLimit-Reset, X-RateLimit-Reset), and how long it waits.

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
  for (const name of ['ratelimit-reset', 'x-ratelimit-reset', 'x-rate-limit-reset']) {
    const value = headers[name];
    if (value === undefined) continue;
    const n = Number(value.trim());
    if (!Number.isFinite(n) || n < 0) continue;
    // Large values are epoch seconds (X-RateLimit-Reset on GitHub-style APIs); small ones are deltas.
    if (n > 1e9) return { ms: Math.max(0, n * 1000 - now), source: headerName(name) };
    return { ms: Math.round(n * 1000), source: headerName(name) };
  }
  // draft-ietf-httpapi-ratelimit-headers: `RateLimit: limit=100, remaining=0, reset=5`
  const combined = headers['ratelimit'];
  if (combined) {
    const m = /(?:^|[;,\s])(?:reset|t)=(\d+)/i.exec(combined);
    if (m) return { ms: Number(m[1]) * 1000, source: 'RateLimit' };
  }
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

/**
 * How long to wait before retry number `retries` (from 0) of a request answered 429 with these
 * headers, and the note its evidence carries; undefined when the policy allows no more retries.
 */
export function retryWait(
  headers: Record<string, string>,
  retries: number,
  policy: RetryPolicy,
): { ms: number; note: string } | undefined {
  if (retries >= policy.max429Retries) return undefined;
  // An HTTP date in Retry-After is read against the server's own clock (its Date header), so a
  // server whose clock is off does not make the audit wait too long or not at all.
  const serverNow = headers.date ? Date.parse(headers.date) : NaN;
  const told = advertisedWait(headers, Number.isNaN(serverNow) ? undefined : serverNow);
  const ms = Math.min(told?.ms ?? policy.defaultRetryWaitMs * 2 ** retries, policy.maxRetryWaitMs);
  const why = told ? `as ${told.source} said` : 'no wait advertised';
  return { ms, note: `answered 429; waited ${(ms / 1000).toFixed(1)} s (${why}) and retried` };
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
