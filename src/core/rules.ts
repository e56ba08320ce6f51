// The rule ids of CONVENTIONS.md with their statements, for `list`, `explain` and reports.

export interface Rule {
  id: string;
  /** Section of the conventions (§N) it comes from. */
  section: string;
  statement: string;
  /** What fails it, as CONVENTIONS.md says. */
  failsWhen: string;
}

export const RULES: readonly Rule[] = [
  {
    id: 'GEN-JSON',
    section: '§1',
    statement: 'Responses that carry a body carry JSON.',
    failsWhen:
      'A non-empty body has a media type that is not application/json or */*+json, or does not parse.',
  },
  {
    id: 'GEN-STATELESS',
    section: '§1',
    statement:
      'The server keeps no memory of earlier requests; every request carries its own authentication.',
    failsWhen:
      'An unauthenticated request is accepted on the same keep-alive connection as an authenticated one, or with the cookies the server set; or a request without cookies fails where one with cookies succeeds.',
  },
  {
    id: 'RES-NOUN',
    section: '§2',
    statement: 'Paths name things, not actions: a collection is a noun.',
    failsWhen:
      'A path segment is verb-shaped (get, create, update, delete, fetch, list, search... as the whole segment or its first word).',
  },
  {
    id: 'RES-ITEM',
    section: '§2',
    statement: '/<collection>/<id> names exactly one resource.',
    failsWhen: 'The item URL answers a different resource, or a created item is missing from the collection.',
  },
  {
    id: 'MTH-READ',
    section: '§4',
    statement: 'GET on a collection or item reads it: 200.',
    failsWhen: 'Not 200.',
  },
  {
    id: 'MTH-CREATE',
    section: '§4',
    statement: 'POST to a collection creates: 201.',
    failsWhen:
      'Not 201, or the created resource cannot be read back. Warning: no Location header, or one that does not lead to the new resource.',
  },
  {
    id: 'MTH-CHANGE',
    section: '§4',
    statement: 'PUT / PATCH on an item change it: 200, and the change is visible.',
    failsWhen: 'Not 200, or a later GET does not show the sent field values.',
  },
  {
    id: 'MTH-DELETE',
    section: '§4',
    statement: 'DELETE on an item removes it.',
    failsWhen: 'Not 2xx, the item is still readable, or any other resource changed or vanished.',
  },
  {
    id: 'MTH-JSON-BODY',
    section: '§4',
    statement: 'Request payloads are JSON.',
    failsWhen:
      'A payload sent as text/plain or with no Content-Type is accepted (2xx) or makes the server fail (5xx).',
  },
  {
    id: 'IDEM-GET',
    section: '§4',
    statement: 'GET leaves the state as it was.',
    failsWhen: 'The representation changes between reads with no write in between.',
  },
  {
    id: 'IDEM-PUT',
    section: '§4',
    statement: 'Sending the same PUT once or N times leaves the same end state.',
    failsWhen:
      'The reads after one and after N PUTs differ in anything but server-managed fields, or a repeat answers differently.',
  },
  {
    id: 'IDEM-DELETE',
    section: '§4',
    statement: 'Sending the same DELETE once or N times leaves the same end state.',
    failsWhen: 'The end state differs from after the first DELETE, or a repeat answers 5xx.',
  },
  {
    id: 'IDEM-KEY',
    section: '§4',
    statement: 'A POST retried with the same idempotency key acts once.',
    failsWhen:
      'Two resources were created, or the retry names a different resource. Warning: reusing the key with a different body is not refused with a 4xx.',
  },
  {
    id: 'AUTH-MISSING',
    section: '§5',
    statement: 'A request without authentication is answered 401.',
    failsWhen: 'Anything but 401, including 403, 404, 400 or 2xx.',
  },
  {
    id: 'AUTH-INVALID',
    section: '§5',
    statement: 'An invalid credential is answered 401.',
    failsWhen: 'Anything but 401.',
  },
  {
    id: 'AUTH-FORBIDDEN',
    section: '§5',
    statement: 'An authenticated request that is not permitted is answered 403, and has no effect.',
    failsWhen: 'Anything but 403, or the state changed.',
  },
  {
    id: 'AUTH-CHALLENGE',
    section: '§5',
    statement: 'A 401 carries WWW-Authenticate naming the Bearer scheme (warning).',
    failsWhen: 'The header is missing or names another scheme.',
  },
  {
    id: 'ERR-STATUS',
    section: '§7',
    statement: 'Failure is signalled by the status code, never by a 2xx with an error body.',
    failsWhen: 'A 2xx body is an error object.',
  },
  {
    id: 'ERR-MALFORMED',
    section: '§7',
    statement: 'A malformed request is answered 400 and has no effect.',
    failsWhen: 'Not 400, or the collection changed. Warning: 422 instead of 400.',
  },
  {
    id: 'ERR-NOT-FOUND',
    section: '§7',
    statement: 'A resource that does not exist is answered 404.',
    failsWhen: 'Anything but 404 (a DELETE of a never-issued id may also answer 2xx).',
  },
  {
    id: 'ERR-SERVER',
    section: '§7',
    statement: 'Client input never makes the server fail.',
    failsWhen: 'A 5xx answer to any request.',
  },
  {
    id: 'ERR-BODY',
    section: '§7',
    statement: 'Error answers carry a JSON body, in one shape across the API (warning).',
    failsWhen: 'An empty or non-JSON error body, or error bodies whose top-level keys differ.',
  },
  {
    id: 'LIM-429',
    section: '§8',
    statement: 'A client over the rate limit is answered 429.',
    failsWhen: 'The burst meets another refusal status, or (when expected) no 429 appears within the bound.',
  },
  {
    id: 'LIM-RETRY',
    section: '§8',
    statement: 'A 429 says when to retry, and the client can come back.',
    failsWhen: 'Still refused after the advertised wait. Warning: no Retry-After or RateLimit-* header.',
  },
  {
    id: 'VER-PATH',
    section: '§9',
    statement: 'The version is a /v<N>/ path segment.',
    failsWhen: 'No /v<N> segment.',
  },
  {
    id: 'VER-UNKNOWN',
    section: '§9',
    statement: 'An unknown version is not served.',
    failsWhen: 'A GET under a version far from the real one answers 2xx.',
  },
  {
    id: 'HOOK-DELIVERY',
    section: '§6',
    statement: 'A declared event is delivered to the client URL as an HTTP request with a JSON body.',
    failsWhen: 'No delivery, a non-JSON body, or the wrong event type.',
  },
  {
    id: 'HOOK-SIGNATURE',
    section: '§6',
    statement: 'A delivery carries a valid signature when a secret is configured.',
    failsWhen: 'Missing or wrong signature.',
  },
  {
    id: 'DOC-SCHEMA',
    section: 'declared contract',
    statement: 'Resource representations match the declared schema.',
    failsWhen: 'ajv reports an error on an item or list body.',
  },
];

export const RULE_IDS: ReadonlySet<string> = new Set(RULES.map((r) => r.id));

export function findRule(id: string): Rule | undefined {
  return RULES.find((r) => r.id.toLowerCase() === id.toLowerCase());
}
