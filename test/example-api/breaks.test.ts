// Example API: each break violates its one rule as described, and leaves the rest of the API correct.
import { describe, it, expect } from '@jest/globals';
import { BREAK_NAMES, type Breaks } from '../../src/example-api/index.js';
import { call, start, type Running } from './helpers.js';

type Probe = (s: Running) => Promise<void>;

const NEW = { name: 'new', price: 1 };

/** Creates a widget on a correct path (POST works under every break but the create ones). */
async function created(s: Running): Promise<number> {
  return (await call(s.baseUrl, 'POST', '/widgets', { json: NEW })).json.id;
}

const probes: Record<keyof Breaks, Probe> = {
  readStatus: async (s) => {
    expect((await call(s.baseUrl, 'GET', '/widgets/1')).status).toBe(203);
    expect((await call(s.baseUrl, 'GET', '/widgets')).status).toBe(200);
  },
  listStatus: async (s) => {
    expect((await call(s.baseUrl, 'GET', '/widgets')).status).toBe(202);
    expect((await call(s.baseUrl, 'GET', '/widgets/1')).status).toBe(200);
  },
  createStatus200: async (s) => {
    const r = await call(s.baseUrl, 'POST', '/widgets', { json: NEW });
    expect(r.status).toBe(200);
    expect((await call(s.origin, 'GET', r.headers.get('location') ?? '')).json).toEqual(r.json);
  },
  createNotReadable: async (s) => {
    const r = await call(s.baseUrl, 'POST', '/widgets', { json: NEW });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`/v1/widgets/${r.json.id}`);
    expect((await call(s.origin, 'GET', r.headers.get('location') ?? '')).status).toBe(404);
  },
  noLocation: async (s) => {
    const r = await call(s.baseUrl, 'POST', '/widgets', { json: NEW });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBeNull();
    expect((await call(s.baseUrl, 'GET', `/widgets/${r.json.id}`)).status).toBe(200);
  },
  changeStatus204: async (s) => {
    const put = await call(s.baseUrl, 'PUT', '/widgets/1', { json: { name: 'put', price: 7 } });
    expect(put.status).toBe(204);
    expect(put.text).toBe('');
    const patch = await call(s.baseUrl, 'PATCH', '/widgets/1', { json: { price: 8 } });
    expect(patch.status).toBe(204);
    expect((await call(s.baseUrl, 'GET', '/widgets/1')).json).toMatchObject({ name: 'put', price: 8 });
  },
  changeNotApplied: async (s) => {
    const before = (await call(s.baseUrl, 'GET', '/widgets/1')).json;
    const put = await call(s.baseUrl, 'PUT', '/widgets/1', { json: { name: 'put', price: 7 } });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ name: 'put', price: 7 });
    expect((await call(s.baseUrl, 'PATCH', '/widgets/1', { json: { price: 8 } })).status).toBe(200);
    expect((await call(s.baseUrl, 'GET', '/widgets/1')).json).toEqual(before);
  },
  deleteNoop: async (s) => {
    const id = await created(s);
    expect((await call(s.baseUrl, 'DELETE', `/widgets/${id}`)).status).toBe(204);
    expect((await call(s.baseUrl, 'GET', `/widgets/${id}`)).status).toBe(200);
  },
  deleteStatus500: async (s) => {
    const id = await created(s);
    const r = await call(s.baseUrl, 'DELETE', `/widgets/${id}`);
    expect(r.status).toBe(500);
    expect(r.json.error.code).toBe('internal_error');
    expect((await call(s.baseUrl, 'GET', `/widgets/${id}`)).status).toBe(404);
  },
  deleteOthers: async (s) => {
    const id = await created(s);
    expect((await call(s.baseUrl, 'DELETE', `/widgets/${id}`)).status).toBe(204);
    expect((await call(s.baseUrl, 'GET', `/widgets/${id}`)).status).toBe(404);
    // The oldest other widget (seed 1) vanished too; the rest are untouched.
    expect((await call(s.baseUrl, 'GET', '/widgets/1')).status).toBe(404);
    expect(s.api.snapshot().widgets.map((w) => (w as { id: number }).id)).toEqual([2, 3]);
  },
  notFound200: async (s) => {
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const r = await call(
        s.baseUrl,
        method,
        '/widgets/999',
        method === 'PATCH' ? { json: { price: 1 } } : {},
      );
      expect([r.status, r.json]).toEqual([200, {}]);
    }
  },
  notFound400: async (s) => {
    expect((await call(s.baseUrl, 'GET', '/widgets/999')).status).toBe(400);
    expect((await call(s.baseUrl, 'DELETE', '/orders/abc')).status).toBe(400);
    expect((await call(s.baseUrl, 'GET', '/nope')).status).toBe(404); // an unknown collection is no id
  },
  notFound500: async (s) => {
    const r = await call(s.baseUrl, 'PUT', '/widgets/999', { json: NEW });
    expect(r.status).toBe(500);
    expect(r.json.error.code).toBe('not_found');
  },
  serverError: async (s) => {
    const before = s.api.snapshot();
    const r = await call(s.baseUrl, 'PATCH', '/widgets/1', { json: { price: 9 } });
    expect(r.status).toBe(500);
    expect(r.json).toEqual({ error: { code: 'internal_error', message: expect.any(String) } });
    expect(s.api.snapshot()).toEqual(before);
    expect((await call(s.baseUrl, 'PUT', '/widgets/1', { json: NEW })).status).toBe(200);
  },
  htmlErrors: async (s) => {
    for (const r of [
      await call(s.baseUrl, 'GET', '/widgets/999'),
      await call(s.baseUrl, 'GET', '/widgets', { token: null }),
    ]) {
      expect(r.contentType).toBe('text/html; charset=utf-8');
      expect(r.text).toMatch(/^<!doctype html>/);
    }
    expect((await call(s.baseUrl, 'GET', '/widgets')).contentType).toBe('application/json; charset=utf-8');
  },
  textJson: async (s) => {
    const r = await call(s.baseUrl, 'GET', '/widgets/1');
    expect(r.status).toBe(200);
    expect(r.contentType).toBe('text/plain; charset=utf-8');
    expect(r.json).toMatchObject({ id: 1 });
    expect((await call(s.baseUrl, 'GET', '/widgets/999')).contentType).toBe(
      'application/json; charset=utf-8',
    );
  },
  badJson: async (s) => {
    const r = await call(s.baseUrl, 'GET', '/widgets');
    expect(r.status).toBe(200);
    expect(r.contentType).toBe('application/json; charset=utf-8');
    expect(r.text).toBe('{"data": [');
    expect((await call(s.baseUrl, 'GET', '/widgets/1')).json).toMatchObject({ id: 1 });
  },
  errorIn200: async (s) => {
    for (const method of ['GET', 'DELETE']) {
      const r = await call(s.baseUrl, method, '/widgets/999');
      expect([r.status, r.json]).toEqual([200, { error: { code: 404, message: 'not found' } }]);
    }
  },
  successFalse: async (s) => {
    const r = await call(s.baseUrl, 'GET', '/widgets/999');
    expect([r.status, r.json]).toEqual([200, { success: false, message: expect.any(String) }]);
    expect((await call(s.baseUrl, 'DELETE', '/widgets/999')).status).toBe(404);
  },
};

