// Auth schemes beside Bearer (a prefix, an API-key header, a query parameter, a cookie, HTTP Basic): full audits and broken variants.
import { describe, expect, it } from '@jest/globals';
import type { AuditConfig, CredentialPlacement, RunResult } from '../../src/core/types.js';
import type { AuthScheme } from '../../src/example-api/auth.js';
import type { ExampleApiOptions, Middleware } from '../../src/example-api/index.js';
import { runAudit } from '../../src/engine/run.js';
import { catalogue } from '../../suites/index.js';
import { startExampleFixture } from '../../src/testing/fixture-server.js';
import { schemeConfig } from '../../src/testing/scheme-config.js';
import { auditFixture, CheckTester, times } from '../../src/testing/check-tester.js';
import { ExchangeLog, reporters } from '../../src/reporters/index.js';
import missing401 from '../../suites/auth/missing-credentials-401.js';
import invalid401 from '../../suites/auth/invalid-credentials-401.js';
import forbidden403 from '../../suites/auth/forbidden-403.js';
import challenge from '../../suites/auth/bearer-challenge.js';

const FULL = 'scheme-full-token-1234';
const LIMITED = 'scheme-limited-token-5678';
const BASIC_FULL = 'admin:full-pass-1234';
const BASIC_LIMITED = 'reader:limited-pass-5678';

interface Scheme {
  name: string;
  api: AuthScheme;
  /** The `auth:` section of the config (YAML, two spaces in). */
  yaml: string;
  env: NodeJS.ProcessEnv;
  /** The config's placement, for CheckTester cases that adjust a loaded config. */
  placement: CredentialPlacement;
  /** True when 401s carry a challenge the config's scheme names. */
  challenged: boolean;
  tokens: { full: string; limited: string };
}

const b64 = (text: string): string => Buffer.from(text).toString('base64');

const TOKEN_ENV = { API_TOKEN: FULL, API_LIMITED_TOKEN: LIMITED };
const TOKEN_YAML = '  token: ${API_TOKEN}\n  limitedToken: ${API_LIMITED_TOKEN}\n';

/**
 * A scheme that carries the token pair (API_TOKEN, API_LIMITED_TOKEN) where `api` places it: the
 * config places it there too (`yaml`: its placement line under `auth:`).
 */
function tokenScheme(scheme: {
  name: string;
  api: Exclude<AuthScheme, { in: 'basic' }>;
  yaml: string;
  challenged: boolean;
}): Scheme {
  return {
    ...scheme,
    yaml: `${TOKEN_YAML}  ${scheme.yaml}\n`,
    env: TOKEN_ENV,
    placement: { ...scheme.api },
    tokens: { full: FULL, limited: LIMITED },
  };
}

const SCHEMES: Scheme[] = [
  tokenScheme({
    name: 'Authorization: Token <t>',
    api: { in: 'header', name: 'Authorization', prefix: 'Token' },
    yaml: 'prefix: Token',
    challenged: true,
  }),
  tokenScheme({
    name: 'X-API-Key: <t>',
    api: { in: 'header', name: 'X-API-Key', prefix: '' },
    yaml: 'header: X-API-Key',
    challenged: false,
  }),
  tokenScheme({
    name: 'a query parameter api_key',
    api: { in: 'query', name: 'api_key' },
    yaml: 'query: api_key',
    challenged: false,
  }),
  tokenScheme({
    name: 'a cookie session',
    api: { in: 'cookie', name: 'session' },
    yaml: 'cookie: session',
    challenged: false,
  }),
  {
    name: 'HTTP Basic',
    api: { in: 'basic' },
    yaml:
      '  basic:\n    username: admin\n    password: ${API_PASSWORD}\n' +
      '  limitedBasic:\n    username: reader\n    password: ${API_LIMITED_PASSWORD}\n',
    env: { API_PASSWORD: 'full-pass-1234', API_LIMITED_PASSWORD: 'limited-pass-5678' },
    placement: { in: 'header', name: 'authorization', prefix: 'Basic', basic: true },
    challenged: true,
    tokens: { full: BASIC_FULL, limited: BASIC_LIMITED },
  },
];

