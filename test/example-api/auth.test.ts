// Example API: authentication is judged first (401 with a Bearer challenge), and the limited token only reads.
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import http from 'node:http';
import { call, LIMITED, start, type Running } from './helpers.js';

let s: Running;
beforeAll(async () => {
  s = await start();
});
afterAll(async () => {
  await s.api.close();
});

describe('authentication', () => {
  const invalid: Array<[string, string | undefined, boolean]> = [
    // [case, Authorization header, token given]
    ['no header', undefined, false],
    ['empty bearer', 'Bearer ', false],
    ['Basic scheme', 'Basic ZGVtbzpkZW1v', false],
    ['Token scheme', 'Token demo-full-token', false],
    ['unknown token', 'Bearer not-a-token', true],
    ['valid token with one character changed', 'Bearer demo-full-tokeN', true],
    ['expired-looking JWT', 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjF9.c2ln', true],
  ];
  it.each(invalid)(
    '%s answers 401 with a JSON error and a Bearer challenge',
    async (_name, authorization, given) => {
      const r = await call(
        s.baseUrl,
        'GET',
        '/widgets',
        authorization === undefined ? { token: null } : { authorization },
      );
      expect(r.status).toBe(401);
      expect(r.contentType).toBe('application/json; charset=utf-8');
      expect(r.json).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
      const challenge = r.headers.get('www-authenticate');
      expect(challenge).toMatch(/^Bearer realm="example"/);
      expect(challenge?.includes('error="invalid_token"')).toBe(given);
    },
  );

  it('judges authentication before routing, existence, validity and permissions', async () => {
    const before = s.api.snapshot();
    const probes = [
      await call(s.baseUrl, 'GET', '/nope/123', { token: null }),
      await call(s.baseUrl, 'GET', '/widgets/999999', { token: null }),
      await call(s.baseUrl, 'GET', '/widgets/abc', { token: null }),
      await call(s.origin, 'GET', '/v2/widgets', { token: null }),
      await call(s.baseUrl, 'POST', '/widgets', { token: null, body: '{not json' }),
      await call(s.baseUrl, 'POST', '/widgets', { token: null, body: 'x', contentType: 'text/plain' }),
      await call(s.baseUrl, 'POST', '/widgets', { token: null, json: { name: 'bolt', price: 3 } }),
      await call(s.baseUrl, 'PUT', '/widgets', { token: null, json: {} }),
      await call(s.baseUrl, 'DELETE', '/widgets/1', { token: null }),
      await call(s.baseUrl, 'PATCH', '/orders/unknown', {
        authorization: 'Basic eDp5',
        json: { quantity: 0 },
      }),
    ];
    expect(probes.map((r) => r.status)).toEqual(probes.map(() => 401));
    expect(s.api.snapshot()).toEqual(before);
  });

  it('accepts the full token and a case-insensitive scheme', async () => {
    expect((await call(s.baseUrl, 'GET', '/widgets')).status).toBe(200);
    expect(
      (await call(s.baseUrl, 'GET', '/widgets', { authorization: 'bearer demo-full-token' })).status,
    ).toBe(200);
  });

  it('keeps no session: an unauthenticated request on the same keep-alive connection is refused', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const url = new URL(s.baseUrl + '/widgets');
    const get = (
      headers: Record<string, string>,
    ): Promise<{ status: number; socket: unknown; cookie: unknown }> =>
      new Promise((resolve, reject) => {
        const req = http.get(url, { agent, headers }, (res) => {
          res.resume();
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, socket: req.socket, cookie: res.headers['set-cookie'] }),
          );
        });
        req.on('error', reject);
      });
    const first = await get({ authorization: 'Bearer demo-full-token' });
    const second = await get({});
    agent.destroy();
    expect(first.status).toBe(200);
    expect(first.cookie).toBeUndefined();
    expect(second.socket).toBe(first.socket);
    expect(second.status).toBe(401);
  });
});

describe('the limited token', () => {
  it('may list and read', async () => {
    expect((await call(s.baseUrl, 'GET', '/widgets', { token: LIMITED })).status).toBe(200);
    expect((await call(s.baseUrl, 'GET', '/widgets/1', { token: LIMITED })).status).toBe(200);
    expect((await call(s.baseUrl, 'GET', '/webhooks', { token: LIMITED })).status).toBe(200);
  });

  it('is refused every write with 403 and a JSON error, before existence and validation, with no effect', async () => {
    const before = s.api.snapshot();
    const probes = [
      await call(s.baseUrl, 'POST', '/widgets', { token: LIMITED, json: { name: 'bolt', price: 3 } }),
      await call(s.baseUrl, 'POST', '/widgets', { token: LIMITED, body: '{broken' }),
      await call(s.baseUrl, 'PUT', '/widgets/1', { token: LIMITED, json: { name: 'nut', price: 4 } }),
      await call(s.baseUrl, 'PATCH', '/widgets/1', { token: LIMITED, json: { price: 5 } }),
      await call(s.baseUrl, 'DELETE', '/widgets/1', { token: LIMITED }),
      await call(s.baseUrl, 'DELETE', '/widgets/424242', { token: LIMITED }),
      await call(s.baseUrl, 'POST', '/webhooks', {
        token: LIMITED,
        json: { url: 'http://127.0.0.1:1/', events: ['*'] },
      }),
    ];
    expect(probes.map((r) => r.status)).toEqual(probes.map(() => 403));
    for (const r of probes)
      expect(r.json).toEqual({ error: { code: 'forbidden', message: expect.any(String) } });
    expect(s.api.snapshot()).toEqual(before);
  });
});

describe('custom tokens', () => {
  it('accepts the tokens given as options and no others', async () => {
    const t = await start({ tokens: { full: 'f1', limited: 'l1' } });
    try {
      expect(t.api.tokens).toEqual({ full: 'f1', limited: 'l1' });
      expect((await call(t.baseUrl, 'GET', '/widgets', { token: 'f1' })).status).toBe(200);
      expect((await call(t.baseUrl, 'DELETE', '/widgets/1', { token: 'l1' })).status).toBe(403);
      expect((await call(t.baseUrl, 'GET', '/widgets')).status).toBe(401);
    } finally {
      await t.api.close();
    }
  });
});
