// Authentication (Bearer tokens, judged before anything else) and the per-token fixed-window rate limit.
import { errorReply, type Reply } from './reply.js';
import type { RateLimitOptions } from './options.js';

/** What an authenticated token may do: `full` everything, `limited` only reads. */
export type Role = 'full' | 'limited';

/** The outcome of authentication: the caller's token and role, or the 401 to answer. */
export type AuthResult = { ok: true; token: string; role: Role } | { ok: false; reply: Reply };

/**
 * Judges an `Authorization` header value. Missing, empty, non-Bearer, empty-Bearer and unknown
 * credentials all answer 401 with a Bearer challenge (RFC 6750 §3); `error="invalid_token"` is
 * added only when a Bearer token was actually given.
 */
export function authenticate(
  header: string | undefined,
  tokens: { full: string; limited: string },
): AuthResult {
  const value = (header ?? '').trim();
  if (value === '') return unauthorized('Missing Authorization header', false);
  const space = value.search(/\s/);
  const scheme = space < 0 ? value : value.slice(0, space);
  const credential = space < 0 ? '' : value.slice(space).trim();
  if (scheme.toLowerCase() !== 'bearer')
    return unauthorized('Authorization must use the Bearer scheme', false);
  if (credential === '') return unauthorized('Empty bearer token', false);
  if (credential === tokens.full) return { ok: true, token: credential, role: 'full' };
  if (credential === tokens.limited) return { ok: true, token: credential, role: 'limited' };
  return unauthorized('Invalid or expired token', true);
}

function unauthorized(message: string, tokenGiven: boolean): AuthResult {
  const challenge = 'Bearer realm="example"' + (tokenGiven ? ', error="invalid_token"' : '');
  return { ok: false, reply: errorReply(401, 'unauthorized', message, { 'WWW-Authenticate': challenge }) };
}

/** One request counted against a token's window: whether it may proceed, and the headers to send. */
export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

/**
 * Fixed-window limiter keyed by token. Windows are aligned to multiples of `windowMs` on the
 * injected clock; a refused request gets `Retry-After` = seconds to the window's end (ceil, >= 1).
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly options: RateLimitOptions,
    private readonly now: () => number,
  ) {}

  /** Counts one request for `key`. */
  hit(key: string): RateDecision {
    const { limit, windowMs } = this.options;
    const t = this.now();
    const start = t - (((t % windowMs) + windowMs) % windowMs);
    let window = this.windows.get(key);
    if (!window || window.start !== start) {
      window = { start, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    const resetSeconds = Math.max(1, Math.ceil((start + windowMs - t) / 1000));
    const allowed = window.count <= limit;
    const headers: Record<string, string> = {
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': String(Math.max(0, limit - window.count)),
      'RateLimit-Reset': String(resetSeconds),
    };
    if (!allowed) headers['Retry-After'] = String(resetSeconds);
    return { allowed, headers };
  }
}

/** The 429 answer of a refused request. */
export function rateLimitedReply(): Reply {
  return errorReply(429, 'rate_limited', 'Too many requests: retry after the time in Retry-After');
}
