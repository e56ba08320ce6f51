// Switches of the alternative API: valid choices the conventions leave open, and single rule breaks.

/**
 * Valid choices where CONVENTIONS.md is silent, each made differently from the bundled example
 * API. Every combination is a correct API: the full audit must pass it.
 */
export interface AltChoices {
  /**
   * `plain` JSON as the other switches shape it, or `jsonapi` (jsonapi.org documents for requests,
   * items, lists and errors, application/vnd.api+json; the list, item and error switches then do not apply).
   */
  format: 'plain' | 'jsonapi';
  /**
   * Collection answers: `cursor` `{items, next}` (next an absolute URL or null), `drf`
   * `{count, next, previous, results}` (Django REST style pages), `stripe`
   * `{object: "list", data, has_more, url}` newest first, `hal` `{_embedded: {<name>: [...]},
   * _links, page}` (Spring Data REST, application/hal+json, pages counted from 0).
   */
  lists: 'cursor' | 'drf' | 'stripe' | 'hal';
  /** Items per page (collections longer than this are paged). */
  pageSize: number;
  /**
   * Single items: `bare`, `data` `{data: item, meta: {request_id}}`, or `named` under the
   * object's name beside metadata `{address: item, meta: {request_id}}`.
   */
  items: 'bare' | 'data' | 'named';
  /** A create answers 201 with the item (`full`), with `{id}` only (`id-only`), or with no body and a Location. */
  createBody: 'full' | 'id-only' | 'location-only';
  /** A DELETE answers `200` `{deleted: true, id}` or `204` with no body. */
  deleteStatus: 200 | 204;
  /** A DELETE of an item already deleted answers `404`, or the same as the first DELETE (`same`). */
  repeatDelete: 404 | 'same';
  /** Error bodies: `problem` (RFC 9457, detail only sometimes) or `flat` `{code, message, request_id}`. */
  errors: 'problem' | 'flat';
  /** Request fields the resource does not know: rejected with 400, or ignored. */
  unknownFields: 'reject' | 'ignore';
  /**
   * The 429: `headers` carries RateLimit-Limit/-Remaining/-Reset only (no Retry-After, and the
   * RateLimit-* headers ride on every answer); `date` carries Retry-After as an HTTP date only;
   * `structured` the IETF draft's `RateLimit: "default";r=0;t=1` and `RateLimit-Policy` only.
   */
  rateLimit: 'headers' | 'date' | 'structured';
  /** Requests allowed per second per token and URL path (or per token, see rateLimitScope). */
  rateLimitPerSecond: number;
  /** What one rate-limit budget covers: each URL path of a token, or all of a token's requests. */
  rateLimitScope: 'path' | 'token';
  /** Path prefix holding the version (`/api` only with the no-version-prefix break). */
  prefix: '/v2' | '/api/v2' | '/api';
  /** Header of idempotency keys on POST. */
  idempotencyHeader: string;
  /** Every answer sets a load-balancer affinity cookie (it plays no part in authentication). */
  affinityCookie: boolean;
  /** Collection entries: the `full` item, or a `summary` (id, one field, a self link). */
  listFields: 'full' | 'summary';
  /**
   * Server-managed members: `snake` created_at, updated_at, version, etag at the top; `nested`
   * `_meta: {revisionNo, createdOn, changedOn}` (names the audit cannot guess: the config lists
   * them in ignoreFields).
   */
  managedFields: 'snake' | 'nested';
  /** A deleted item (GET, and a repeated DELETE answering 404 otherwise) answers 404 or 410 Gone. */
  deletedStatus: 404 | 410;
  /** Query parameters the collection does not know: ignored, or refused with 400. */
  unknownQuery: 'ignore' | 'reject';
  /** `Connection: close` on every answer instead of keeping connections alive. */
  closeConnections: boolean;
  /** The rate limit counts every request per client address and path, before authentication. */
  limitBeforeAuth: boolean;
  /** Collections start with seed records (false: empty, as on a fresh service). */
  seeded: boolean;
  /** settings take PUT (`all`), or answer it 405 and the config declares no replace (`no-put`). */
  settingsOps: 'all' | 'no-put';
  /** updates take every method (`all`), or only GET (`read-only`: a published feed; the config declares list and read). */
  updatesOps: 'all' | 'read-only';
  /** The limited token may only read, or may also create and change but not delete. */
  limitedMay: 'read' | 'write-but-not-delete';
  /** 401s challenge with `Bearer` only, or with a Basic and a Bearer challenge in two header lines. */
  challenges: 'bearer' | 'basic-and-bearer';
  /** How far the server's clock (its Date header and Retry-After dates) is ahead of the client's, in ms. */
  clockSkewMs: number;
  /** Every answer waits this long before it is written (a service across a network). */
  latencyMs: number;
  /** The collections live under a parent resource: /accounts/acc_main/addresses. */
  nested: boolean;
  /**
   * How stored values are shown: `as-sent`, or `decimal-strings` as a decimal column and a
   * timestamp column show them: every number of a client field as a string with two decimals
   * (`2` as `"2.00"`, `12.5` as `"12.50"`, so `3.456` shows rounded as `"3.46"`), date-times as the
   * same instant at +02:00 with milliseconds, dates as midnight UTC (`2026-05-04T00:00:00Z`).
   * Values are stored as sent; only answers change.
   */
  values: 'as-sent' | 'decimal-strings';
  /** Media type of non-error JSON answers (default application/json; charset=utf-8, or hal+json for hal lists). */
  contentType?: string;
}

