// Options of the example API (tokens, limits, valid variants, breaks) and their resolved defaults.
import type { AuthScheme } from './auth.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Breaks } from './breaks.js';
import { defaultResources, thingsResources, type ResourceDefinition } from './resources.js';

/** Valid choices the conventions allow; the audit must pass with every combination. */
export interface Variant {
  /**
   * Shape of a GET collection answer: `envelope-data` `{data, total}` (default), `bare` array,
   * `envelope-items` `{items, total}`, `paged` `{items, page, pageSize, totalItems}`.
   */
  listStyle?: 'envelope-data' | 'bare' | 'envelope-items' | 'paged';
  /** Shape of single items (read, create, replace, update, delete-200): `bare` (default) or `{data: item}`. */
  itemStyle?: 'bare' | 'envelope-data';
  /** Status of a successful DELETE: 204 empty (default) or 200 with the deleted item. */
  deleteStatus?: 204 | 200;
  /** Status of a DELETE of an already deleted item: 404 (default) or 204. Never-issued ids stay 404. */
  repeatDeleteStatus?: 404 | 204;
  /** Error bodies: `json` `{error: {code, message}}` (default) or RFC 9457 `application/problem+json`. */
  errorStyle?: 'json' | 'problem';
  /** Media type of JSON answers (default `application/json; charset=utf-8`). */
  contentType?: string;
  /** Ids of the default `widgets` collection: `int` (default) or `uuid`. */
  widgetIds?: 'int' | 'uuid';
  /** Location of a created item: `path` `/v1/widgets/4` (default), `absolute` URL, or `none`. */
  locationStyle?: 'path' | 'absolute' | 'none';
}

/** Rate limit per token. */
export interface RateLimitOptions {
  /** Requests allowed per window and token. */
  limit: number;
  /** Window length in ms. */
  windowMs: number;
  /**
   * `sliding` (default): at most `limit` admitted in any `windowMs`. `fixed`: counted per window
   * aligned to multiples of `windowMs` (a burst across a boundary may then meet no 429).
   */
  window?: 'sliding' | 'fixed';
  /**
   * What one budget covers: `token` (default when options are given) counts every request of a
   * token; `endpoint` counts per token, method and path, as APIs with per-route limits do.
   */
  scope?: 'token' | 'endpoint';
  /** A refused request answers `Retry-After: 0`, as some real limiters do, instead of the seconds to a free slot. */
  retryAfterZero?: boolean;
  /** `false`: no `RateLimit-*` headers on any answer (a limiter that gives no warning before it refuses). */
  advertise?: boolean;
}

/**
 * A tight limit as real services set it (`conformance demo --rate-limit <n>`): `rps` requests per
 * second per token across every endpoint, refused with `Retry-After: 0`; `advertise: false` also
 * leaves out the `RateLimit-*` headers, so only the 429s tell the audit it goes too fast.
 */
export function strictRateLimit(rps: number, advertise = true): RateLimitOptions {
  return { limit: rps, windowMs: 1000, scope: 'token', retryAfterZero: true, advertise };
}

/**
 * The built-in limit: 150 requests per second per token and endpoint. Per endpoint, so that a
 * concurrent burst on one URL meets a 429 however fast the machine is, while the audit's ordinary
 * checks (a few dozen requests per URL) never do.
 */
export const DEFAULT_RATE_LIMIT: RateLimitOptions = { limit: 150, windowMs: 1000, scope: 'endpoint' };

/**
 * Called for every request after its body is read and before anything else (authentication
 * included). Returning true means it has answered and the API does nothing more. Requests whose
 * body passes the size cap never reach it (they are answered 401 or 413 at once).
 */
export type Middleware = (
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
) => boolean | Promise<boolean>;

