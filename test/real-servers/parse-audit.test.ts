// The full audit of Parse Server 9 (required app headers, X-Parse-Session-Token from a login, objectId, no PATCH).
import { describe, it } from '@jest/globals';
import { startParse } from './harness/parse.js';
import { configPath } from './harness/service.js';
import { describeServiceAudit, onPostgres } from './describe-service-audit.js';

// Found by probing Parse Server by hand, then confirmed by this audit: parse/EXPECTED.md.
const DEVIATIONS = [
  // No session token: reads answer 404 {"code":101,"error":"Permission denied"}, writes 400 code 119.
  'AUTH-MISSING widgets error',
  // A garbage or altered session token: 400 {"code":209,"error":"Invalid session token"}.
  'AUTH-INVALID widgets error',
  // The reader (not in role admin) writing: 400 {"code":119,"error":"Permission denied"}, not 403.
  'AUTH-FORBIDDEN widgets error',
  // Every body is parsed as JSON: text/plain or no Content-Type is stored (201).
  'MTH-JSON-BODY widgets error',
  // PUT with an empty body answers 200.
  'ERR-MALFORMED widgets error',
  // An unknown class (GET /parse/classes/Widgetnonexistent…) is 400 code 119, not 404.
  'ERR-NOT-FOUND widgets error',
  // Found by the audit: a DELETE of an unknown id carrying a session token with its last character
  // changed gets no answer at all (the connection is closed before a response; 4 runs of 4), and at
  // times a GET of the collection with it too.
  'ERR-SERVER widgets error',
  // Found by the audit: GET /parse/ (the mount root) is Express's HTML 404 page.
  'GEN-JSON - error',
  // That HTML page; and an unparseable body's error has no "code", unlike every other error.
  'ERR-BODY - warning',
  // No /v<N> in the mount path /parse.
  'VER-PATH - error',
  // Found by the audit: the base URL's segment "parse" reads as a verb (it is the product's mount path).
  'RES-NOUN - error',
];

/**
 * On demand only (CONFORMANCE_PARSE_AUDIT=1): Parse closes the connection without an answer to
 * some requests carrying an altered session token, and which ones varies from run to run (a DELETE
 * of an unknown id in every run so far, at times a GET or a POST whose create then shows up as a
 * leftover), so the exact set of findings and leftovers is not stable enough for CI.
 */
const ON_DEMAND = process.env.CONFORMANCE_PARSE_AUDIT === '1';

if (!ON_DEMAND) {
  describe('Parse Server 9 under audit (parse/conformance.config.yaml)', () => {
    it.skip('runs with CONFORMANCE_PARSE_AUDIT=1 (its closed connections vary from run to run)', () =>
      undefined);
  });
}

if (ON_DEMAND)
  describeServiceAudit({
    name: 'parse',
    title: 'Parse Server 9 under audit (parse/conformance.config.yaml)',
    config: configPath('parse'),
    start: onPostgres(startParse),
    // LIM-*: the 100 requests/s limit makes a burst's outcome depend on timing; HOOK-*: no webhooks.
    skip: ['LIM-*', 'HOOK-*'],
    deviations: DEVIATIONS,
    // Every object the audit created is deleted: nothing is left.
  });
