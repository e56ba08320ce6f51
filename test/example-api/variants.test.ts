// Example API: each valid variant (list/item styles, delete statuses, error style, media type, ids, Location).
import { describe, it, expect } from '@jest/globals';
import type { ExampleApiOptions } from '../../src/example-api/index.js';
import { call, start, type Running } from './helpers.js';

async function withApi(options: ExampleApiOptions, fn: (s: Running) => Promise<void>): Promise<void> {
  const s = await start(options);
  try {
    await fn(s);
  } finally {
    await s.api.close();
  }
}

describe('list styles', () => {
  it.each([
    ['envelope-data', (b: any) => b.data, (b: any) => expect(b.total).toBe(b.data.length)],
    ['bare', (b: any) => b, () => undefined],
    ['envelope-items', (b: any) => b.items, (b: any) => expect(b.total).toBe(b.items.length)],
    [
      'paged',
      (b: any) => b.items,
      (b: any) =>
        expect(b).toEqual({ items: b.items, page: 1, pageSize: b.items.length, totalItems: b.items.length }),
    ],
  ] as const)('%s', async (listStyle, items, extra) => {
    await withApi({ variant: { listStyle } }, async (s) => {
      const r = await call(s.baseUrl, 'GET', '/widgets');
      expect(r.status).toBe(200);
      expect(items(r.json).map((w: { name: string }) => w.name)).toEqual(['sprocket', 'gear', 'cog']);
      extra(r.json);
    });
  });
});

describe('item style envelope-data', () => {
  it('wraps read, create, replace, update and delete-200 answers in {data}', async () => {
    await withApi({ variant: { itemStyle: 'envelope-data', deleteStatus: 200 } }, async (s) => {
      const read = await call(s.baseUrl, 'GET', '/widgets/1');
      expect(read.json.data).toMatchObject({ id: 1, name: 'sprocket' });
      const created = await call(s.baseUrl, 'POST', '/widgets', { json: { name: 'n', price: 1 } });
      expect(created.status).toBe(201);
      expect(created.json.data).toMatchObject({ name: 'n', price: 1 });
      const id = created.json.data.id;
      expect(
        (await call(s.baseUrl, 'PUT', `/widgets/${id}`, { json: { name: 'm', price: 2 } })).json.data.name,
      ).toBe('m');
      expect((await call(s.baseUrl, 'PATCH', `/widgets/${id}`, { json: { price: 3 } })).json.data.price).toBe(
        3,
      );
      const del = await call(s.baseUrl, 'DELETE', `/widgets/${id}`);
      expect(del.status).toBe(200);
      expect(del.json.data).toMatchObject({ id, name: 'm', price: 3 });
      expect((await call(s.baseUrl, 'GET', `/widgets/${id}`)).status).toBe(404);
    });
  });
});

describe('delete statuses', () => {
  it('deleteStatus 200 answers the deleted item', async () => {
    await withApi({ variant: { deleteStatus: 200 } }, async (s) => {
      const del = await call(s.baseUrl, 'DELETE', '/widgets/3');
      expect(del.status).toBe(200);
      expect(del.json).toMatchObject({ id: 3, name: 'cog' });
      expect((await call(s.baseUrl, 'GET', '/widgets/3')).status).toBe(404);
    });
  });

  it('repeatDeleteStatus 204 answers a repeat with 204, a never-issued id still with 404', async () => {
    await withApi({ variant: { repeatDeleteStatus: 204 } }, async (s) => {
      expect((await call(s.baseUrl, 'DELETE', '/widgets/2')).status).toBe(204);
      const again = await call(s.baseUrl, 'DELETE', '/widgets/2');
      expect(again.status).toBe(204);
      expect(again.text).toBe('');
      expect((await call(s.baseUrl, 'GET', '/widgets/2')).status).toBe(404);
      expect((await call(s.baseUrl, 'DELETE', '/widgets/999')).status).toBe(404);
    });
  });
});

