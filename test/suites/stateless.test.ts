// CheckTester cases for GEN-STATELESS: servers that remember a connection or a cookie, or need a cookie.
import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { exampleEnv } from '../../src/cli/demo.js';
import type { Middleware } from '../../src/example-api/index.js';
import { auditFixture, CheckTester } from '../../src/testing/check-tester.js';
import { startExampleFixture, type FixtureServer } from '../../src/testing/fixture-server.js';
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

/** Runs a script against a server: its exit code and what it printed. */
async function runScript(file: string, server: FixtureServer): Promise<{ code: number; out: string }> {
  const env = { PATH: process.env.PATH, HOME: tmpdir(), BASE_URL: server.baseUrl, ...exampleEnv(server) };
  return promisify(execFile)('bash', [file], { env, timeout: 60_000 }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({
      code: typeof e.code === 'number' ? e.code : -1,
      out: `${e.stdout ?? ''}${e.stderr ?? ''}`,
    }),
  );
}

describe('the reproduction script of a stateless-requests failure', () => {
  const cases: Array<[string, () => { middleware: Middleware; secrets: () => string[] }]> = [
    ['the connection remembered', () => ({ middleware: remembersConnection(), secrets: () => [] })],
    [
      'a session cookie accepted',
      () => {
        const sessions = new Set<string>();
        return { middleware: sessionCookie(sessions), secrets: () => [...sessions] };
      },
    ],
    ['a cookie needed', () => ({ middleware: needsCookie, secrets: () => ['conformance-csrf-cookie'] })],
  ];
  it.each(cases)(
    'reproduces %s on that server, not on a correct one, printing no cookie value',
    async (_name, make) => {
      const { middleware, secrets } = make();
      const broken = await startExampleFixture({ middleware });
      const correct = await startExampleFixture();
      const dir = await mkdtemp(join(tmpdir(), 'conf-stateless-'));
      try {
        // The audit runs against the broken server, left open for the script.
        const { result } = await auditFixture([statelessRequests], {
          server: () => Promise.resolve({ ...broken, close: () => Promise.resolve() }),
        });
        const script = result.results[0].reproduce;
        expect(script).toBeDefined();
        const file = join(dir, 'repro.sh');
        await writeFile(file, script!);
        const [b, c] = [await runScript(file, broken), await runScript(file, correct)];
        expect({ code: b.code, last: b.out.trim().split('\n').pop() }).toEqual({
          code: 1,
          last: expect.stringMatching(/^reproduced: /),
        });
        expect({ code: c.code, last: c.out.trim().split('\n').pop() }).toEqual({
          code: 0,
          last: expect.stringMatching(/^not reproduced: /),
        });
        for (const secret of secrets()) {
          for (const text of [script!, b.out, c.out]) expect(text).not.toContain(secret);
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
        await Promise.all([broken.close(), correct.close()]);
      }
    },
  );
});