/** One rule broken in a way the team's own fixtures may not show. */
export type AltBreak =
  /** ERR-STATUS, ERR-MALFORMED: a validation failure answers 200 {"status": "error", ...}. */
  | 'validation-200'
  /** AUTH-MISSING: no Authorization header answers 404 (hiding the API). */
  | 'unauthenticated-404'
  /** AUTH-MISSING: no Authorization header answers 403. */
  | 'missing-token-403'
  /** ERR-NOT-FOUND: PUT on an unknown id creates the item (an upsert), 201. */
  | 'put-upsert'
  /** MTH-JSON-BODY: text/plain (and unlabelled) payloads are parsed as JSON and accepted. */
  | 'accept-text-plain'
  /** MTH-DELETE: DELETE soft-deletes: the item answers 404 but the collection still lists it. */
  | 'soft-delete-listed'
  /** IDEM-GET: reading an item increments its "views" counter. */
  | 'view-counter'
  /** AUTH-INVALID: the token under the Basic scheme is accepted too. */
  | 'basic-accepted'
  /** ERR-SERVER, ERR-MALFORMED: a field of the wrong type makes the server fail (500). */
  | 'wrong-type-500'
  /** ERR-MALFORMED: a JSON array POSTed to a collection is a batch create. */
  | 'array-batch-create'
  /** ERR-MALFORMED: a PATCH with JSON null is a no-op 200. */
  | 'null-patch-ok'
  /** IDEM-PUT: PUT appends the sent list entries to the stored ones. */
  | 'put-appends'
  /** IDEM-KEY: the idempotency key is stored but a retry still creates a second item. */
  | 'key-replays-but-creates'
  /** GEN-STATELESS: an authenticated answer sets a session cookie that later stands in for the token. */
  | 'session-cookie'
  /** ERR-NOT-FOUND: an id that is not shaped like this API's ids answers 400 "malformed id". */
  | 'malformed-id-400'
  /** AUTH-FORBIDDEN: the limited token's DELETE answers 403 but deletes. */
  | 'forbidden-still-acts'
  /** LIM-429: over the limit the API answers 503 with Retry-After. */
  | 'limit-503'
  /** MTH-DELETE: DELETE also removes the item created just before the deleted one. */
  | 'delete-neighbour'
  /** VER-UNKNOWN: any /v<N> prefix is served. */
  | 'any-version'
  /** MTH-CHANGE: PATCH answers 200 with the item but stores nothing. */
  | 'patch-ignored'
  /** MTH-CREATE: POST silently drops the optional fields it was sent. */
  | 'create-drops-optional'
  /** MTH-CREATE: POST answers 202 Accepted (the item exists at once). */
  | 'create-202'
  /** MTH-CREATE (warning): the Location of a 201 points to the collection, not the new item. */
  | 'location-collection'
  /** LIM-RETRY: the 429 says RateLimit-Reset: 1 but the limit holds for ten seconds. */
  | 'limit-never-lifts'
  /** LIM-RETRY (warning): the 429 carries no Retry-After and no RateLimit-* header. */
  | 'no-retry-headers'
  /** ERR-BODY (warning): unknown paths answer a gateway's {"message"} beside the API's own error bodies. */
  | 'gateway-error-shape'
  /** GEN-JSON: unknown paths answer an HTML page. */
  | 'html-404'
  /** AUTH-CHALLENGE (warning): 401s carry no WWW-Authenticate. */
  | 'no-challenge'
  /** RES-ITEM: the collection is served from a stale cache that holds only the seed records. */
  | 'list-hides-new'
  /** ERR-NOT-FOUND: an unknown collection answers 200 with an empty list (a catch-all route). */
  | 'unknown-collection-200'
  /** AUTH-FORBIDDEN: the limited token's writes answer 401. */
  | 'limited-401'
  /** AUTH-INVALID: any JWT-shaped Bearer token is accepted (decoded, never verified). */
  | 'any-jwt-accepted'
  /** IDEM-DELETE: a repeated DELETE answers 500. */
  | 'repeat-delete-500'
  /** IDEM-KEY (warning): a key reused with another body replays the first answer. */
  | 'key-reuse-replays'
  /** VER-PATH: no version in the path (prefix /api). */
  | 'no-version-prefix'
  /** GEN-STATELESS: a keep-alive connection that authenticated once is trusted without a token. */
  | 'remembers-connection'
  /** AUTH-MISSING: a malformed JSON body is answered 400 before credentials are checked. */
  | 'auth-after-validation'
  /** AUTH-MISSING: an unknown id is answered 404 before credentials are checked. */
  | 'auth-after-existence';

