// The full audit of a real json-server 1.0 (beta.3, the last beta that runs on Node 20): its real deviations only.
import { describeRealServerAudit } from './describe-audit.js';

// Found by probing json-server 1.0.0-beta.3 with curl (see test/real-servers/README.md). Later 1.0
// betas need Node 22; this one runs on Node 20 like the rest of the project.
const DEVIATIONS = [
  // No authentication: the config declares no token, so AUTH-MISSING and AUTH-INVALID are skipped
  // (the audit cannot judge refusals it never triggers); json-server 0.17's config shows the failures.
  // tinyhttp's default answers: 404 "Not Found" as text/plain, and a body that does not parse
  // (milliparsec's JSON.parse throws) is a 500 with the parser's message as plain text.
  'GEN-JSON widgets error',
  'GEN-JSON orders error',
  'ERR-BODY widgets warning',
  'ERR-BODY orders warning',
  'ERR-SERVER widgets error',
  'ERR-SERVER orders error',
  // milliparsec parses every body as JSON whatever its Content-Type: text/plain is stored, 201.
  'MTH-JSON-BODY widgets error',
  'MTH-JSON-BODY orders error',
  // No validation: any object is stored (201), an unparseable body is a 500, and JSON that is not
  // an object (a string, a number, null) falls through to 404.
  'ERR-MALFORMED widgets error',
  'ERR-MALFORMED orders error',
  // A 201 carries no Location header (a warning: the 201 itself is right).
  'MTH-CREATE widgets warning',
  'MTH-CREATE orders warning',
  // 1.0 dropped custom routes, so the API cannot be served under /v1: the base URL has no version.
  'VER-PATH - error',
];

// What json-server 1.0 does right, and the audit must have checked and passed.
const RIGHT = [
  'MTH-READ widgets',
  'MTH-CHANGE orders', // PUT replaces, PATCH merges: 200, visible on the next GET
  'MTH-DELETE widgets', // DELETE: 200 with the item, then 404
  'RES-ITEM widgets', // string ids ("7f54") work like numbers
  'IDEM-GET orders',
  'IDEM-PUT widgets',
  'IDEM-DELETE orders',
  'ERR-NOT-FOUND widgets', // unknown ids and collections: 404 (in plain text, see ERR-BODY)
  'ERR-STATUS orders',
];

// No limit, and none expected by the config: the rule was never exercised, so it is not passed.
const UNJUDGED = ['LIM-429 -'];

describeRealServerAudit({
  kind: 'json-server-1',
  label: 'json-server 1.0',
  collections: ['widgets', 'orders'],
  deviations: DEVIATIONS,
  right: RIGHT,
  unjudged: UNJUDGED,
  setup: async (server) => ({ env: { JSON_SERVER_URL: server.origin } }),
});
