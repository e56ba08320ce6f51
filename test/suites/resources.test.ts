// CheckTester cases for the resources suite: RES-NOUN and RES-ITEM.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from '@jest/globals';
import { auditFixture, CheckTester } from '../../src/testing/check-tester.js';
import { ordersDefinition, widgetsDefinition, type Middleware } from '../../src/example-api/index.js';
import type { AuditConfig } from '../../src/core/types.js';
import pathsAreNouns from '../../suites/resources/paths-are-nouns.js';
import itemUrlNamesOne from '../../suites/resources/item-url-names-one.js';
import readCollectionAndItem from '../../suites/methods/read-collection-and-item.js';
import { VALID_VARIANTS } from './valid-variants.js';
import { isInner, pathOf, selfRequest, sendJson } from './self-requests.js';

const tester = new CheckTester();
const WIDGET = /^\/v1\/widgets\/\d+$/;

/** A JSON login, as config `auth.login` gives it (its path set by each case). */
const LOGIN = {
  step: 'auth.login',
  method: 'POST',
  path: '/users/login',
  headers: {},
  json: {},
  token: '/token',
};

/** POST /v1/users/login (with or without a trailing slash) answers the example API's full token. */
const tokenEndpoint: Middleware = (req, res) => {
  if (req.method !== 'POST' || !/^\/v1\/users\/login\/?$/.test(pathOf(req))) return false;
  sendJson(res, 200, { token: 'demo-full-token' });
  return true;
};

/** The config with one resource's path changed (nothing is sent to it unless it is flagged). */
function withPath(name: string, path: string): (c: AuditConfig) => AuditConfig {
  return (c) => ({ ...c, resources: c.resources.map((r) => (r.name === name ? { ...r, path } : r)) });
}

tester.run(pathsAreNouns, {
  valid: [
    ...VALID_VARIANTS.slice(0, 1),
    {
      name: 'nouns that begin like verbs and compounds that name things',
      // Neither path exists on the example API (RES-NOUN judges names only): audit past the 404s.
      run: { force: true },
      config: (c) => ({
        ...c,
        resources: c.resources.map((r, i) => ({
          ...r,
          path: ['/addresses', '/search-results'][i] ?? r.path,
        })),
        webhooks: c.webhooks && {
          ...c.webhooks,
          subscribe: { ...c.webhooks.subscribe, path: '/webhook_endpoints' },
        },
      }),
    },
    { name: 'a base URL with an api prefix and a beta version', api: { versionPrefix: '/api/v2beta1' } },
    {
      // LoopBack's document lists its token endpoint: the config names it as the login.
      name: 'the login endpoint auth.login names, among the paths of the OpenAPI document',
      api: { middleware: tokenEndpoint },
      config: (c) => ({
        ...c,
        auth: { ...c.auth, login: { ...LOGIN, path: `${new URL(c.baseUrl).origin}/v1/users/login/` } },
        extraPaths: ['/users/login', '/users/{id}'],
      }),
    },
  ],
  invalid: [
    {
      name: 'a resource path that starts with a verb (camelCase)',
      config: withPath('widgets', '/getWidgets'),
      failures: [{ messageId: 'verbPath' }],
    },
    {
      name: 'a resource path with an action segment',
      config: withPath('orders', '/orders/search'),
      failures: [{ messageId: 'verbPath' }],
    },
    {
      name: 'a kebab-case verb phrase',
      config: withPath('orders', '/create-order'),
      failures: [{ messageId: 'verbPath' }],
    },
    {
      name: 'a verb-shaped path of the OpenAPI document that is not probed (not requested: templated)',
      config: (c) => ({ ...c, extraPaths: ['/widgets/{id}/activate', '/getWidgetById/{id}'] }),
      failures: [{ messageId: 'verbPath' }, { messageId: 'verbPath' }],
    },
    {
      name: 'a verb-shaped path of the OpenAPI document beside the login endpoint auth.login names',
      api: { middleware: tokenEndpoint },
      config: (c) => ({
        ...c,
        auth: { ...c.auth, login: LOGIN },
        extraPaths: ['/users/login', '/users/{id}/activate'],
      }),
      failures: [{ messageId: 'verbPath' }],
    },
    {
      name: 'a verb in the base URL',
      api: { versionPrefix: '/do/v1' },
      failures: [{ messageId: 'verbPath' }],
    },
    {
      name: 'a verb as the webhook subscription path',
      config: (c) => ({
        ...c,
        webhooks: c.webhooks && { ...c.webhooks, subscribe: { ...c.webhooks.subscribe, path: '/subscribe' } },
      }),
      failures: [{ messageId: 'verbPath' }],
    },
  ],
});

