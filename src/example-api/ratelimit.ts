// The per-token rate limit: a sliding window (default) or an aligned fixed window, with 429 + Retry-After.
import { errorReply, type Reply } from './reply.js';
import type { RateLimitOptions } from './options.js';

/** One request counted against a token's window: whether it may proceed, and the headers to send. */
export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

/**
 * Limiter keyed by token. `sliding` (default) admits a request when fewer than `limit` requests
 * were admitted in the last `windowMs`: a concurrent burst of more than `limit` requests faster
 * than `limit` per window always meets a 429, wherever it falls on the clock. `fixed` counts per
 * window aligned to multiples of `windowMs`, so a burst that straddles a boundary can pass unrefused.
 * A refused request gets `Retry-After` = whole seconds (ceil, >= 1) until a request is admitted again
 * (or 0, with `retryAfterZero`).
 */
export class RateLimiter {
  private readonly fixed = new Map<string, { start: number; count: number }>();
  /** Admission times per token, oldest first (`head` skips the expired ones without shifting). */
  private readonly sliding = new Map<string, { times: number[]; head: number }>();

  constructor(
    private readonly options: RateLimitOptions,
    private readonly now: () => number,
  ) {}

  /** Counts one request for `key`. */
  hit(key: string): RateDecision {
    const t = this.now();
    const { allowed, used, resetMs } =
      this.options.window === 'fixed' ? this.hitFixed(key, t) : this.hitSliding(key, t);
    const resetSeconds = String(Math.max(1, Math.ceil(resetMs / 1000)));
    const headers: Record<string, string> =
      this.options.advertise === false
        ? {}
        : {
            'RateLimit-Limit': String(this.options.limit),
            'RateLimit-Remaining': String(Math.max(0, this.options.limit - used)),
            'RateLimit-Reset': resetSeconds,
          };
    if (!allowed) headers['Retry-After'] = this.options.retryAfterZero ? '0' : resetSeconds;
    return { allowed, headers };
  }

  private hitFixed(key: string, t: number): { allowed: boolean; used: number; resetMs: number } {
    const { limit, windowMs } = this.options;
    const start = t - (((t % windowMs) + windowMs) % windowMs);
    let window = this.fixed.get(key);
    if (!window || window.start !== start) {
      window = { start, count: 0 };
      this.fixed.set(key, window);
    }
    window.count++;
    return { allowed: window.count <= limit, used: window.count, resetMs: start + windowMs - t };
  }

  private hitSliding(key: string, t: number): { allowed: boolean; used: number; resetMs: number } {
    const { limit, windowMs } = this.options;
    let log = this.sliding.get(key);
    if (!log) {
      log = { times: [], head: 0 };
      this.sliding.set(key, log);
    }
    while (log.head < log.times.length && log.times[log.head] <= t - windowMs) log.head++;
    if (log.head > 1024 && log.head * 2 > log.times.length) {
      log.times = log.times.slice(log.head);
      log.head = 0;
    }
    const allowed = log.times.length - log.head < limit;
    if (allowed) log.times.push(t);
    const used = log.times.length - log.head;
    const oldest = used > 0 ? log.times[log.head] : t;
    return { allowed, used, resetMs: oldest + windowMs - t };
  }
}

/** The 429 answer of a refused request. */
export function rateLimitedReply(): Reply {
  return errorReply(429, 'rate_limited', 'Too many requests: retry after the time in Retry-After');
}
