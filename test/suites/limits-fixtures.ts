// Rate-limit fixtures: a middleware limiter on the widgets collection whose refusal and headers each test chooses.
import type { AuditConfig } from '../../src/core/types.js';
import type { FixtureCase } from '../../src/testing/check-tester.js';
import type { Middleware } from '../../src/example-api/index.js';

export interface LimiterOptions {
  /** Requests let through before refusing. */
  after: number;
  /** How long the refusal lasts from the first one (Infinity: for ever). */
  blockMs: number;
  /** Status of a refusal (default 429). */
  status?: number;
  /** Headers of a refusal, given the instant (ms) it lifts. */
  headers?: (until: number) => Record<string, string>;
  /** Body of a refusal (default a JSON error object). */
  body?: string;
}

/** Whole seconds until `until`, rounded up: what a Retry-After must say so that waiting that long suffices. */
export const secondsUntil = (until: number): string =>
  String(Math.max(1, Math.ceil((until - Date.now()) / 1000)));

/**
 * Refuses GET /v1/widgets after `after` requests, for `blockMs`, with the chosen status, headers
 * and body. The example API's own limiter is turned off in the cases that use it.
 */
export function limiter(options: LimiterOptions): Middleware {
  let count = 0;
  let until = 0;
  return (req, res) => {
    if (req.method !== 'GET' || !/^\/v1\/widgets(\?|$)/.test(req.url ?? '')) return false;
    const now = Date.now();
    if (until !== 0 && now >= until) {
      until = 0;
      count = 0;
    }
    if (until === 0 && ++count <= options.after) return false;
    if (until === 0) until = now + options.blockMs;
    const body = options.body ?? JSON.stringify({ error: { code: 'rate_limited', message: 'slow down' } });
    res.writeHead(options.status ?? 429, { 'content-type': 'application/json', ...options.headers?.(until) });
    res.end(body);
    return true;
  };
}

/** Valid 429s, each telling the wait its own way; the limit lifts after a second. */
export const VALID_429S: FixtureCase[] = [
  limited('429 with Retry-After in seconds', {
    after: 20,
    blockMs: 1000,
    headers: (until) => ({ 'retry-after': secondsUntil(until) }),
  }),
  limited('429 with Retry-After as an HTTP date', {
    after: 20,
    blockMs: 1000,
    // toUTCString drops the milliseconds, so the date is up to a second early: the check allows for it.
    headers: (until) => ({ 'retry-after': new Date(until).toUTCString() }),
  }),
  limited('429 with RateLimit-Reset only', {
    after: 20,
    blockMs: 1000,
    headers: (until) => ({
      'ratelimit-limit': '20',
      'ratelimit-remaining': '0',
      'ratelimit-reset': secondsUntil(until),
    }),
  }),
  limited('429 with X-RateLimit-Reset as epoch seconds', {
    after: 20,
    blockMs: 1000,
    headers: (until) => ({ 'x-ratelimit-reset': String(Math.ceil(until / 1000)) }),
  }),
];

/**
 * The valid variants with the example API's limit lowered to 50 per second: its default (1000 per
 * second) is only reachable by a client faster than that, which a loaded test machine is not.
 */
export function withLowLimit(cases: FixtureCase[]): FixtureCase[] {
  return cases.map((c) => ({ ...c, api: { ...c.api, rateLimit: { limit: 50, windowMs: 1000 } } }));
}

/** A case on the example API with its limiter off and this middleware limiter instead. */
export function limited(
  name: string,
  options: LimiterOptions,
  extra: Partial<FixtureCase> = {},
): FixtureCase {
  return {
    name,
    api: { rateLimit: false, middleware: limiter(options) },
    config: (config) => withRateLimit(config, { maxRequests: 200, expected: true }),
    ...extra,
  };
}

/** The config with rateLimit fields replaced. */
export function withRateLimit(config: AuditConfig, fields: Partial<AuditConfig['rateLimit']>): AuditConfig {
  return { ...config, rateLimit: { ...config.rateLimit, ...fields } };
}
