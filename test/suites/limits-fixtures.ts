// Rate-limit fixtures: a middleware limiter on the widgets collection whose refusal and headers each test chooses, on a fake clock.
import type { AuditConfig } from '../../src/core/types.js';
import type { Clock } from '../../src/core/check.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import type { FixtureCase } from '../../src/testing/check-tester.js';
import type { Middleware } from '../../src/example-api/index.js';

export interface LimiterOptions {
  /** Requests let through before refusing. */
  after: number;
  /** How long the refusal lasts from the first one (Infinity: for ever). */
  blockMs: number;
  /** Status of a refusal (default 429). */
  status?: number;
  /** Headers of a refusal, given the instant (ms) it lifts and the present one. */
  headers?: (until: number, now: number) => Record<string, string>;
  /** Body of a refusal (default a JSON error object). */
  body?: string;
}

/** Whole seconds from `now` until `until`, rounded up: what a Retry-After must say so that waiting that long suffices. */
export const secondsUntil = (until: number, now: number): string =>
  String(Math.max(1, Math.ceil((until - now) / 1000)));

/**
 * Refuses GET /v1/widgets after `after` requests, for `blockMs` on `clock` (the run's, so the
 * audit's waits move it), with the chosen status, headers and body, and a Date header from the
 * same clock. The example API's own limiter is turned off in the cases that use it.
 */
export function limiter(options: LimiterOptions, clock: Clock): Middleware {
  let count = 0;
  let until = 0;
  return (req, res) => {
    if (req.method !== 'GET' || !/^\/v1\/widgets(\?|$)/.test(req.url ?? '')) return false;
    const now = clock.now();
    if (until !== 0 && now >= until) {
      until = 0;
      count = 0;
    }
    if (until === 0 && ++count <= options.after) return false;
    if (until === 0) until = now + options.blockMs;
    const body = options.body ?? JSON.stringify({ error: { code: 'rate_limited', message: 'slow down' } });
    res.writeHead(options.status ?? 429, {
      'content-type': 'application/json',
      date: new Date(now).toUTCString(),
      ...options.headers?.(until, now),
    });
    res.end(body);
    return true;
  };
}

/** Valid 429s, each telling the wait its own way; the limit lifts after a second. */
export const VALID_429S: FixtureCase[] = [
  limited('429 with Retry-After in seconds', {
    after: 20,
    blockMs: 1000,
    headers: (until, now) => ({ 'retry-after': secondsUntil(until, now) }),
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
    headers: (until, now) => ({
      'ratelimit-limit': '20',
      'ratelimit-remaining': '0',
      'ratelimit-reset': secondsUntil(until, now),
    }),
  }),
  limited('429 with X-RateLimit-Reset as epoch seconds', {
    after: 20,
    blockMs: 1000,
    headers: (until) => ({ 'x-ratelimit-reset': String(Math.ceil(until / 1000)) }),
  }),
];

/**
 * The valid variants with the example API's limit lowered to 50 per second (its default, 1000 per
 * second, is only reachable by a client faster than that, which a loaded test machine is not), on
 * a fake clock of their own: waiting for the limit to lift takes no real time.
 */
export function withLowLimit(cases: FixtureCase[]): FixtureCase[] {
  return cases.map((c) => ({
    ...c,
    clock: new FakeClock(),
    api: { ...c.api, rateLimit: { limit: 50, windowMs: 1000 } },
  }));
}

/**
 * A case on the example API with its limiter off and this middleware limiter instead, on a fake
 * clock of its own shared by the limiter, the example API and the audit (`middleware` builds a
 * custom limiter on that clock).
 */
export function limited(
  name: string,
  options: LimiterOptions,
  extra: Partial<FixtureCase> & { middleware?: (clock: FakeClock) => Middleware } = {},
): FixtureCase {
  const clock = new FakeClock();
  const { middleware, ...rest } = extra;
  return {
    name,
    clock,
    api: { rateLimit: false, middleware: middleware ? middleware(clock) : limiter(options, clock) },
    config: (config) => withRateLimit(config, { maxRequests: 200, expected: true }),
    ...rest,
  };
}

/** The config with rateLimit fields replaced. */
export function withRateLimit(config: AuditConfig, fields: Partial<AuditConfig['rateLimit']>): AuditConfig {
  return { ...config, rateLimit: { ...config.rateLimit, ...fields } };
}