const [TOKEN, APIKEY, QUERY, COOKIE, BASIC] = SCHEMES;

/**
 * The example API under a scheme (plus other options), audited with the full catalogue from a YAML
 * config; with `reports`, also rendered in every report format (verbose, HAR included: no byte of
 * any may hold a secret). Tests that read only the results leave the rendering out.
 */
async function auditScheme(
  scheme: Scheme,
  api: ExampleApiOptions = {},
  { reports: render = false }: { reports?: boolean } = {},
): Promise<{ result: RunResult; config: AuditConfig; reports: Record<string, string>; curls: string[] }> {
  const exchanges = new ExchangeLog();
  const curls: string[] = [];
  const server = await startExampleFixture({ ...api, authScheme: scheme.api, tokens: scheme.tokens });
  try {
    const config = await schemeConfig(server, scheme.yaml, '', scheme.env);
    const result = await runAudit(config, {
      catalogue: catalogue.filter((c) => !c.rules.some((r) => r.startsWith('LIM-'))),
      concurrency: 4,
      timeoutMs: 5000,
      onExchange: (x) => {
        if (render) exchanges.add(x);
        curls.push(x.evidence.curl);
      },
    });
    const reports = render
      ? Object.fromEntries(
          Object.values(reporters).map((r) => [
            r.name,
            r.render(result, { color: false, verbose: true, exchanges }),
          ]),
        )
      : {};
    return { result, config, reports, curls };
  } finally {
    await server.close();
  }
}

type SchemeAudit = Awaited<ReturnType<typeof auditScheme>>;
const plainAudits = new Map<Scheme, Promise<SchemeAudit>>();

/** The audit of the plain example API under `scheme`, run once for every test of this file that reads it. */
function auditedOnce(scheme: Scheme): Promise<SchemeAudit> {
  let audit = plainAudits.get(scheme);
  if (!audit) plainAudits.set(scheme, (audit = auditScheme(scheme, {}, { reports: true })));
  return audit;
}

const failedRules = (result: RunResult): string[] => [
  ...new Set(
    result.results.filter((r) => r.status === 'failed' || r.status === 'errored').flatMap((r) => r.rules),
  ),
];

/** The secrets of a scheme: every spelling the audit sent must stay out of every report. */
function secretsOf(scheme: Scheme): string[] {
  if (scheme.api.in === 'basic')
    return ['full-pass-1234', 'limited-pass-5678', b64(BASIC_FULL), b64(BASIC_LIMITED)];
  return [FULL, LIMITED];
}

describe('a correct API under each auth scheme: the full audit', () => {
  for (const scheme of SCHEMES) {
    it(`${scheme.name}: zero failures, the auth rules judged, no secret in any report`, async () => {
      const { result, reports } = await auditedOnce(scheme);
      const bad = result.results.filter((r) => r.status === 'failed' || r.status === 'errored');
      expect(bad.map((r) => `${r.checkId} ${r.resource}: ${r.message}`)).toEqual([]);
      for (const id of ['missing-credentials-401', 'invalid-credentials-401', 'forbidden-403']) {
        const mine = result.results.filter((r) => r.checkId === id);
        expect(mine.map((r) => `${r.resource}: ${r.status}`)).toEqual(
          mine.map((r) => `${r.resource}: passed`),
        );
      }
      const challenges = result.results.filter((r) => r.checkId === 'bearer-challenge');
      for (const r of challenges) {
        if (scheme.challenged) expect(r.status).toBe('passed');
        else {
          expect(r.status).toBe('skipped');
          expect(r.message).toMatch(/^no challenge convention for /);
        }
      }
      // Every format was rendered (the audits below, which read only results, render none).
      expect(Object.keys(reports).sort()).toEqual(
        Object.values(reporters)
          .map((r) => r.name)
          .sort(),
      );
      for (const [name, text] of Object.entries(reports))
        for (const secret of secretsOf(scheme))
          expect({ name, leaks: text.includes(secret) }).toEqual({ name, leaks: false });
    });
  }

  it('curl lines rebuild the credential from its variables', async () => {
    const curls = async (scheme: Scheme): Promise<string> => {
      // The audits the tests above made: the curl lines are what those runs sent.
      const { curls } = await auditedOnce(scheme);
      return curls.join('\n');
    };
    const query = await curls(QUERY);
    expect(query).toContain('api_key=${API_TOKEN}');
    expect(query).toContain('${API_TOKEN%?}x');
    const basic = await curls(BASIC);
    expect(basic).toContain(`$(printf '%s:%s' "admin" "\${API_PASSWORD}" | base64 | tr -d '\\n')`);
  });
});