/**
 * A widgets collection served a page of two at a time, oldest first. `knobs` says how a client
 * finds the next page: a "next" link, only page numbers, or nothing but offset and a filter by id.
 */
function pagedWidgets(
  knobs: 'next-link' | 'page-number' | 'offset' | 'offset-and-filter',
  options: { hideNew?: boolean } = {},
): Middleware {
  return async (req, res) => {
    if (isInner(req) || req.method !== 'GET' || pathOf(req) !== '/v1/widgets') return false;
    const query = new URL(req.url ?? '', 'http://x').searchParams;
    const listed = ((await selfRequest(req, 'GET', '/v1/widgets')).json as { data: Array<{ id: number }> })
      .data;
    const all = options.hideNew ? listed.filter((w) => w.id <= 3) : listed;
    if (knobs === 'offset-and-filter' && query.has('id')) {
      sendJson(res, 200, {
        items: all.filter((w) => String(w.id) === query.get('id')),
        offset: 0,
        limit: 2,
        total: 1,
      });
      return true;
    }
    if (knobs === 'offset' || knobs === 'offset-and-filter') {
      const offset = Number(query.get('offset') ?? 0);
      sendJson(res, 200, { items: all.slice(offset, offset + 2), offset, limit: 2, total: all.length });
      return true;
    }
    const page = Number(query.get('page') ?? 1);
    const items = all.slice((page - 1) * 2, page * 2);
    const more = page * 2 < all.length;
    const body: Record<string, unknown> = { items, page, pageSize: 2, totalItems: all.length };
    if (knobs === 'next-link') body.links = { next: more ? `/v1/widgets?page=${page + 1}` : null };
    sendJson(res, 200, body);
    return true;
  };
}

/** Answers GETs of a widget with the widget `pick` chooses instead. */
function answerOtherWidget(pick: (req: IncomingMessage) => Promise<string>): Middleware {
  return async (req) => {
    if (isInner(req) || req.method !== 'GET' || !WIDGET.test(pathOf(req))) return false;
    req.url = `/v1/widgets/${await pick(req)}`;
    return false;
  };
}

/** A widgets list without the items the audit created (ids above the three seeds). */
function hideNewWidgets(shape: (items: unknown[]) => unknown): Middleware {
  return async (req, res) => {
    if (isInner(req) || req.method !== 'GET' || pathOf(req) !== '/v1/widgets') return false;
    const all = ((await selfRequest(req, 'GET', '/v1/widgets')).json as { data: Array<{ id: number }> }).data;
    sendJson(res, 200, shape(all.filter((w) => w.id <= 3)));
    return true;
  };
}

