// How long a 429 asks the client to wait: Retry-After, RateLimit-Reset, X-RateLimit-Reset.

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