describe('broken variants fail exactly the rule they break', () => {
  it('an API-key server answering 403 to a missing key fails AUTH-MISSING only', async () => {
    const refuse: Middleware = (req, res) => {
      if (req.headers['x-api-key'] !== undefined) return false;
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'forbidden', message: 'no key' } }));
      return true;
    };
    const { result } = await auditScheme(APIKEY, { middleware: refuse });
    expect(failedRules(result)).toEqual(['AUTH-MISSING']);
    const failure = result.results.find((r) => r.status === 'failed');
    expect(failure?.message).toMatch(/without credentials answered 403 instead of 401/);
  });

  it('a Basic server answering 401 with a Bearer challenge fails AUTH-CHALLENGE only', async () => {
    const bearerChallenge: Middleware = (req, res) => {
      const writeHead = res.writeHead.bind(res) as (s: number, h?: Record<string, string>) => unknown;
      (res as { writeHead: unknown }).writeHead = (status: number, headers: Record<string, string> = {}) =>
        writeHead(status, status === 401 ? { ...headers, 'WWW-Authenticate': 'Bearer realm="x"' } : headers);
      return false;
    };
    const { result } = await auditScheme(BASIC, { middleware: bearerChallenge });
    expect(failedRules(result)).toEqual(['AUTH-CHALLENGE']);
    const failure = result.results.find((r) => r.status === 'failed');
    expect(failure?.message).toMatch(/names no Basic challenge/);
  });
});

describe('messages name the scheme once', () => {
  it('the Token scheme accepting the token under Bearer: "the token under the Bearer scheme", not "the Token token"', async () => {
    const accepts = acceptAs(TOKEN, (req) => header(req, 'authorization') === `Bearer ${FULL}`);
    const { result } = await auditFixture([invalid401], fixture(TOKEN, { middleware: accepts }));
    const messages = result.results.flatMap((r) => r.problems ?? []);
    expect(messages.some((m) => m.includes('with the token under the Bearer scheme in Authorization'))).toBe(
      true,
    );
    expect(messages.filter((m) => /Token token/.test(m))).toEqual([]);
  });
});

/** CheckTester's config hook: the loaded example config with the scheme's credentials and placement. */
function placed(scheme: Scheme): (config: AuditConfig) => AuditConfig {
  const token = scheme.api.in === 'basic' ? b64(scheme.tokens.full) : scheme.tokens.full;
  const limited = scheme.api.in === 'basic' ? b64(scheme.tokens.limited) : scheme.tokens.limited;
  return (config) => ({
    ...config,
    auth: { ...config.auth, token, limitedToken: limited, placement: scheme.placement },
    secrets: [...config.secrets, { value: token }, { value: limited }],
  });
}

const header = (req: { headers: Record<string, string | string[] | undefined> }, name: string): string => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : (v ?? '');
};

/** Lets a request through as if it carried the full credential of the scheme. */
function acceptAs(scheme: Scheme, when: (req: Parameters<Middleware>[0]) => boolean): Middleware {
  return (req) => {
    if (!when(req)) return false;
    if (scheme.api.in === 'header')
      req.headers[scheme.api.name.toLowerCase()] = scheme.api.prefix ? `${scheme.api.prefix} ${FULL}` : FULL;
    if (scheme.api.in === 'query') req.url = `${(req.url ?? '/').split('?')[0]}?api_key=${FULL}`;
    if (scheme.api.in === 'cookie') req.headers.cookie = `session=${FULL}`;
    return false;
  };
}

const fixture = (scheme: Scheme, api: ExampleApiOptions = {}) => ({
  api: { ...api, authScheme: scheme.api, tokens: scheme.tokens },
  config: placed(scheme),
});

