// CheckTester cases for AUTH-INVALID, and proof that credentials derived from the token never reach a report.
import { describe, expect, it } from '@jest/globals';
import { auditFixture, CheckTester } from '../../src/testing/check-tester.js';
import { jsonReporter } from '../../src/reporters/json.js';
import invalidCredentials401 from '../../suites/auth/invalid-credentials-401.js';
import { VALID_VARIANTS } from './valid-variants.js';
import { actAsFull, answer, auth, FULL, LIMITED } from './auth-fixtures.js';

const basicUser = (header: string): string =>
  /^Basic /.test(header) ? Buffer.from(header.slice(6), 'base64').toString('utf8') : '';
/** Compares only the first n-1 characters of the token. */
const ignoresLastCharacter = actAsFull((req) => auth(req).startsWith(`Bearer ${FULL.slice(0, -1)}`));

new CheckTester().run(invalidCredentials401, {
  valid: [
    ...VALID_VARIANTS,
    {
      name: '401 with the error in a different JSON shape',
      api: {
        middleware: (req, res) => {
          const header = auth(req);
          if (header === `Bearer ${FULL}` || header === `Bearer ${LIMITED}`) return false;
          res.writeHead(401, {
            'content-type': 'application/json',
            'www-authenticate': 'Bearer error="invalid_token"',
          });
          res.end(JSON.stringify({ message: 'nope', errors: [{ reason: 'token' }] }));
          return true;
        },
      },
    },
  ],
  invalid: [
    {
      name: 'any Bearer token accepted',
      api: { middleware: actAsFull((req) => /^Bearer\s+\S/.test(auth(req))) },
      message:
        /CRITICAL: POST \/v1\/widgets with a garbage Bearer token answered 201, and it acted: it created/,
    },
    {
      name: 'an expired JWT accepted (expiry not checked)',
      api: { middleware: actAsFull((req) => /^Bearer [\w-]+\.[\w-]+\.[\w-]+$/.test(auth(req))) },
      message: 'with an expired-looking JWT answered 201, and it acted',
    },
    {
      name: 'an empty Bearer accepted',
      api: { middleware: actAsFull((req) => auth(req).trim() === 'Bearer') },
      message: 'with an empty Bearer credential answered',
    },
    {
      name: 'the token accepted under the Basic scheme',
      api: { middleware: actAsFull((req) => auth(req) === `Basic ${FULL}`) },
      message: 'with the token under the Basic scheme answered',
    },
    {
      name: 'HTTP Basic with the token as user name accepted',
      api: { middleware: actAsFull((req) => basicUser(auth(req)).startsWith(`${FULL}:`)) },
      message: 'with HTTP Basic credentials holding the token as user name answered',
    },
    {
      name: 'the token accepted under the Token scheme',
      api: { middleware: actAsFull((req) => auth(req) === `Token ${FULL}`) },
      message: 'with the token under the Token scheme answered',
    },
    {
      name: "the token's last character ignored",
      api: { middleware: ignoresLastCharacter },
      message: 'with the valid token with its last character changed answered',
    },
    {
      name: '403 for an invalid token',
      api: {
        middleware: answer(
          403,
          (req) => /^Bearer \S/.test(auth(req)) && ![FULL, LIMITED].includes(auth(req).slice(7)),
        ),
      },
      message: /requests with a garbage Bearer token answered 403 instead of 401 \(403 says/,
    },
  ],
});

describe('invalid-credentials-401 and secrets', () => {
  it('never shows the token or a credential derived from it; curl lines rebuild them from the variable', async () => {
    const { result } = await auditFixture([invalidCredentials401], {
      api: {
        middleware: (req, res, body) =>
          ignoresLastCharacter(req, res, body) ||
          actAsFull((r) => basicUser(auth(r)).startsWith(`${FULL}:`) || auth(r) === `Basic ${FULL}`)(
            req,
            res,
            body,
          ),
      },
    });
    const failed = result.results.filter((r) => r.status === 'failed');
    expect(failed.length).toBe(2);
    const report = jsonReporter.render(result, { color: false });
    const altered = FULL.slice(0, -1) + 'x';
    const basic = Buffer.from(`${FULL}:`).toString('base64');
    for (const secret of [FULL, LIMITED, altered, basic]) expect(report).not.toContain(secret);
    const curls = failed.flatMap((r) => r.evidence.map((e) => e.curl));
    expect(curls.some((c) => c.includes('"authorization: Bearer ${CONFORMANCE_TOKEN%?}x"'))).toBe(true);
    expect(
      curls.some((c) =>
        c.includes(`"authorization: Basic $(printf '%s:' "\${CONFORMANCE_TOKEN}" | base64 | tr -d '\\n')"`),
      ),
    ).toBe(true);
    expect(curls.some((c) => c.includes('"authorization: Basic ${CONFORMANCE_TOKEN}"'))).toBe(true);
    for (const curl of curls) for (const secret of [FULL, altered, basic]) expect(curl).not.toContain(secret);
  });
});
