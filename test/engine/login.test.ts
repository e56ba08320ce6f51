// auth.login / auth.limitedLogin: tokens from a JSON login and from OAuth 2 client credentials; a failed login stops the run (exit 2).
import { describe, expect, it } from '@jest/globals';
import { dirname, join } from 'node:path';
import type { Middleware } from '../../src/example-api/index.js';
import { runAudit } from '../../src/engine/run.js';
import { catalogue } from '../../suites/index.js';
import { startExampleFixture } from '../../src/testing/fixture-server.js';
import { schemeConfig } from '../../src/testing/scheme-config.js';
import { exampleEnv, writeExampleConfig } from '../../src/testing/example-config.js';
import { runCli } from '../../src/testing/cli-runner.js';
import { reporters } from '../../src/reporters/index.js';

const FULL = 'login-issued-full-token-4f1a';
const LIMITED = 'login-issued-limited-token-9b2c';
const CLIENT = Buffer.from('audit-client:client-secret-77').toString('base64');

/** A login endpoint (JSON) and an OAuth 2 token endpoint (form, Basic client authentication) on the example API. */
const logins: Middleware = (req, res, body) => {
  const path = (req.url ?? '').split('?')[0];
  const reply = (status: number, json: unknown): boolean => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(json));
    return true;
  };
  if (req.method === 'POST' && path === '/v1/auth-token/') {
    let sent: { username?: string; password?: string } = {};
    try {
      sent = JSON.parse(body.toString('utf8')) as typeof sent;
    } catch {
      return reply(400, { error: { code: 'bad_request', message: 'JSON expected' } });
    }
    if (sent.username === 'admin' && sent.password === 'admin-pass-31') return reply(200, { token: FULL });
    if (sent.username === 'reader' && sent.password === 'reader-pass-42')
      return reply(200, { token: LIMITED });
    return reply(400, {
      error: { code: 'bad_credentials', message: 'Unable to log in with provided credentials.' },
    });
  }
  if (req.method === 'POST' && path === '/v1/oauth/token') {
    const form = new URLSearchParams(body.toString('utf8'));
    if (req.headers.authorization !== `Basic ${CLIENT}`)
      return reply(401, { error: { code: 'invalid_client', message: 'client authentication failed' } });
    if (
      req.headers['content-type'] !== 'application/x-www-form-urlencoded' ||
      form.get('grant_type') !== 'client_credentials'
    )
      return reply(400, { error: { code: 'unsupported_grant_type', message: 'client_credentials only' } });
    return reply(200, { data: { access_token: FULL, token_type: 'Bearer' } });
  }
  return false;
};

const ENV = {
  API_PASSWORD: 'admin-pass-31',
  API_LIMITED_PASSWORD: 'reader-pass-42',
  CLIENT_SECRET: 'client-secret-77',
};
const JSON_LOGIN =
  '  login:\n    path: /auth-token/\n    json:\n      username: admin\n      password: ${API_PASSWORD}\n    token: /token\n' +
  '  limitedLogin:\n    path: /auth-token/\n    json:\n      username: reader\n      password: ${API_LIMITED_PASSWORD}\n    token: /token\n';
const OAUTH_LOGIN =
  '  login:\n    path: /oauth/token\n    form:\n      grant_type: client_credentials\n' +
  '    basic:\n      username: audit-client\n      password: ${CLIENT_SECRET}\n    token: /data/access_token\n' +
  '  limitedToken: ${CONFORMANCE_LIMITED_TOKEN}\n';

async function auditWithLogin(auth: string) {
  const server = await startExampleFixture({ tokens: { full: FULL, limited: LIMITED }, middleware: logins });
  const curls: string[] = [];
  try {
    const config = await schemeConfig(server, auth, '', ENV);
    const result = await runAudit(config, {
      catalogue: catalogue.filter((c) => !c.rules.some((r) => r.startsWith('LIM-'))),
      concurrency: 4,
      timeoutMs: 5000,
      onExchange: (x) => curls.push(x.evidence.curl),
    });
    return { result, curls };
  } finally {
    await server.close();
  }
}

describe('tokens obtained by a login', () => {
  for (const [name, auth] of [
    ['a JSON login endpoint (full and limited)', JSON_LOGIN],
    ['OAuth 2 client credentials (form body, Basic client authentication)', OAUTH_LOGIN],
  ] as const) {
    it(`${name}: the audit runs authenticated with zero failures; the tokens are in no report`, async () => {
      const { result, curls } = await auditWithLogin(auth);
      const bad = result.results.filter((r) => r.status === 'failed' || r.status === 'errored');
      expect(bad.map((r) => `${r.checkId} ${r.resource}: ${r.message}`)).toEqual([]);
      expect(
        result.results.filter((r) => r.checkId === 'missing-credentials-401').map((r) => r.status),
      ).toEqual(['passed', 'passed']);
      for (const reporter of Object.values(reporters)) {
        const text = reporter.render(result, { color: false, verbose: true });
        for (const secret of [FULL, LIMITED, 'client-secret-77', 'admin-pass-31', CLIENT])
          expect(text).not.toContain(secret);
      }
      const all = curls.join('\n');
      for (const secret of [FULL, LIMITED, 'client-secret-77', 'admin-pass-31', CLIENT])
        expect(all).not.toContain(secret);
      // Curl lines rebuild the token with the login request itself.
      expect(all).toMatch(/authorization: Bearer \$\(curl -s -X POST .*\| jq -r '\.\["(token|data)"\]/i);
    });
  }
});

describe('a login that fails stops the run with exit 2, naming the step', () => {
  async function cliRun(auth: string, env: NodeJS.ProcessEnv) {
    const server = await startExampleFixture({
      tokens: { full: FULL, limited: LIMITED },
      middleware: logins,
    });
    try {
      const file = await writeExampleConfig((text) =>
        text.replace(/^auth:\n(?: {2}.*\n)+/m, `auth:\n${auth}`),
      );
      return await runCli(
        [
          'run',
          '--config',
          file,
          '--base-url',
          server.baseUrl,
          '--out',
          join(dirname(file), 'r'),
          '--reporter',
          'json',
        ],
        {
          env: { ...exampleEnv(server), ...env },
        },
      );
    } finally {
      await server.close();
    }
  }

  it('a refused login: exit 2, auth.login and the answer named, the password never shown', async () => {
    const run = await cliRun(JSON_LOGIN, { ...ENV, API_PASSWORD: 'wrong-password-55' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/auth\.login: POST \/v1\/auth-token\/ answered 400.*Unable to log in/);
    expect(run.stdout + run.stderr).not.toContain('wrong-password-55');
  });

  it('a pointer that matches nothing: exit 2 naming the step and the pointer', async () => {
    const run = await cliRun(
      JSON_LOGIN.replace('token: /token\n  limitedLogin', 'token: /access_token\n  limitedLogin'),
      ENV,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /auth\.login: POST \/v1\/auth-token\/ answered 200, but the pointer \/access_token matches nothing in it \(it holds strings at \/token\)/,
    );
    expect(run.stdout + run.stderr).not.toContain(FULL);
  });

  it('the limited login failing names auth.limitedLogin', async () => {
    const run = await cliRun(JSON_LOGIN, { ...ENV, API_LIMITED_PASSWORD: 'nope-nope-66' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('auth.limitedLogin: POST /v1/auth-token/ answered 400');
  });
});