new CheckTester().run(missing401, {
  valid: SCHEMES.map((s) => ({ name: s.name, ...fixture(s) })),
  invalid: [
    {
      name: 'an API-key server answering 403 to a missing key',
      ...fixture(APIKEY, {
        middleware: (req, res) => {
          if (header(req, 'x-api-key') !== '') return false;
          res.writeHead(403, { 'content-type': 'application/json' });
          res.end('{"error":{"code":"forbidden","message":"no key"}}');
          return true;
        },
      }),
      failures: [{ messageId: 'wrongRefusal' }, { messageId: 'wrongRefusal' }],
    },
    {
      name: 'a cookie server that serves reads without the cookie',
      ...fixture(COOKIE, {
        middleware: acceptAs(COOKIE, (req) => req.method === 'GET' && !header(req, 'cookie')),
      }),
      failures: [
        { messageId: 'accepted' },
        { messageId: 'accepted' },
        { messageId: 'wrongRefusal' },
        { messageId: 'wrongRefusal' },
      ],
    },
  ],
});

new CheckTester().run(invalid401, {
  valid: SCHEMES.map((s) => ({ name: s.name, ...fixture(s) })),
  invalid: [
    {
      name: 'any X-API-Key accepted',
      ...fixture(APIKEY, { middleware: acceptAs(APIKEY, (req) => header(req, 'x-api-key') !== '') }),
      failures: [...times(32, 'actedAnyway'), ...times(8, 'accepted'), ...times(16, 'wrongRefusal')],
    },
    {
      name: 'a query key compared without its last character',
      ...fixture(QUERY, {
        middleware: acceptAs(QUERY, (req) => (req.url ?? '').includes(`api_key=${FULL.slice(0, -1)}`)),
      }),
      failures: [
        ...times(8, 'actedAnyway'),
        { messageId: 'accepted' },
        { messageId: 'accepted' },
        ...times(4, 'wrongRefusal'),
      ],
    },
    {
      name: 'the Token scheme accepting the token under Bearer',
      ...fixture(TOKEN, {
        middleware: acceptAs(TOKEN, (req) => header(req, 'authorization') === `Bearer ${FULL}`),
      }),
      failures: [
        ...times(8, 'actedAnyway'),
        { messageId: 'accepted' },
        { messageId: 'accepted' },
        ...times(4, 'wrongRefusal'),
      ],
    },
    {
      name: 'a Basic server that checks only the user name',
      ...fixture(BASIC, {
        middleware: (req) => {
          const v = header(req, 'authorization');
          if (/^Basic /.test(v) && Buffer.from(v.slice(6), 'base64').toString().startsWith('admin:'))
            req.headers.authorization = `Basic ${b64(BASIC_FULL)}`;
          return false;
        },
      }),
      failures: [...times(16, 'actedAnyway'), ...times(4, 'accepted'), ...times(8, 'wrongRefusal')],
    },
  ],
});

new CheckTester().run(forbidden403, {
  valid: SCHEMES.map((s) => ({ name: s.name, ...fixture(s) })),
  invalid: [],
});

// An observer: the missing-credentials check makes the 401s it judges (as in auth-challenge.test.ts);
// the other active checks would only add more of the same 401s, at several times the audit's work.
new CheckTester({ with: [missing401] }).run(challenge, {
  valid: [TOKEN, BASIC].map((s) => ({ name: s.name, ...fixture(s) })),
  invalid: [
    {
      name: 'a Basic server answering 401 with a Bearer challenge',
      ...fixture(BASIC, {
        middleware: (_req, res) => {
          const writeHead = res.writeHead.bind(res) as (s: number, h?: Record<string, string>) => unknown;
          (res as { writeHead: unknown }).writeHead = (
            status: number,
            headers: Record<string, string> = {},
          ) => writeHead(status, status === 401 ? { ...headers, 'WWW-Authenticate': 'Bearer' } : headers);
          return false;
        },
      }),
      failures: [...times(20, 'wrongScheme')],
    },
  ],
  skipped: [APIKEY, QUERY, COOKIE].map((s) => ({
    name: s.name,
    ...fixture(s),
    message:
      /^no challenge convention for (an API key in X-API-Key|an API key in the query parameter api_key|a credential in the cookie session)/,
  })),
});