describe('error style problem', () => {
  it('answers every error as application/problem+json {type, title, status, detail}', async () => {
    await withApi({ variant: { errorStyle: 'problem' } }, async (s) => {
      const errors = [
        await call(s.baseUrl, 'GET', '/widgets/999'),
        await call(s.baseUrl, 'GET', '/widgets', { token: null }),
        await call(s.baseUrl, 'POST', '/widgets', { body: '{' }),
        await call(s.baseUrl, 'PUT', '/widgets'),
      ];
      expect(errors.map((r) => r.status)).toEqual([404, 401, 400, 405]);
      for (const r of errors) {
        expect(r.contentType).toBe('application/problem+json; charset=utf-8');
        expect(r.json).toEqual({
          type: 'about:blank',
          title: expect.any(String),
          status: r.status,
          detail: expect.any(String),
        });
      }
      expect(errors[0].json.title).toBe('Not Found');
      expect((await call(s.baseUrl, 'GET', '/widgets/1')).contentType).toBe(
        'application/json; charset=utf-8',
      );
    });
  });
});

describe('media type', () => {
  it.each(['application/json', 'application/vnd.api+json'])('answers JSON as %s', async (contentType) => {
    await withApi({ variant: { contentType } }, async (s) => {
      expect((await call(s.baseUrl, 'GET', '/widgets')).contentType).toBe(contentType);
      expect((await call(s.baseUrl, 'GET', '/widgets/99')).contentType).toBe(contentType);
      expect((await call(s.baseUrl, 'POST', '/widgets', { json: { name: 'n', price: 1 } })).contentType).toBe(
        contentType,
      );
    });
  });
});

describe('widget ids', () => {
  it('uuid: widgets get UUID ids and a numeric id names nothing', async () => {
    await withApi({ variant: { widgetIds: 'uuid' } }, async (s) => {
      const list = await call(s.baseUrl, 'GET', '/widgets');
      for (const w of list.json.data) expect(w.id).toMatch(/^[0-9a-f-]{36}$/);
      const created = await call(s.baseUrl, 'POST', '/widgets', { json: { name: 'n', price: 1 } });
      expect(created.headers.get('location')).toBe(`/v1/widgets/${created.json.id}`);
      expect((await call(s.baseUrl, 'GET', `/widgets/${created.json.id}`)).json).toEqual(created.json);
      expect((await call(s.baseUrl, 'GET', '/widgets/1')).status).toBe(404);
    });
  });
});

describe('location styles', () => {
  it('absolute: the Location is a full URL that reads the item', async () => {
    await withApi({ variant: { locationStyle: 'absolute' } }, async (s) => {
      const created = await call(s.baseUrl, 'POST', '/widgets', { json: { name: 'n', price: 1 } });
      const location = created.headers.get('location') ?? '';
      expect(location).toBe(`${s.baseUrl}/widgets/${created.json.id}`);
      expect((await call(s.baseUrl, 'GET', location)).json).toEqual(created.json);
    });
  });

  it('none: no Location header, the item is still created', async () => {
    await withApi({ variant: { locationStyle: 'none' } }, async (s) => {
      const created = await call(s.baseUrl, 'POST', '/widgets', { json: { name: 'n', price: 1 } });
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBeNull();
      expect((await call(s.baseUrl, 'GET', `/widgets/${created.json.id}`)).status).toBe(200);
    });
  });
});

describe('custom resources', () => {
  it('serves the given definitions instead of the defaults', async () => {
    await withApi(
      {
        resources: [
          {
            name: 'notes',
            ids: 'int',
            fields: { text: { type: 'string', required: true }, done: { type: 'boolean', default: false } },
            operations: ['list', 'read', 'create'],
          },
        ],
      },
      async (s) => {
        const created = await call(s.baseUrl, 'POST', '/notes', { json: { text: 'hi' } });
        expect(created.json).toMatchObject({ id: 1, text: 'hi', done: false });
        expect((await call(s.baseUrl, 'DELETE', '/notes/1')).status).toBe(405);
        expect((await call(s.baseUrl, 'GET', '/widgets')).status).toBe(404);
      },
    );
  });
});
