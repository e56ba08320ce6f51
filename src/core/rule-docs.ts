// What passes and why it matters, per rule, and the passages of the source conventions each rule rests on (for `explain`).

/** The explanation of one rule beyond its statement (see rules.ts). */
export interface RuleDoc {
  /** What a service does to pass: the valid choices the conventions leave open included. */
  passes: string;
  /** Why a client (or its developer) cares. */
  why: string;
  /**
   * Text of the source document (docs/seeds/, cited as §N) the rule rests on: each entry is part of
   * one line of it, which `explain` quotes whole. A test proves every entry is in the shipped file.
   */
  source: readonly string[];
}

/** Every rule id of rules.ts has an entry (a test holds them in step). */
export const RULE_DOCS: Readonly<Record<string, RuleDoc>> = {
  'GEN-JSON': {
    passes:
      'Every response with a body is JSON: application/json (any charset) or any +json type such as application/problem+json, and the body parses. 204, 304 and HEAD answers carry no body.',
    why: 'Clients parse every answer as JSON; an HTML error page or a text/plain body breaks them at the worst moment, on an error path nobody tested.',
    source: ['Responses are usually JSON.', 'Payloads are JSON, in requests and responses.'],
  },
  'GEN-STATELESS': {
    passes:
      'A request without credentials is refused also on a connection that just carried an authenticated one, and with every cookie the server set; a request with the token and no cookies works.',
    why: 'A server that remembers a caller by connection or cookie lets the next request on a shared connection (a proxy, a pool) act as someone else, and breaks behind load balancers.',
    source: [
      'Each request stands on its own. The server keeps no memory of earlier requests.',
      'Every request carries its own authentication, because the server holds no session between requests.',
    ],
  },
  'RES-NOUN': {
    passes:
      "Every path segment is a noun (/widgets, /orders/{id}); nouns that merely start with a verb's letters (/addresses, /settings, /updates) are fine.",
    why: 'The method already names the operation; verb paths (/getWidgetById, /create-order) duplicate it, multiply endpoints, and hide which methods a resource supports.',
    source: ['names a set of resources by a noun.', 'Verb-style paths such as'],
  },
  'RES-ITEM': {
    passes:
      'GET /<collection>/<id> answers the item with that id (bare or in an envelope such as {"data": {...}}), and a created item appears in its collection; numeric and string ids both pass.',
    why: 'Clients build item URLs from ids they got from the collection; if the URL answers another item, or a new item never appears in the list, every cache and every link is wrong.',
    source: ['names one resource.', 'names a set of resources by a noun.'],
  },
  'MTH-READ': {
    passes:
      'A GET of a collection or of an existing item answers 200 (a list may be bare or in an envelope).',
    why: 'Clients and caches treat other 2xx codes differently (203 is a transformed copy, 202 an unfinished job), so a read that is not 200 is not a plain read to them.',
    source: ['| GET |', 'A successful read or change answers 200.'],
  },
  'MTH-CREATE': {
    passes:
      'POST to a collection answers 201 and the new item can be read back; a Location header leading to it is expected (a warning without it).',
    why: 'A 201 tells the client something new exists and where; a 200 leaves it guessing whether anything was created, and an item it cannot read back is lost.',
    source: ['| POST |', 'A successful creation answers 201.'],
  },
  'MTH-CHANGE': {
    passes:
      'PUT and PATCH on an item answer 200, and a later GET shows the values sent (compared by meaning: "3" for 3, another RFC 3339 spelling of the same instant).',
    why: 'A client that got 200 believes its change is stored; a change that is acknowledged but not applied is silent data loss.',
    source: ['| PUT |', '| PATCH |', 'A successful read or change answers 200.'],
  },
  'MTH-DELETE': {
    passes:
      'DELETE on an item answers 2xx (200, 202 or 204), the item then answers 404 (410 passes too), and nothing else in the collection changed.',
    why: 'A delete that leaves the item readable (or removes another one) makes clients show data that should be gone, or lose data nobody asked to delete.',
    source: ['| DELETE |'],
  },
  'MTH-JSON-BODY': {
    passes:
      'A payload sent as text/plain or with no Content-Type is refused with 400 or 415 and does nothing.',
    why: 'A server that guesses the format of a body accepts what a client never meant to send (a form, a typo) and answers with 5xx when the guess fails.',
    source: ['Payloads are JSON, in requests and responses.'],
  },
  'IDEM-GET': {
    passes:
      'Reading an item or a collection several times with no write in between gives the same representation every time.',
    why: 'Clients, caches and crawlers read freely and retry reads; a read that changes state (a counter, a "last seen" field) turns every retry into a write.',
    source: ['| GET |', 'Sending GET, PUT or DELETE once or several times leaves the same end state.'],
  },
  'IDEM-PUT': {
    passes:
      'The same PUT sent once or N times leaves the same item; server-managed fields (updatedAt, etag, revision counters) may change.',
    why: 'Networks fail after the server acted and before the client heard; a client must be able to resend a PUT without doing the change twice.',
    source: ['| PUT |', 'Sending GET, PUT or DELETE once or several times leaves the same end state.'],
  },
  'IDEM-DELETE': {
    passes:
      'A repeated DELETE leaves the same end state as the first: a repeat may answer 404 or 2xx, never 5xx, and touches nothing else.',
    why: 'Clients retry a DELETE whose answer they did not get; a repeat that fails with 5xx or removes something else makes retries unsafe.',
    source: ['| DELETE |', 'Sending GET, PUT or DELETE once or several times leaves the same end state.'],
  },
  'IDEM-KEY': {
    passes:
      'Two POSTs with the same idempotency key and body create one resource, and the retry names that same resource; a reused key with another body is refused with a 4xx (a warning otherwise).',
    why: 'A payment or an order retried after a time-out must not happen twice; the key is how a client says "this is the same request".',
    source: ['A retried POST that must not act twice', 'POST normally does not have that property.'],
  },
  'AUTH-MISSING': {
    passes:
      'Every request without an Authorization header answers 401, whatever the method, the id (known or never issued) or the body (valid or malformed): authentication comes first.',
    why: 'A client without credentials must learn that it has to authenticate; a 404, 400 or 403 tells it something else, and a 2xx means anyone can read or change the data.',
    source: [
      'A request with no valid authentication is answered 401.',
      'Authorization: Bearer <ACCESS_TOKEN>',
    ],
  },
  'AUTH-INVALID': {
    passes:
      'A garbage token, an expired-looking JWT, an empty Bearer, another scheme (Basic, Token) and the valid token with one character changed are all answered 401.',
    why: 'A server that accepts a malformed or altered credential (or only compares a prefix) can be entered without a valid token.',
    source: [
      'A request with no valid authentication is answered 401.',
      'Authorization: Bearer <ACCESS_TOKEN>',
    ],
  },
  'AUTH-FORBIDDEN': {
    passes:
      'With a valid token that lacks the permission, each forbidden operation answers 403 and the data read with the full token is unchanged.',
    why: '403 tells a client its credentials are fine but not enough (ask for access, do not log in again); a 403 that still acted is a permission hole.',
    source: ['A request that is authenticated but not permitted is answered 403.'],
  },
  'AUTH-CHALLENGE': {
    passes: 'Every 401 carries a WWW-Authenticate header naming the Bearer scheme (RFC 6750 §3). A warning.',
    why: 'The challenge tells a client, and generic HTTP tooling, how to authenticate; without it a 401 says "no" without saying how to ask.',
    source: ['The usual form is a bearer token in the `Authorization` header'],
  },
  'ERR-STATUS': {
    passes:
      'No 2xx answer carries an error object: no non-empty top-level error/errors, no success: false or ok: false, no status "error"/"fail", no code or status field holding a 4xx/5xx number.',
    why: 'Clients, retries, monitoring and caches judge the status code; a 200 that says "error" inside is counted as a success everywhere but in the body.',
    source: ['A response must not be 200 with an error object in its body.'],
  },
  'ERR-MALFORMED': {
    passes:
      'Unparseable JSON, an empty body, JSON of the wrong type, the declared invalid payloads and fields of the wrong type are answered 400 and change nothing (422 passes with a warning).',
    why: 'A 400 tells the client its request is wrong and must not be retried as is; a 2xx stores garbage, a 5xx makes the client retry forever.',
    source: ['| 400 | Request malformed |'],
  },
  'ERR-NOT-FOUND': {
    passes:
      'GET, PUT, PATCH and DELETE of an id never issued, and GET of an unknown collection, answer 404 (DELETE of an unknown id may also answer 2xx: an idempotent DELETE cannot tell it from a repeat).',
    why: 'Clients tell "gone" from "broken" by the 404; a 200 with nothing, a 400 or a 500 sends them down the wrong path.',
    source: ['| 404 | No such resource |'],
  },
  'ERR-SERVER': {
    passes: 'No request the audit sends, however malformed, is answered 5xx.',
    why: "A 5xx says the server is at fault: clients retry it and on-call engineers are paged. Bad input is the client's fault and must be a 4xx.",
    source: ['| 500 | Server failure |', '| 400 | Request malformed |'],
  },
  'ERR-BODY': {
    passes:
      'Every 4xx and 5xx carries a JSON body, and error bodies share one shape (the same top-level keys) across the API; any shape passes, application/problem+json included. A warning.',
    why: 'A client writes one error handler; an empty body or a different shape per endpoint leaves users with "something went wrong".',
    source: ['The shape of an error body and any service-specific error codes: not shown.'],
  },
  'LIM-429': {
    passes:
      'A burst beyond the limit is answered 429, and no other refusal (503, 403, a 200 with an error) is used for it. With rateLimit.expected: false, a service that shows no limit within the burst is not failed.',
    why: 'Clients back off on 429 only; a limit signalled with 503 or 403 makes them retry at once or give up for good.',
    source: ['When a client exceeds a rate limit, the answer is 429.', '| 429 | Rate limited |'],
  },
  'LIM-RETRY': {
    passes:
      'After waiting as the 429 said (Retry-After, RateLimit-Reset, or the configured wait) the client is served again; the 429 names the wait (a warning without it).',
    why: 'A client that waited as told and is still refused cannot recover; one told nothing guesses, and usually retries too soon.',
    source: [
      'When a client exceeds a rate limit, the answer is 429.',
      'Numeric limits, time windows, headers that report limits, size limits and time-outs: not shown.',
    ],
  },
  'VER-PATH': {
    passes: 'The base URL or the declared paths carry a /v<N> segment (/v1, /v2...).',
    why: 'A version in the path lets a response shape change in a new version without breaking clients of the old one.',
    source: [
      'put a version segment in the path',
      'a response shape can then change without a painful migration.',
    ],
  },
  'VER-UNKNOWN': {
    passes:
      'A known collection under a version far from the real one (e.g. /v97/widgets) is not served: any non-2xx passes.',
    why: "If every version prefix serves the same data, the version segment means nothing and clients pinned to a future version silently get today's shapes.",
    source: ['put a version segment in the path'],
  },
  'HOOK-DELIVERY': {
    passes:
      'After the triggering operation, the declared event reaches the subscribed URL within the time-out as an HTTP request with a JSON body naming that event.',
    why: 'Clients that rely on webhooks instead of polling miss changes entirely when an event is not delivered or not recognisable.',
    source: ['A webhook reverses the direction of a call.'],
  },
  'HOOK-SIGNATURE': {
    passes:
      'When a secret is configured, each delivery carries the configured header with the HMAC of its raw body (algorithm, encoding and prefix as configured).',
    why: "A webhook URL is public; without a valid signature a client cannot tell the service's events from forged ones.",
    source: [
      'Whether the service offers webhooks, the kinds of event, payload shapes, signing, delivery and retries: not shown.',
    ],
  },
  'DOC-SCHEMA': {
    passes:
      'Every item the API answers (read, create, change, and each element of a list) validates against the schema declared in the config or the OpenAPI document.',
    why: 'Clients are generated from, or written against, the declared schema; a field of another type or a missing required field breaks them.',
    source: ['Names of resources, their fields, types, formats and required status: not shown.'],
  },
};