describe('breaks', () => {
  it('has a probe for every break in the catalogue', () => {
    expect(Object.keys(probes).sort()).toEqual([...BREAK_NAMES].sort());
  });

  it.each(BREAK_NAMES.map((name) => [name]))('%s does what it says', async (name) => {
    const s = await start({ breaks: { [name]: true } });
    try {
      await probes[name](s);
    } finally {
      await s.api.close();
    }
  });

  it('never applies to the webhooks collection', async () => {
    const s = await start({ breaks: { notFound200: true, createStatus200: true, listStatus: true } });
    try {
      expect((await call(s.baseUrl, 'GET', '/webhooks')).status).toBe(200);
      expect((await call(s.baseUrl, 'GET', '/webhooks/00000000-0000-4000-8000-000000000000')).status).toBe(
        404,
      );
      expect(
        (await call(s.baseUrl, 'POST', '/webhooks', { json: { url: 'http://127.0.0.1:1/' } })).status,
      ).toBe(201);
    } finally {
      await s.api.close();
    }
  });

  it('leaves the API correct when no break is set', async () => {
    const s = await start({ breaks: {} });
    try {
      expect((await call(s.baseUrl, 'GET', '/widgets/999')).status).toBe(404);
      expect((await call(s.baseUrl, 'POST', '/widgets', { json: NEW })).status).toBe(201);
    } finally {
      await s.api.close();
    }
  });
});
