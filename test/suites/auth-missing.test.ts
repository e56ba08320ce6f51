// CheckTester cases for AUTH-MISSING, plus what a broken server's audit must leave behind (nothing) and send (nothing risky).
import { describe, expect, it } from '@jest/globals';
import type { Middleware } from '../../src/example-api/index.js';
import { auditFixture, CheckTester, times } from '../../src/testing/check-tester.js';
import missingCredentials401 from '../../suites/auth/missing-credentials-401.js';
import { VALID_VARIANTS } from './valid-variants.js';
import { altFixture } from '../../src/testing/alt-api/index.js';
import { actAsFull, answer, FULL, isItem, isJson, isWrite, noAuth, stampEnvelopes } from './auth-fixtures.js';
import { countingViews } from './view-counter.js';

/** Judges existence before authentication: an unknown item answers 404 even without credentials. */
const existenceFirst: Middleware = async (req, res) => {
  if (!noAuth(req) || !isItem(req)) return false;
  const probe = await fetch(`http://${req.headers.host}${req.url}`, {
    headers: { authorization: `Bearer ${FULL}` },
  });
  await probe.arrayBuffer();
  if (probe.status !== 404) return false;
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: 'not found' }));
  return true;
};

new CheckTester().run(missingCredentials401, {
  valid: [
    ...VALID_VARIANTS,
    {
      // Found by the alternative API: a view counter that every read moves is IDEM-GET's finding.
      name: 'a view counter that every read moves (not taken for an effect of the refused requests)',
      ...altFixture({ breaks: ['view-counter'] }),
    },
    { name: 'items count their reads in a "views" member', api: { middleware: countingViews() } },
    {
      name: 'envelopes carrying a request id that differs on every answer',
      api: { variant: { itemStyle: 'envelope-data' }, middleware: stampEnvelopes },
    },
    {
      name: '401 with a bare JSON string as body',
      api: {
        middleware: (req, res) => {
          if (!noAuth(req)) return false;
          res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
          res.end('"unauthorized"');
          return true;
        },
      },
    },
    {
      name: 'a resource the audit cannot create in (list and read only)',
      config: (c) => ({
        ...c,
        resources: c.resources.map((r) => ({ ...r, operations: ['list' as const, 'read' as const] })),
      }),
    },
  ],
  invalid: [
    {
      name: '403 instead of 401',
      api: { middleware: answer(403, noAuth) },
      failures: [{ messageId: 'wrongRefusal' }, { messageId: 'wrongRefusal' }],
    },
    {
      name: '404 for an unknown id without credentials (existence judged first)',
      api: { middleware: existenceFirst },
      failures: [{ messageId: 'wrongRefusal' }, { messageId: 'wrongRefusal' }],
    },
    {
      name: '400 for malformed JSON without credentials (validation judged first)',
      api: {
        middleware: answer(
          400,
          (req, body) => noAuth(req) && isWrite(req) && body.length > 0 && !isJson(body),
        ),
      },
      failures: [{ messageId: 'wrongRefusal' }, { messageId: 'wrongRefusal' }],
    },
    {
      name: 'everything served without credentials',
      api: { middleware: actAsFull(noAuth) },
      failures: [
        ...times(8, 'actedAnyway'),
        { messageId: 'accepted' },
        { messageId: 'accepted' },
        ...times(4, 'wrongRefusal'),
      ],
    },
    {
      name: 'PUT acts without credentials, and every read moves a view counter',
      resource: 'widgets',
      api: { middleware: countingViews(actAsFull((req) => noAuth(req) && req.method === 'PUT')) },
      failures: [{ messageId: 'actedAnyway' }, { messageId: 'wrongRefusal' }, { messageId: 'wrongRefusal' }],
    },
    {
      name: 'DELETE acts without credentials',
      api: { middleware: actAsFull((req) => noAuth(req) && req.method === 'DELETE') },
      failures: [
        { messageId: 'actedAnyway' },
        { messageId: 'actedAnyway' },
        { messageId: 'wrongRefusal' },
        { messageId: 'wrongRefusal' },
      ],
    },
    {
      name: 'reads served without credentials, on a resource the audit cannot create in (an existing item is read)',
      api: { middleware: actAsFull((req) => noAuth(req) && req.method === 'GET') },
      config: (c) => ({
        ...c,
        resources: c.resources.map((r) => ({ ...r, operations: ['list' as const, 'read' as const] })),
      }),
      resource: 'widgets',
      failures: [{ messageId: 'accepted' }, { messageId: 'wrongRefusal' }],
    },
    {
      name: 'reads served without credentials',
      api: { middleware: actAsFull((req) => noAuth(req) && req.method === 'GET') },
      failures: [
        { messageId: 'accepted' },
        { messageId: 'accepted' },
        { messageId: 'wrongRefusal' },
        { messageId: 'wrongRefusal' },
      ],
    },
  ],
});

