// Example API: the six operations, their statuses and bodies, and that reads change nothing.
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { call, start, type Running } from './helpers.js';

let s: Running;
beforeAll(async () => {
  s = await start();
});
afterAll(async () => {
  await s.api.close();
});

const JSON_TYPE = 'application/json; charset=utf-8';

describe('reads', () => {
  it('lists a collection as {data, total} with the seeded records', async () => {
    const r = await call(s.baseUrl, 'GET', '/widgets');
    expect(r.status).toBe(200);
    expect(r.contentType).toBe(JSON_TYPE);
    expect(r.headers.get('set-cookie')).toBeNull();
    expect(r.json.total).toBe(r.json.data.length);
    expect(r.json.data.slice(0, 3).map((w: { id: number }) => w.id)).toEqual([1, 2, 3]);
    const orders = await call(s.baseUrl, 'GET', '/orders');
    expect(orders.json.data.length).toBeGreaterThanOrEqual(2);
    expect(orders.json.data[0].id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reads an item as a bare object with server-managed timestamps', async () => {
    const r = await call(s.baseUrl, 'GET', '/widgets/2');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      id: 2,
      name: 'gear',
      price: 10,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updatedAt: expect.any(String),
    });
  });

  it('leaves the state as it was, even after many reads', async () => {
    const before = s.api.snapshot();
    const first = await call(s.baseUrl, 'GET', '/widgets/1');
    for (let i = 0; i < 3; i++) await call(s.baseUrl, 'GET', '/widgets');
    const again = await call(s.baseUrl, 'GET', '/widgets/1');
    expect(again.text).toBe(first.text);
    expect(s.api.snapshot()).toEqual(before);
  });

  it('answers HEAD with the headers only', async () => {
    const r = await call(s.baseUrl, 'HEAD', '/widgets/1');
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
  });
});

