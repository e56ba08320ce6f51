// The full audit of a real json-server 0.17 (routes file for /v1): exactly its real deviations, nothing more.
import { describeRealServerAudit } from './describe-audit.js';

// Found by probing json-server 0.17.4 with curl (see test/real-servers/README.md). Each line is
// `RULE resource severity`; only rules that some check of the catalogue covers are judged.
const DEVIATIONS = [
  // No authentication at all ("Get a full fake REST API with zero coding"): a request without the
  // token, or with a garbage one, is served and acts. The config declares a token, as §5 requires.
  'AUTH-MISSING widgets error',
  'AUTH-MISSING orders error',
  'AUTH-INVALID widgets error',
  'AUTH-INVALID orders error',
  // A body that is not JSON reaches Express's default error handler: 400 with an HTML page.
  'GEN-JSON widgets error',
  'GEN-JSON orders error',
  'ERR-BODY widgets warning',
  'ERR-BODY orders warning',
  // body-parser only reads application/json; any other body is ignored and json-server stores an
  // empty item from it: 201 for text/plain or no Content-Type.
  'MTH-JSON-BODY widgets error',
  'MTH-JSON-BODY orders error',
  // No validation: any JSON object (empty, wrong types, missing fields) is stored and answered 201.
  'ERR-MALFORMED widgets error',
  'ERR-MALFORMED orders error',
];

// What json-server 0.17 does right, and the audit must have checked and passed.
const RIGHT = [
  'MTH-READ widgets', // GET collection and item: 200
  'MTH-CREATE widgets', // POST: 201, with a Location (without /v1, which json-server also serves)
  'MTH-CHANGE widgets', // PUT replaces, PATCH merges: 200, visible on the next GET
  'MTH-DELETE orders', // DELETE: 200 {}, then 404
  'RES-ITEM widgets',
  'IDEM-GET widgets',
  'IDEM-PUT orders',
  'IDEM-DELETE widgets', // a repeated DELETE answers 404
  'ERR-NOT-FOUND widgets', // unknown ids and collections: 404 {}
  'ERR-NOT-FOUND orders',
  'ERR-STATUS widgets', // no error object in a 2xx
  'ERR-SERVER widgets', // none of the audit's requests makes it fail
  'VER-PATH -', // /v1 from the routes file
  'VER-UNKNOWN -', // /v2/... is not rewritten: 404
];

// No limit, and none expected by the config: the rule was never exercised, so it is not passed.
const UNJUDGED = ['LIM-429 -'];

describeRealServerAudit({
  kind: 'json-server-017',
  label: 'json-server 0.17',
  collections: ['widgets', 'orders'],
  deviations: DEVIATIONS,
  right: RIGHT,
  unjudged: UNJUDGED,
  prefix: '/v1',
  setup: async (server) => ({ env: { JSON_SERVER_URL: `${server.origin}/v1` } }),
});