describe('missing-credentials-401 on a server that acts without credentials', () => {
  it('names every effect, cleans up what the requests created and never touches pre-existing records', async () => {
    const { result, before, after } = await auditFixture([missingCredentials401], {
      api: { middleware: actAsFull(noAuth) },
    });
    const widgets = result.results.find((r) => r.resource === 'widgets')!;
    expect(widgets.status).toBe('failed');
    expect(widgets.message).toContain('it created /v1/widgets/');
    expect(widgets.message).toMatch(
      /PUT \/v1\/widgets\/\d+ without credentials answered 200, and it acted: the item changed: \/name: "bolt" → "nut"/,
    );
    expect(widgets.message).toContain('the item is gone');
    // The proof of an effect is in the evidence: the state read with the full token.
    expect(
      widgets.evidence.some(
        (e) => e.request.method === 'GET' && e.request.headers.authorization === 'Bearer [redacted]',
      ),
    ).toBe(true);
    expect(result.cleanup.leftovers).toEqual([]);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });

  it('proves an upsert on an unknown id and has cleanup delete what it created', async () => {
    // Ids of 2e9 and above (the audit's never-issued ids) live here: PUT without credentials creates one.
    const upserted = new Map<string, unknown>();
    const deleted: string[] = [];
    const upserts: Middleware = (req, res, body) => {
      const id = /^\/v1\/widgets\/(\d{10,})$/.exec(req.url ?? '')?.[1];
      if (id === undefined) return false;
      const reply = (status: number, item?: unknown): true => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(item === undefined ? undefined : JSON.stringify(item));
        return true;
      };
      if (req.method === 'PUT' && noAuth(req) && isJson(body)) {
        upserted.set(id, { id: Number(id), ...JSON.parse(body.toString('utf8')) });
        return reply(201, upserted.get(id));
      }
      if (req.method === 'GET' && upserted.has(id)) return reply(200, upserted.get(id));
      if (req.method === 'DELETE' && !noAuth(req) && upserted.delete(id)) {
        deleted.push(id);
        return reply(204);
      }
      return false;
    };
    const { result } = await auditFixture([missingCredentials401], { api: { middleware: upserts } });
    const widgets = result.results.find((r) => r.resource === 'widgets')!;
    expect(widgets.message).toMatch(
      /CRITICAL: PUT \/v1\/widgets\/(\d+) \[unknown id\] without credentials answered 201, and it acted: it created \/v1\/widgets\/\1 \(readable with the full token\)/,
    );
    expect(deleted.length).toBe(1);
    expect(upserted.size).toBe(0);
    expect(result.cleanup.leftovers).toEqual([]);
  });

  it('under --read-only sends only reads, malformed bodies and DELETEs of unknown ids, and changes nothing', async () => {
    const seen: Array<{ method: string; url: string; auth: boolean; json: boolean; body: string }> = [];
    const record: Middleware = (req, _res, body) => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        auth: !noAuth(req),
        json: body.length > 0 && isJson(body),
        body: body.toString('utf8'),
      });
      return false;
    };
    const { result, before, after } = await auditFixture([missingCredentials401], {
      api: {
        middleware: async (req, res, body) =>
          (await record(req, res, body)) || actAsFull(noAuth)(req, res, body),
      },
      run: { readOnly: true },
    });
    const unauthenticated = seen.filter((s) => !s.auth);
    expect(unauthenticated.length).toBeGreaterThan(5);
    expect(unauthenticated.filter((s) => s.json)).toEqual([]);
    expect(seen.filter((s) => s.method !== 'GET' && s.auth)).toEqual([]);
    // Reads are served by this server: the check still fails, on the reads alone.
    expect(result.results.every((r) => r.status === 'failed')).toBe(true);
    expect(result.cleanup.created).toBe(0);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });
});

describe('missing-credentials-401 without a token in the config', () => {
  it('is skipped with the reason, never failed', async () => {
    const { result } = await auditFixture([missingCredentials401], {
      config: (config) => ({ ...config, auth: {} }),
    });
    expect(result.results.map((r) => r.status)).toEqual(['skipped', 'skipped']);
    expect(result.results[0].message).toMatch(/no auth\.token in the config/);
  });
});
