// CheckTester cases for GEN-STATELESS: servers that remember a connection or a cookie, or need a cookie.
import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Middleware } from '../../src/example-api/index.js';
import { auditFixture, CheckTester } from '../../src/testing/check-tester.js';
import { jsonReporter } from '../../src/reporters/json.js';
import statelessRequests from '../../suites/general/stateless-requests.js';
import { VALID_VARIANTS } from './valid-variants.js';
import { actAsFull, auth, FULL, noAuth } from './auth-fixtures.js';

const cookies = (req: Parameters<typeof auth>[0]): Map<string, string> =>
  new Map(
    (req.headers.cookie ?? '')
      .split(';')
      .map((c) => c.trim().split('='))
      .filter((kv) => kv.length === 2)
      .map(([k, v]) => [k, v] as [string, string]),
  );

/** Lets an unauthenticated request through on a socket that has carried the full token. */
function remembersConnection(): Middleware {
  const trusted = new WeakSet<Socket>();
  return (req, res, body) => {
    if (auth(req) === `Bearer ${FULL}`) trusted.add(req.socket);
    return actAsFull((r) => noAuth(r) && trusted.has(r.socket))(req, res, body);
  };
}

/** Sets a session cookie on authenticated answers and accepts it in place of the token. */
function sessionCookie(sessions: Set<string>): Middleware {
  return (req, res, body) => {
    const sid = cookies(req).get('session');
    if (noAuth(req) && sid && sessions.has(sid)) return actAsFull(() => true)(req, res, body);
    if (auth(req) === `Bearer ${FULL}`) {
      const fresh = randomBytes(16).toString('hex');
      sessions.add(fresh);
      res.setHeader('Set-Cookie', `session=${fresh}; Path=/; HttpOnly`);
    }
    return false;
  };
}

/** Authenticated GETs of the widgets collection need the cookie the first answer sets. */
const needsCookie: Middleware = (req, res) => {
  if (req.method !== 'GET' || req.url !== '/v1/widgets' || noAuth(req)) return false;
  if (cookies(req).get('csrf') === 'conformance-csrf-cookie') return false;
  res.writeHead(401, {
    'content-type': 'application/json',
    'www-authenticate': 'Bearer',
    'set-cookie': 'csrf=conformance-csrf-cookie; Path=/',
  });
  res.end(JSON.stringify({ error: 'session cookie missing' }));
  return true;
};

new CheckTester().run(statelessRequests, {
  valid: [
    ...VALID_VARIANTS,
    {
      name: 'a load-balancer affinity cookie, ignored for authentication',
      api: {
        middleware: (_req, res) => {
          res.setHeader('Set-Cookie', ['lb=node-7; Path=/', 'AWSALB=abcdefghijklmnop; Path=/']);
          return false;
        },
      },
    },
    {
      name: 'the server closes every connection',
      api: {
        middleware: (_req, res) => {
          res.setHeader('Connection', 'close');
          return false;
        },
      },
    },
  ],
  invalid: [
    {
      name: 'the server remembers the connection',
      api: { middleware: remembersConnection() },
      failures: [{ messageId: 'connectionRemembered' }],
    },
    {
      name: 'a session cookie accepted instead of the token',
      api: { middleware: sessionCookie(new Set()) },
      failures: [{ messageId: 'cookieAuthenticates' }],
    },
    {
      name: 'an authenticated request fails without a cookie',
      api: { middleware: needsCookie },
      failures: [{ messageId: 'cookieNeeded' }],
    },
  ],
});

describe('stateless-requests', () => {
  it('keeps the session cookie out of the report', async () => {
    const sessions = new Set<string>();
    const { result } = await auditFixture([statelessRequests], {
      api: { middleware: sessionCookie(sessions) },
    });
    expect(result.results[0].status).toBe('failed');
    const report = jsonReporter.render(result, { color: false });
    expect(sessions.size).toBeGreaterThan(0);
    for (const sid of sessions) expect(report).not.toContain(sid);
    expect(report).toContain('session=[redacted]');
  });

  it('skips, naming the right check, when the server serves everyone', async () => {
    const { result } = await auditFixture([statelessRequests], { api: { middleware: actAsFull(noAuth) } });
    expect(result.results[0].status).toBe('skipped');
    expect(result.results[0].message).toMatch(
      /without credentials even on a new connection with no cookies: missing-credentials-401 reports that/,
    );
  });
});
