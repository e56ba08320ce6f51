// Rate limiting of the alternative API: fixed one-second windows and the three header styles.
import type { ResolvedAlt } from './options.js';
import { errorReply, type Reply, type Where } from './reply.js';

/** Counters per key (token and path, token, or client address and path). */
export type Windows = Map<string, { start: number; count: number }>;

/** A fixed one-second window per key, on the server's clock. */
export function hit(
  windows: Windows,
  key: string,
  limit: number,
  now: number,
): { count: number; resetAt: number } {
  let w = windows.get(key);
  if (!w || now - w.start >= 1000) {
    w = { start: now, count: 0 };
    windows.set(key, w);
  }
  // Refused requests do not count, so a client that waits as told is served again.
  if (w.count <= limit) w.count++;
  return { count: w.count, resetAt: w.start + 1000 };
}

/** The 429 in the chosen style. */
export function tooMany(where: Where, resetAt: number, count = Infinity): Reply {
  const silent = where.opts.breaks.has('no-retry-headers');
  return errorReply(where, 429, 'too_many_requests', {
    headers: silent ? {} : rateHeaders(where.opts, { count, resetAt }, true),
  });
}

/**
 * Rate-limit headers: `headers` RateLimit-Limit/-Remaining/-Reset on every answer; `date`
 * Retry-After as an HTTP date, on the 429 only; `structured` the IETF draft's RateLimit and
 * RateLimit-Policy on every answer. Seconds are rounded up, dates to the next whole second.
 */
export function rateHeaders(
  opts: ResolvedAlt,
  limit: { count: number; resetAt: number },
  refused: boolean,
): Record<string, string> {
  const seconds = Math.max(1, Math.ceil((limit.resetAt - opts.now()) / 1000));
  const remaining = Math.max(0, opts.rateLimitPerSecond - limit.count);
  switch (opts.rateLimit) {
    case 'headers':
      return {
        'RateLimit-Limit': String(opts.rateLimitPerSecond),
        'RateLimit-Remaining': String(remaining),
        'RateLimit-Reset': String(seconds),
      };
    case 'date':
      if (!refused) return {};
      // On the server's own clock, as its Date header shows it.
      return {
        'Retry-After': new Date(Math.ceil((limit.resetAt + opts.clockSkewMs) / 1000) * 1000).toUTCString(),
      };
    case 'structured':
      return {
        'RateLimit-Policy': `"per-path";q=${opts.rateLimitPerSecond};w=1`,
        RateLimit: `"per-path";r=${remaining};t=${seconds}`,
      };
  }
}