tester.run(itemUrlNamesOne, {
  valid: [
    ...VALID_VARIANTS,
    {
      name: 'a collection paged two at a time with "next" links',
      api: { middleware: pagedWidgets('next-link') },
    },
    { name: 'a collection paged by page number only', api: { middleware: pagedWidgets('page-number') } },
    {
      name: 'an offset-paged collection with a filter by id',
      api: { middleware: pagedWidgets('offset-and-filter') },
    },
    {
      name: 'an offset-paged collection the audit cannot page through (that part is skipped, not failed)',
      api: { middleware: pagedWidgets('offset') },
    },
    { name: 'under --read-only it reads listed items', run: { readOnly: true } },
    {
      name: 'an enveloped list silently cut at 10 items, a usual page size (the listing part is skipped)',
      api: {
        resources: [
          {
            ...widgetsDefinition(),
            seed: Array.from({ length: 12 }, (_, i) => ({ name: `w${i}`, price: i })),
          },
          ordersDefinition(),
        ],
        middleware: async (req, res) => {
          if (isInner(req) || req.method !== 'GET' || pathOf(req) !== '/v1/widgets') return false;
          const all = ((await selfRequest(req, 'GET', '/v1/widgets')).json as { data: unknown[] }).data;
          sendJson(res, 200, { data: all.slice(0, 10) });
          return true;
        },
      },
    },
  ],
  invalid: [
    {
      name: 'every item URL answers the first item',
      resource: 'widgets',
      api: { middleware: answerOtherWidget(() => Promise.resolve('1')) },
      failures: [{ messageId: 'otherItemAnswered' }, { messageId: 'otherItemAnswered' }],
    },
    {
      name: 'every item URL answers the latest item',
      resource: 'widgets',
      api: {
        middleware: answerOtherWidget(async (req) => {
          const all = ((await selfRequest(req, 'GET', '/v1/widgets')).json as { data: Array<{ id: number }> })
            .data;
          return String(all[all.length - 1].id);
        }),
      },
      failures: [{ messageId: 'otherItemAnswered' }],
    },
    {
      name: 'created items are missing from a complete enveloped list',
      resource: 'widgets',
      api: { middleware: hideNewWidgets((items) => ({ data: items, total: items.length })) },
      failures: [{ messageId: 'missingFromCollection' }],
    },
    {
      name: 'created items are missing from every page of a paged collection',
      resource: 'widgets',
      api: { middleware: pagedWidgets('next-link', { hideNew: true }) },
      failures: [{ messageId: 'missingFromCollection' }],
    },
    {
      name: 'created items are missing from a bare list',
      resource: 'widgets',
      api: { middleware: hideNewWidgets((items) => items) },
      failures: [{ messageId: 'missingFromCollection' }],
    },
  ],
});

describe('an item URL that answers another item: one finding, one rule', () => {
  it("is RES-ITEM's failure only: MTH-READ, which judges the status, passes", async () => {
    const { result } = await auditFixture([itemUrlNamesOne, readCollectionAndItem], {
      api: { middleware: answerOtherWidget(() => Promise.resolve('1')) },
    });
    const widgets = result.results
      .filter((r) => r.resource === 'widgets')
      .map((r) => `${r.rules.join(',')} ${r.checkId}: ${r.status}`);
    expect(widgets.sort()).toEqual([
      'MTH-READ read-collection-and-item: passed',
      'RES-ITEM item-url-names-one: failed',
    ]);
    const failed = result.results.filter((r) => r.status === 'failed');
    expect(failed.map((r) => r.message)).toEqual([
      expect.stringMatching(/answered the item with id 1, not \d+: the URL of one resource answers another/),
    ]);
  });
});

describe('item-url-names-one on paged collections', () => {
  async function audit(
    middleware: Middleware,
  ): Promise<{ status?: string; message?: string; sent: string[] }> {
    const sent: string[] = [];
    const { result } = await auditFixture([itemUrlNamesOne], {
      api: { middleware },
      run: {
        onExchange: (x) => {
          const u = new URL(x.url);
          sent.push(`${x.method} ${u.pathname}${u.search}`);
        },
      },
    });
    const widgets = result.results.find(
      (r) => r.checkId === 'item-url-names-one' && r.resource === 'widgets',
    );
    return { status: widgets?.status, message: widgets?.message, sent };
  }

  it('follows "next" links to the page that lists the created items', async () => {
    const { status, sent } = await audit(pagedWidgets('next-link'));
    expect(status).toBe('passed');
    expect(sent).toContain('GET /v1/widgets?page=3');
    expect(sent.some((s) => s.includes('?id='))).toBe(false);
  });

  it('counts up page numbers when that is the only knob', async () => {
    const { status, sent } = await audit(pagedWidgets('page-number'));
    expect(status).toBe('passed');
    expect(sent).toContain('GET /v1/widgets?page=3');
  });

  it('filters by id when it cannot page', async () => {
    const { status, sent } = await audit(pagedWidgets('offset-and-filter'));
    expect(status).toBe('passed');
    expect(sent.filter((s) => /^GET \/v1\/widgets\?id=\d+$/.test(s))).toHaveLength(2);
  });

  it('does not fail a paged collection it could not search, and sends only a few requests', async () => {
    const { status, sent } = await audit(pagedWidgets('offset'));
    expect(status).toBe('passed');
    expect(sent.filter((s) => s.startsWith('GET /v1/widgets?')).length).toBeLessThanOrEqual(2);
  });
});
