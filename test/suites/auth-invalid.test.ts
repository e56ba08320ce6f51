// CheckTester cases for AUTH-INVALID, and proof that credentials derived from the token never reach a report.
import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { runAudit } from '../../src/engine/run.js';
import { startExampleFixture } from '../../src/testing/fixture-server.js';
import { exampleConfig } from '../../src/testing/example-config.js';
import { auditFixture, CheckTester, times } from '../../src/testing/check-tester.js';
import { jsonReporter } from '../../src/reporters/json.js';
import invalidCredentials401 from '../../suites/auth/invalid-credentials-401.js';
import { VALID_VARIANTS } from './valid-variants.js';
import { actAsFull, answer, auth, FULL, LIMITED } from './auth-fixtures.js';
import { altFixture } from '../../src/testing/alt-api/index.js';
import { countingViews } from './view-counter.js';

const basicUser = (header: string): string =>
  /^Basic /.test(header) ? Buffer.from(header.slice(6), 'base64').toString('utf8') : '';
/** Compares only the first n-1 characters of the token. */
const ignoresLastCharacter = actAsFull((req) => auth(req).startsWith(`Bearer ${FULL.slice(0, -1)}`));

new CheckTester().run(invalidCredentials401, {
  valid: [
    ...VALID_VARIANTS,
    // Reads around the writes move the counter: IDEM-GET's finding, no effect of the refused requests.
    { name: 'items count their reads in a "views" member', api: { middleware: countingViews() } },
    {
      name: 'a view counter that every read moves, on the alternative API',
      ...altFixture({ breaks: ['view-counter'] }),
    },
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
      failures: [...times(24, 'actedAnyway'), ...times(6, 'accepted'), ...times(12, 'wrongRefusal')],
    },
    {
      name: 'a garbage Bearer token changes an item, and every read moves a view counter',
      resource: 'widgets',
      api: {
        middleware: countingViews(
          actAsFull(
            (req) => auth(req) === 'Bearer conformance-not-a-real-token-0000' && req.method === 'PATCH',
          ),
        ),
      },
      failures: [{ messageId: 'actedAnyway' }, { messageId: 'wrongRefusal' }, { messageId: 'wrongRefusal' }],
    },
    {
      name: 'an expired JWT accepted (expiry not checked)',
      api: { middleware: actAsFull((req) => /^Bearer [\w-]+\.[\w-]+\.[\w-]+$/.test(auth(req))) },
      failures: [
        ...times(8, 'actedAnyway'),
        { messageId: 'accepted' },
        { messageId: 'accepted' },
        ...times(4, 'wrongRefusal'),
      ],
    },
    {
      name: 'an empty Bearer accepted',
      api: { middleware: actAsFull((req) => auth(req).trim() === 'Bearer') },
      failures: [
        ...times(8, 'actedAnyway'),
        { messageId: 'accepted' },
        { messageId: 'accepted' },
        ...times(4, 'wrongRefusal'),
      ],
    },
    {
      name: 'the token accepted under the Basic scheme',
      api: { middleware: actAsFull((req) => auth(req) === `Basic ${FULL}`) },
      failures: [
        ...times(8, 'actedAnyway'),
        { messageId: 'accepted' },
        { messageId: 'accepted' },
        ...times(4, 'wrongRefusal'),
      ],
    },
    {
      name: 'HTTP Basic with the token as user name accepted',
      api: { middleware: actAsFull((req) => basicUser(auth(req)).startsWith(`${FULL}:`)) },
      failures: [
        ...times(8, 'actedAnyway'),
        { messageId: 'accepted' },
        { messageId: 'accepted' },
        ...times(4, 'wrongRefusal'),
      ],
    },
    {
      name: 'the token accepted under the Token scheme',
      api: { middleware: actAsFull((req) => auth(req) === `Token ${FULL}`) },
      failures: [
        ...times(8, 'actedAnyway'),
        { messageId: 'accepted' },
        { messageId: 'accepted' },
        ...times(4, 'wrongRefusal'),
      ],
    },
    {
      name: "the token's last character ignored",
      api: { middleware: ignoresLastCharacter },
      failures: [
        ...times(8, 'actedAnyway'),
        { messageId: 'accepted' },
        { messageId: 'accepted' },
        ...times(4, 'wrongRefusal'),
      ],
    },
    {
      name: '403 for an invalid token',
      api: {
        middleware: answer(
          403,
          (req) => /^Bearer \S/.test(auth(req)) && ![FULL, LIMITED].includes(auth(req).slice(7)),
        ),
      },
      failures: [...times(6, 'wrongRefusal')],
    },
  ],
});

describe('invalid-credentials-401 under --read-only', () => {
  it('sends writes only with credentials that hold no working token, and only ones no server can act on', async () => {
    const seen: Array<{ method: string; auth: string; body: string }> = [];
    const { result, before, after } = await auditFixture([invalidCredentials401], {
      api: {
        middleware: (req, _res, body) => {
          seen.push({ method: req.method ?? '', auth: auth(req), body: body.toString('utf8') });
          return false;
        },
      },
      run: { readOnly: true },
    });
    expect(result.results.map((r) => r.status)).toEqual(['passed', 'passed']);
    const writes = seen.filter((s) => s.method !== 'GET');
    expect(writes.length).toBeGreaterThan(10);
    for (const w of writes) {
      expect(w.auth).not.toContain(FULL);
      expect(w.body === '' || w.body === '{"conformance": ').toBe(true);
    }
    // The wrong schemes around the real token still go out, on reads.
    expect(seen.some((s) => s.method === 'GET' && s.auth === `Token ${FULL}`)).toBe(true);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });
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

  it('reproduces with the curl line: the shell rebuilds the altered token from $CONFORMANCE_TOKEN', async () => {
    const server = await startExampleFixture({ middleware: ignoresLastCharacter });
    try {
      const result = await runAudit(await exampleConfig(server), {
        catalogue: [invalidCredentials401],
        timeoutMs: 5000,
      });
      const curl = result.results
        .flatMap((r) => r.evidence)
        .find((e) => e.request.method === 'POST' && e.curl.includes('${CONFORMANCE_TOKEN%?}x'))!.curl;
      const { stdout } = await promisify(execFile)('bash', ['-c', curl], {
        env: { PATH: process.env.PATH, CONFORMANCE_TOKEN: FULL },
      });
      expect(stdout.split('\r\n')[0]).toBe('HTTP/1.1 201 Created');
    } finally {
      await server.close();
    }
  });
});