/** Options of `createExampleApi`; every one is optional. */
export interface ExampleApiOptions {
  /** Bearer tokens: full access (default `demo-full-token`) and read-only (default `demo-limited-token`). */
  tokens?: { full?: string; limited?: string };
  /** Where the credential goes (default `Authorization: Bearer`); see `AuthScheme`. */
  authScheme?: AuthScheme;
  /** HMAC-SHA256 key of webhook signatures (default `demo-webhook-secret`). */
  webhookSecret?: string;
  /** Path prefix of every route (default `/v1`). */
  versionPrefix?: string;
  /** Rate limit (default DEFAULT_RATE_LIMIT: 150 per second per token and endpoint); `false` disables it. */
  rateLimit?: RateLimitOptions | false;
  /** Header carrying idempotency keys on POST (default `Idempotency-Key`). */
  idempotencyHeader?: string;
  /** Adds `things1..thingsN` collections with the widgets shape. */
  extraResources?: number;
  /** Replaces the default collections (`widgets`, `orders`); see `defaultResources()` to extend them. */
  resources?: ResourceDefinition[];
  /** Unknown request fields: `ignore` (default) or `reject` with 400. */
  unknownFields?: 'ignore' | 'reject';
  /** Request body cap in bytes (default 1 MiB); larger bodies answer 413. */
  maxBodyBytes?: number;
  /** Time-out of one webhook delivery in ms (default 2000). */
  webhookTimeoutMs?: number;
  /** Valid choices (see `Variant`). */
  variant?: Variant;
  /** Rule violations for tests (see `Breaks`). */
  breaks?: Breaks;
  /** A hook that can answer any request itself (see `Middleware`). */
  middleware?: Middleware;
  /** Clock in ms since the epoch (default `Date.now`); tests inject one to move rate-limit windows. */
  now?: () => number;
  /**
   * Delay before every answer, in ms (default 0: none): a service across a network, for the bench.
   * The request is handled at once; only its answer waits.
   */
  latencyMs?: number;
  /** How the latency is waited out (default a timer); tests inject one they release themselves. */
  delay?: (ms: number) => Promise<void>;
}

/** The options with every default filled in. */
export interface ResolvedOptions {
  tokens: { full: string; limited: string };
  authScheme?: AuthScheme;
  webhookSecret: string;
  versionPrefix: string;
  rateLimit: RateLimitOptions | false;
  idempotencyHeader: string;
  resources: ResourceDefinition[];
  unknownFields: 'ignore' | 'reject';
  maxBodyBytes: number;
  webhookTimeoutMs: number;
  variant: Required<Variant>;
  breaks: Breaks;
  middleware?: Middleware;
  now: () => number;
  latencyMs: number;
  delay: (ms: number) => Promise<void>;
}

/** Fills in defaults and rejects options that cannot work. */
export function resolveOptions(options: ExampleApiOptions = {}): ResolvedOptions {
  const v = options.variant ?? {};
  const variant: Required<Variant> = {
    listStyle: v.listStyle ?? 'envelope-data',
    itemStyle: v.itemStyle ?? 'bare',
    deleteStatus: v.deleteStatus ?? 204,
    repeatDeleteStatus: v.repeatDeleteStatus ?? 404,
    errorStyle: v.errorStyle ?? 'json',
    contentType: v.contentType ?? 'application/json; charset=utf-8',
    widgetIds: v.widgetIds ?? 'int',
    locationStyle: v.locationStyle ?? 'path',
  };
  const resources = [
    ...(options.resources ?? defaultResources({ widgetIds: variant.widgetIds })),
    ...thingsResources(options.extraResources ?? 0),
  ];
  const names = new Set<string>();
  for (const def of resources) {
    if (def.name === 'webhooks' || names.has(def.name) || !/^[A-Za-z0-9_-]+$/.test(def.name)) {
      throw new Error(`Invalid or duplicate resource name "${def.name}"`);
    }
    names.add(def.name);
  }
  const prefix = (options.versionPrefix ?? '/v1').replace(/\/+$/, '');
  if (prefix !== '' && !prefix.startsWith('/')) throw new Error('versionPrefix must start with "/"');
  const rateLimit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
  if (rateLimit && (!(rateLimit.limit >= 0) || !(rateLimit.windowMs > 0))) {
    throw new Error('rateLimit needs limit >= 0 and windowMs > 0');
  }
  const latencyMs = options.latencyMs ?? 0;
  if (!(latencyMs >= 0) || !Number.isFinite(latencyMs)) throw new Error('latencyMs must be a number >= 0');
  return {
    tokens: {
      full: options.tokens?.full ?? 'demo-full-token',
      limited: options.tokens?.limited ?? 'demo-limited-token',
    },
    ...(options.authScheme ? { authScheme: options.authScheme } : {}),
    webhookSecret: options.webhookSecret ?? 'demo-webhook-secret',
    versionPrefix: prefix,
    rateLimit,
    idempotencyHeader: (options.idempotencyHeader ?? 'Idempotency-Key').toLowerCase(),
    resources,
    unknownFields: options.unknownFields ?? 'ignore',
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    webhookTimeoutMs: options.webhookTimeoutMs ?? 2000,
    variant,
    breaks: { ...options.breaks },
    middleware: options.middleware,
    now: options.now ?? Date.now,
    latencyMs,
    delay: options.delay ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
  };
}