export interface AltApiOptions extends Partial<AltChoices> {
  breaks?: AltBreak[];
  /**
   * The server's clock in ms since the epoch (default `Date.now`): its rate-limit windows and its
   * Date header. Tests share the audit's clock with it, so waiting for the limit takes no real time.
   */
  now?: () => number;
}

export interface ResolvedAlt extends AltChoices {
  breaks: Set<AltBreak>;
  now: () => number;
  tokens: { full: string; limited: string };
}

export const ALT_DEFAULTS: AltChoices = {
  format: 'plain',
  lists: 'cursor',
  pageSize: 50,
  items: 'bare',
  createBody: 'full',
  deleteStatus: 200,
  repeatDelete: 404,
  errors: 'problem',
  unknownFields: 'reject',
  rateLimit: 'headers',
  rateLimitPerSecond: 200,
  prefix: '/v2',
  idempotencyHeader: 'X-Idempotency-Key',
  affinityCookie: false,
  listFields: 'full',
  managedFields: 'snake',
  deletedStatus: 404,
  unknownQuery: 'ignore',
  closeConnections: false,
  limitBeforeAuth: false,
  seeded: true,
  rateLimitScope: 'path',
  settingsOps: 'all',
  updatesOps: 'all',
  limitedMay: 'read',
  challenges: 'bearer',
  clockSkewMs: 0,
  latencyMs: 0,
  nested: false,
  values: 'as-sent',
};

/** Fills in the defaults. */
export function resolveAlt(options: AltApiOptions = {}): ResolvedAlt {
  const { breaks, now, ...choices } = options;
  const defined = Object.fromEntries(Object.entries(choices).filter(([, v]) => v !== undefined));
  return {
    ...ALT_DEFAULTS,
    ...(defined as Partial<AltChoices>),
    ...(breaks?.includes('no-version-prefix') ? { prefix: '/api' as const } : {}),
    breaks: new Set(breaks ?? []),
    now: now ?? Date.now,
    tokens: { full: 'alt_live_7Hq2mK9vX4pR', limited: 'alt_ro_3Jd8sW1nB6tY' },
  };
}
