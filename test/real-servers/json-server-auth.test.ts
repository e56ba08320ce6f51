// The full audit of a real json-server-auth 2.1 (JWT guards on json-server 0.17): its real deviations only.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RunResult } from '../../src/core/types.js';
import { readState, registerUser, startRealServer, type RealServer } from './servers.js';
import { auditRealServer } from './audit.js';
import {
  expectCleanAfterAudit,
  expectDeviations,
  expectEvidenceOnEveryFailure,
  expectPasses,
} from './expect.js';

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

/** The collections the config declares, read before and after the audit. */
const COLLECTIONS = ['widgets', 'orders'];

describe('json-server-auth under audit', () => {
  let server: RealServer;
  let seed: Awaited<ReturnType<typeof readState>>;
  let result: RunResult;
  const tokens: string[] = [];

  beforeAll(async () => {
    server = await startRealServer('json-server-auth');
    // The first user gets id 1 and owns the seeded widgets and every widget the audit creates.
    tokens.push(await registerUser(server, 'owner@example.com', 'owner-pass'));
    tokens.push(await registerUser(server, 'other@example.com', 'other-pass'));
    seed = await readState(server, COLLECTIONS, { prefix: '/v1', token: tokens[0] });
    result = await auditRealServer(server, {
      JSON_SERVER_AUTH_URL: `${server.origin}/v1`,
      JSON_SERVER_AUTH_TOKEN: tokens[0],
      JSON_SERVER_AUTH_LIMITED_TOKEN: tokens[1],
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('reports exactly the deviations json-server-auth has, under the right rules', () => {
    expectDeviations(result, DEVIATIONS);
  });

  it('passes what json-server-auth does right', () => {
    expectPasses(result, RIGHT);
  });

  it('proves every failure with evidence and a curl line, and never shows a token', () => {
    expectEvidenceOnEveryFailure(result);
    const report = JSON.stringify(result);
    for (const token of tokens) expect(report).not.toContain(token);
  });

  it('leaves the seeded records as they were and deletes what it created', async () => {
    const after = await readState(server, COLLECTIONS, { prefix: '/v1', token: tokens[0] });
    expectCleanAfterAudit(result, seed, after);
  });
});
