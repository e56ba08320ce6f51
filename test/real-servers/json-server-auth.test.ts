// The full audit of a real json-server-auth 2.1 (JWT guards on json-server 0.17): its real deviations only.
import { describeRealServerAudit } from './describe-audit.js';
import { registerUser } from './servers.js';

// Found by probing json-server-auth 2.1.0 with curl (see test/real-servers/README.md). widgets are
// guarded 640 (owner writes, logged-in users read), orders 660 (logged-in users read and write).
const DEVIATIONS = [
  // The guards parse the body before they look at the token: a malformed body without (or with an
  // invalid) token gets body-parser's 400, not 401. Authentication must be judged first.
  'AUTH-MISSING widgets error',
  'AUTH-MISSING orders error',
  'AUTH-INVALID widgets error',
  'AUTH-INVALID orders error',
  // That 400 is Express's default HTML error page.
  'GEN-JSON widgets error',
  'GEN-JSON orders error',
  'ERR-BODY widgets warning',
  'ERR-BODY orders warning',
  // Its own errors (401, 403) are bare JSON strings ("Missing authorization header"), json-server's
  // 404s are {}: two error shapes with nothing in common across the API.
  'ERR-BODY - warning',
  // Its 401s carry no WWW-Authenticate header (a warning), on every route.
  'AUTH-CHALLENGE widgets warning',
  'AUTH-CHALLENGE orders warning',
  'AUTH-CHALLENGE - warning',
  // The owner guard reads the item's userId before json-server looks the id up: PATCH or DELETE
  // of an id that was never issued throws, and the token check's catch answers 401, not 404.
  'ERR-NOT-FOUND widgets error',
  // orders (660) reach json-server, which stores an empty item from a text/plain body: 201.
  // widgets (640) refuse it with 403 (the empty body names no owner), which passes.
  'MTH-JSON-BODY orders error',
  // No validation behind the guards: any object (naming its owner, for widgets) is stored, 201.
  'ERR-MALFORMED widgets error',
  'ERR-MALFORMED orders error',
];

// What json-server-auth does right, and the audit must have checked and passed.
const RIGHT = [
  'AUTH-FORBIDDEN widgets', // user 2 may not create, replace, update or delete user 1's widgets: 403, no effect
  'GEN-STATELESS -', // JWTs, no session: a request without the token is refused on a used connection too
  'MTH-CREATE widgets', // 201, with a Location (/640/widgets/<id>, which leads to the item)
  'MTH-CHANGE widgets', // the owner's PUT (naming userId) and PATCH: 200, visible
  'MTH-DELETE widgets',
  'ERR-NOT-FOUND orders', // 660 only checks the token, so json-server answers 404 {}
  'IDEM-DELETE orders',
  'VER-PATH -',
  'VER-UNKNOWN -',
];

describeRealServerAudit({
  kind: 'json-server-auth',
  label: 'json-server-auth',
  collections: ['widgets', 'orders'],
  deviations: DEVIATIONS,
  right: RIGHT,
  prefix: '/v1',
  setup: async (server) => {
    // The first user gets id 1 and owns the seeded widgets and every widget the audit creates.
    const owner = await registerUser(server, 'owner@example.com', 'owner-pass');
    const other = await registerUser(server, 'other@example.com', 'other-pass');
    return {
      env: {
        JSON_SERVER_AUTH_URL: `${server.origin}/v1`,
        JSON_SERVER_AUTH_TOKEN: owner,
        JSON_SERVER_AUTH_LIMITED_TOKEN: other,
      },
      token: owner,
      secrets: [owner, other],
    };
  },
});