describe('writes', () => {
  it('creates with 201, a Location that reads the item back, and a place in the collection', async () => {
    const r = await call(s.baseUrl, 'POST', '/widgets', { json: { name: 'bolt', price: 3, tags: ['x'] } });
    expect(r.status).toBe(201);
    expect(r.json).toEqual({
      id: expect.any(Number),
      name: 'bolt',
      price: 3,
      tags: ['x'],
      createdAt: expect.any(String),
      updatedAt: r.json.createdAt,
    });
    expect(r.headers.get('location')).toBe(`/v1/widgets/${r.json.id}`);
    const back = await call(s.origin, 'GET', r.headers.get('location') ?? '');
    expect(back.json).toEqual(r.json);
    const list = await call(s.baseUrl, 'GET', '/widgets');
    expect(list.json.data).toContainEqual(r.json);
  });

  it('creates orders with UUID ids', async () => {
    const r = await call(s.baseUrl, 'POST', '/orders', { json: { widgetId: 1, quantity: 2 } });
    expect(r.status).toBe(201);
    expect(r.json.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await call(s.baseUrl, 'GET', `/orders/${r.json.id}`)).json).toEqual(r.json);
  });

  it('ignores server-managed and unknown fields sent by the client', async () => {
    const r = await call(s.baseUrl, 'POST', '/widgets', {
      json: { id: 999, createdAt: '2000-01-01T00:00:00.000Z', name: 'nut', price: 1, colour: 'red' },
    });
    expect(r.status).toBe(201);
    expect(r.json.id).not.toBe(999);
    expect(r.json.createdAt).not.toBe('2000-01-01T00:00:00.000Z');
    expect(r.json).not.toHaveProperty('colour');
  });

  it('replaces with PUT (200, optional fields dropped, updatedAt changes even for an identical body)', async () => {
    const created = (
      await call(s.baseUrl, 'POST', '/widgets', { json: { name: 'a', price: 1, tags: ['t'] } })
    ).json;
    const put1 = await call(s.baseUrl, 'PUT', `/widgets/${created.id}`, { json: { name: 'b', price: 2 } });
    expect(put1.status).toBe(200);
    expect(put1.json).toEqual({
      id: created.id,
      name: 'b',
      price: 2,
      createdAt: created.createdAt,
      updatedAt: expect.any(String),
    });
    const put2 = await call(s.baseUrl, 'PUT', `/widgets/${created.id}`, { json: { name: 'b', price: 2 } });
    expect(put2.json.updatedAt > put1.json.updatedAt).toBe(true);
    expect((await call(s.baseUrl, 'GET', `/widgets/${created.id}`)).json).toEqual(put2.json);
  });

  it('merges with PATCH (application/json and merge-patch+json, where null removes a field)', async () => {
    const created = (
      await call(s.baseUrl, 'POST', '/widgets', { json: { name: 'a', price: 1, tags: ['t'] } })
    ).json;
    const p1 = await call(s.baseUrl, 'PATCH', `/widgets/${created.id}`, { json: { price: 5 } });
    expect(p1.status).toBe(200);
    expect(p1.json).toMatchObject({ name: 'a', price: 5, tags: ['t'] });
    const p2 = await call(s.baseUrl, 'PATCH', `/widgets/${created.id}`, {
      json: { tags: null },
      contentType: 'application/merge-patch+json',
    });
    expect(p2.status).toBe(200);
    expect(p2.json).not.toHaveProperty('tags');
    expect((await call(s.baseUrl, 'GET', `/widgets/${created.id}`)).json).toEqual(p2.json);
    const p3 = await call(s.baseUrl, 'PATCH', `/widgets/${created.id}`, { json: { tags: null } });
    expect(p3.status).toBe(400);
    const p4 = await call(s.baseUrl, 'PATCH', `/widgets/${created.id}`, {
      json: { name: null },
      contentType: 'application/merge-patch+json',
    });
    expect(p4.status).toBe(400);
  });

  it('deletes with 204 and no body; the item is gone, a repeat is 404, others are untouched', async () => {
    const created = (await call(s.baseUrl, 'POST', '/widgets', { json: { name: 'gone', price: 1 } })).json;
    const before = s.api.snapshot();
    const del = await call(s.baseUrl, 'DELETE', `/widgets/${created.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect(del.headers.get('content-type')).toBeNull();
    expect((await call(s.baseUrl, 'GET', `/widgets/${created.id}`)).status).toBe(404);
    expect((await call(s.baseUrl, 'DELETE', `/widgets/${created.id}`)).status).toBe(404);
    const after = s.api.snapshot();
    expect(after.widgets).toEqual(before.widgets.filter((w) => (w as { id: number }).id !== created.id));
    expect(after.orders).toEqual(before.orders);
  });
});

describe('not found', () => {
  const cases: Array<[string, string, unknown?]> = [
    ['GET', '/widgets/999999', undefined],
    ['GET', '/widgets/abc', undefined],
    ['GET', '/widgets/01', undefined],
    ['GET', '/orders/00000000-0000-4000-8000-000000000000', undefined],
    ['PUT', '/widgets/999999', { name: 'x', price: 1 }],
    ['PATCH', '/widgets/999999', { price: 1 }],
    ['DELETE', '/widgets/999999', undefined],
    ['DELETE', '/orders/not-a-uuid', undefined],
    ['GET', '/nope', undefined],
    ['GET', '/nope/123', undefined],
    ['GET', '', undefined],
    ['GET', '/widgets/1/extra', undefined],
  ];
  it.each(cases)('%s %s answers 404 with the JSON error shape', async (method, path, json) => {
    const r = await call(s.baseUrl, method, path, { json });
    expect(r.status).toBe(404);
    expect(r.contentType).toBe(JSON_TYPE);
    expect(r.json).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });

  it('does not serve other versions or paths outside the prefix', async () => {
    for (const path of ['/v2/widgets', '/v999/widgets', '/widgets', '/', '/v1widgets']) {
      expect((await call(s.origin, 'GET', path)).status).toBe(404);
    }
  });

  it('does not create with PUT on an unknown id', async () => {
    const before = s.api.snapshot();
    expect((await call(s.baseUrl, 'PUT', '/widgets/777777', { json: { name: 'x', price: 1 } })).status).toBe(
      404,
    );
    expect(s.api.snapshot()).toEqual(before);
  });
});

describe('methods', () => {
  it.each([
    ['POST', '/widgets/1', 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS'],
    ['PUT', '/widgets', 'GET, HEAD, POST, OPTIONS'],
    ['DELETE', '/widgets', 'GET, HEAD, POST, OPTIONS'],
    ['PATCH', '/webhooks/x', 'GET, HEAD, DELETE, OPTIONS'],
  ])('%s %s answers 405 with Allow and a JSON error', async (method, path, allow) => {
    const r = await call(s.baseUrl, method, path, { json: {} });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe(allow);
    expect(r.json.error.code).toBe('method_not_allowed');
  });

  it('answers OPTIONS with 204 and Allow', async () => {
    const r = await call(s.baseUrl, 'OPTIONS', '/widgets');
    expect(r.status).toBe(204);
    expect(r.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
  });
});

describe('other collections', () => {
  it('adds things1..thingsN with the widgets shape', async () => {
    const t = await start({ extraResources: 2 });
    try {
      const r = await call(t.baseUrl, 'POST', '/things2', { json: { name: 'n', price: 1 } });
      expect(r.status).toBe(201);
      expect(r.headers.get('location')).toBe(`/v1/things2/${r.json.id}`);
      expect((await call(t.baseUrl, 'POST', '/things1', { json: { name: 'n' } })).status).toBe(400);
      expect((await call(t.baseUrl, 'GET', '/things3')).status).toBe(404);
      expect(Object.keys(t.api.snapshot()).sort()).toEqual([
        'orders',
        'things1',
        'things2',
        'webhooks',
        'widgets',
      ]);
    } finally {
      await t.api.close();
    }
  });

  it('serves under another version prefix', async () => {
    const t = await start({ versionPrefix: '/v3' });
    try {
      expect(t.baseUrl).toBe(t.origin + '/v3');
      expect((await call(t.baseUrl, 'GET', '/widgets')).status).toBe(200);
      expect((await call(t.origin, 'GET', '/v1/widgets')).status).toBe(404);
    } finally {
      await t.api.close();
    }
  });

  it('counts requests and closes promptly with keep-alive connections open', async () => {
    const t = await start();
    await call(t.baseUrl, 'GET', '/widgets');
    await call(t.baseUrl, 'GET', '/widgets', { token: null });
    expect(t.api.requestCount()).toBe(2);
    await t.api.close();
    await expect(fetch(t.baseUrl + '/widgets')).rejects.toThrow();
  });
});
