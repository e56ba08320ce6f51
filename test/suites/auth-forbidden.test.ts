// CheckTester cases for AUTH-FORBIDDEN, and its skips (no limited token, nothing forbidden, --read-only).
import { describe, expect, it } from '@jest/globals';
import { auditFixture, CheckTester, times } from '../../src/testing/check-tester.js';
import forbidden403 from '../../suites/auth/forbidden-403.js';
import { VALID_VARIANTS } from './valid-variants.js';
import { altFixture } from '../../src/testing/alt-api/index.js';
import {
  actAsFull,
  answer,
  auth,
  chain,
  isItem,
  isWrite,
  LIMITED,
  rewriteReply,
  stampEnvelopes,
} from './auth-fixtures.js';
import { countingViews } from './view-counter.js';

const limited = (req: Parameters<typeof auth>[0]): boolean => auth(req) === `Bearer ${LIMITED}`;
const limitedWrite = (req: Parameters<typeof auth>[0]): boolean => limited(req) && isWrite(req);

new CheckTester().run(forbidden403, {
  valid: [
    ...VALID_VARIANTS,
    { name: 'items count their reads in a "views" member', api: { middleware: countingViews() } },
    {
      // Found by the alternative API: a view counter that every read moves is IDEM-GET's finding.
      name: 'a view counter that every read moves (not taken for an effect of the refused requests)',
      ...altFixture({ breaks: ['view-counter'] }),
    },
    {
      name: 'envelopes carrying a request id that differs on every answer',
      api: { variant: { itemStyle: 'envelope-data' }, middleware: stampEnvelopes },
    },
    {
      name: 'the limited token allowed everything not declared forbidden',
      api: { middleware: actAsFull((req) => limited(req) && req.method !== 'DELETE') },
      config: (c) => ({
        ...c,
        resources: c.resources.map((r) => ({ ...r, forbidden: ['delete' as const] })),
      }),
    },
  ],
  invalid: [
    {
      name: 'a 403 that still deletes, beside a view counter',
      ...altFixture({ breaks: ['view-counter', 'forbidden-still-acts'] }),
      failures: [{ messageId: 'actedAnyway' }, { messageId: 'actedAnyway' }, { messageId: 'actedAnyway' }],
    },
    {
      name: 'the limited token changes an item, and every read moves a view counter',
      resource: 'widgets',
      api: { middleware: countingViews(actAsFull((req) => limited(req) && req.method === 'PATCH')) },
      failures: [{ messageId: 'actedAnyway' }],
    },
    {
      name: 'the limited token allowed to write',
      api: { middleware: actAsFull(limitedWrite) },
      failures: [...times(8, 'actedAnyway')],
    },
    {
      name: 'the limited token answered 404 on items it may not change',
      api: { middleware: answer(404, (req) => limitedWrite(req) && isItem(req)) },
      failures: [{ messageId: 'wrongRefusal' }, { messageId: 'wrongRefusal' }],
    },
    {
      name: 'the limited token answered 401',
      api: { middleware: answer(401, limitedWrite) },
      failures: [{ messageId: 'wrongRefusal' }, { messageId: 'wrongRefusal' }],
    },
    {
      name: 'a 403 that still acted',
      api: {
        middleware: chain(
          rewriteReply(limitedWrite, () => 403),
          actAsFull(limitedWrite),
        ),
      },
      failures: [...times(8, 'actedAnyway')],
    },
  ],
});

describe('forbidden-403 skips', () => {
  const statusOf = async (fixture: Parameters<typeof auditFixture>[1]): Promise<string[]> => {
    const { result } = await auditFixture([forbidden403], fixture);
    return result.results.map((r) => `${r.resource}: ${r.status}: ${r.message}`);
  };

  it('without a limited token', async () => {
    const results = await statusOf({ config: (c) => ({ ...c, auth: { token: c.auth.token } }) });
    expect(results).toEqual([
      'widgets: skipped: the config names no limitedToken: there is no token to be refused with',
      'orders: skipped: the config names no limitedToken: there is no token to be refused with',
    ]);
  });

  it('without a forbidden list', async () => {
    const results = await statusOf({
      config: (c) => ({ ...c, resources: c.resources.map((r) => ({ ...r, forbidden: [] })) }),
    });
    expect(results).toEqual([
      'widgets: skipped: the config declares no forbidden operations for widgets (resources[].forbidden)',
      'orders: skipped: the config declares no forbidden operations for orders (resources[].forbidden)',
    ]);
  });

  it('under --read-only when every forbidden operation writes, but probes forbidden reads', async () => {
    expect(await statusOf({ run: { readOnly: true } })).toEqual([
      expect.stringMatching(/^widgets: skipped: --read-only: every forbidden operation of widgets/),
      expect.stringMatching(/^orders: skipped: --read-only: every forbidden operation of orders/),
    ]);
    const readable = await auditFixture([forbidden403], {
      run: { readOnly: true },
      api: { middleware: actAsFull((req) => limited(req) && req.method === 'GET') },
      config: (c) => ({ ...c, resources: c.resources.map((r) => ({ ...r, forbidden: ['list' as const] })) }),
    });
    const widgets = readable.result.results.find((r) => r.resource === 'widgets')!;
    expect(widgets.status).toBe('failed');
    expect(widgets.message).toBe(
      '1 request with the limited token was accepted, expected 403: GET /v1/widgets → 200',
    );
  });
});

describe('forbidden-403 with the same token twice', () => {
  it('is skipped, saying the limited token must differ', async () => {
    const { result } = await auditFixture([forbidden403], {
      config: (config) => ({ ...config, auth: { ...config.auth, limitedToken: config.auth.token } }),
    });
    expect(result.results.map((r) => r.status)).toEqual(['skipped', 'skipped']);
    expect(result.results[0].message).toMatch(/auth.limitedToken is the same as auth.token/);
  });
});
