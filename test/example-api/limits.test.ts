// Example API: idempotency keys on POST (replay, conflict, per-token scope) and the per-token fixed-window rate limit.
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { IdempotencyStore } from '../../src/example-api/idempotency.js';
import { strictRateLimit } from '../../src/example-api/index.js';
import { call, LIMITED, start, type Running } from './helpers.js';

describe('idempotency keys', () => {
  let s: Running;
  beforeAll(async () => {
    s = await start();
  });
  afterAll(async () => {
    await s.api.close();
  });

  it('replays the first answer for the same key and body, creating nothing more', async () => {
    const headers = { 'Idempotency-Key': 'k-1' };
    const first = await call(s.baseUrl, 'POST', '/widgets', { json: { name: 'bolt', price: 3 }, headers });
    const count = s.api.snapshot().widgets.length;
    // Same JSON, other key order and spacing.
    const retry = await call(s.baseUrl, 'POST', '/widgets', {
      body: '{ "price": 3, "name": "bolt" }',
      headers,
    });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.json).toEqual(first.json);
    expect(retry.headers.get('location')).toBe(first.headers.get('location'));
    expect(s.api.snapshot().widgets.length).toBe(count);
  });

  it('refuses the same key with another body with 409 and no effect', async () => {
    const headers = { 'Idempotency-Key': 'k-2' };
    await call(s.baseUrl, 'POST', '/widgets', { json: { name: 'bolt', price: 3 }, headers });
    const before = s.api.snapshot();
    const other = await call(s.baseUrl, 'POST', '/widgets', { json: { name: 'bolt', price: 4 }, headers });
    expect(other.status).toBe(409);
    expect(other.json.error.code).toBe('idempotency_conflict');
    expect(s.api.snapshot()).toEqual(before);
  });

  it('creates again without the header, or with another key', async () => {
    const a = await call(s.baseUrl, 'POST', '/widgets', { json: { name: 'n', price: 1 } });
    const b = await call(s.baseUrl, 'POST', '/widgets', { json: { name: 'n', price: 1 } });
    const c = await call(s.baseUrl, 'POST', '/widgets', {
      json: { name: 'n', price: 1 },
      headers: { 'Idempotency-Key': 'k-3' },
    });
    expect(new Set([a.json.id, b.json.id, c.json.id]).size).toBe(3);
  });

  it('scopes keys per token (store level: the limited token cannot POST, so a client cannot see it)', () => {
    const store = new IdempotencyStore();
    const reply = { status: 201, headers: { Location: '/v1/widgets/9' }, body: { id: 9 } };
    store.remember('token-a', 'k', 'fp', reply);
    expect(store.lookup('token-b', 'k', 'fp')).toEqual({ kind: 'miss' });
    expect(store.lookup('token-a', 'k', 'fp')).toEqual({ kind: 'replay', reply });
    expect(store.lookup('token-a', 'k', 'other')).toEqual({ kind: 'conflict' });
  });

  it('uses the configured header name', async () => {
    const t = await start({ idempotencyHeader: 'X-Request-Id' });
    try {
      const headers = { 'X-Request-Id': 'r1' };
      const a = await call(t.baseUrl, 'POST', '/widgets', { json: { name: 'n', price: 1 }, headers });
      const b = await call(t.baseUrl, 'POST', '/widgets', { json: { name: 'n', price: 1 }, headers });
      expect(b.json.id).toBe(a.json.id);
    } finally {
      await t.api.close();
    }
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After and RateLimit headers past the limit, then lets the client back after the window', async () => {
    let now = 10_000; // the start of a 1000 ms window
    const t = await start({ rateLimit: { limit: 3, windowMs: 1000 }, now: () => now });
    try {
      const ok = [];
      for (let i = 0; i < 3; i++) ok.push(await call(t.baseUrl, 'GET', '/widgets'));
      expect(ok.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(ok.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['2', '1', '0']);
      now += 400;
      const refused = await call(t.baseUrl, 'GET', '/widgets');
      expect(refused.status).toBe(429);
      expect(refused.json).toEqual({ error: { code: 'rate_limited', message: expect.any(String) } });
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.headers.get('ratelimit-limit')).toBe('3');
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
      expect(refused.headers.get('ratelimit-reset')).toBe('1');
      // Another token has its own window; unauthenticated requests are not counted.
      expect((await call(t.baseUrl, 'GET', '/widgets', { token: LIMITED })).status).toBe(200);
      expect((await call(t.baseUrl, 'GET', '/widgets', { token: null })).status).toBe(401);
      now += 600;
      expect((await call(t.baseUrl, 'GET', '/widgets')).status).toBe(200);
    } finally {
      await t.api.close();
    }
  });

  it('strictRateLimit (demo --rate-limit): n per second per token across endpoints, refused with Retry-After: 0', async () => {
    const now = 10_000;
    for (const advertise of [true, false]) {
      const t = await start({ rateLimit: strictRateLimit(2, advertise), now: () => now });
      try {
        expect((await call(t.baseUrl, 'GET', '/widgets')).status).toBe(200);
        const second = await call(t.baseUrl, 'GET', '/orders');
        expect(second.status).toBe(200);
        expect(second.headers.get('ratelimit-remaining')).toBe(advertise ? '0' : null);
        const refused = await call(t.baseUrl, 'GET', '/widgets/1');
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toBe('0');
        expect(refused.headers.get('ratelimit-reset')).toBe(advertise ? '1' : null);
      } finally {
        await t.api.close();
      }
    }
  });

  it('rounds Retry-After up to whole seconds of the time left', async () => {
    let now = 0;
    const t = await start({ rateLimit: { limit: 1, windowMs: 5000 }, now: () => now });
    try {
      await call(t.baseUrl, 'GET', '/widgets');
      now = 1200;
      const refused = await call(t.baseUrl, 'POST', '/widgets', { json: { name: 'n', price: 1 } });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('4');
      expect(t.api.snapshot().widgets.length).toBe(3);
    } finally {
      await t.api.close();
    }
  });

  it.each([
    ['sliding', [200, 200, 200, 429]],
    ['fixed', [200, 200, 200, 200]],
  ] as const)('%s window: a burst across a window boundary gets %j', async (window, statuses) => {
    let now = 900;
    const t = await start({ rateLimit: { limit: 3, windowMs: 1000, window }, now: () => now });
    try {
      const seen = [];
      for (let i = 0; i < 4; i++) {
        if (i === 2) now = 1100; // two requests before the aligned boundary at 1000, two after
        seen.push((await call(t.baseUrl, 'GET', '/widgets/1')).status);
      }
      expect(seen).toEqual(statuses);
    } finally {
      await t.api.close();
    }
  });

  it('defaults to 150 requests per second per token and endpoint, and can be disabled', async () => {
    let now = 0;
    const t = await start({ now: () => now });
    const u = await start({ rateLimit: false });
    try {
      const first = await call(t.baseUrl, 'GET', '/widgets');
      expect(first.headers.get('ratelimit-limit')).toBe('150');
      const burst = await Promise.all(
        Array.from({ length: 151 }, () => call(t.baseUrl, 'GET', '/widgets/1')),
      );
      // Another endpoint has its own budget: only the 151st request to /widgets/1 is refused.
      expect(burst.filter((r) => r.status === 429).length).toBe(1);
      expect((await call(t.baseUrl, 'GET', '/widgets/2')).status).toBe(200);
      now = 1000;
      expect((await call(t.baseUrl, 'GET', '/widgets/1')).status).toBe(200);
      const plain = await call(u.baseUrl, 'GET', '/widgets');
      expect(plain.headers.get('ratelimit-limit')).toBeNull();
    } finally {
      await t.api.close();
      await u.api.close();
    }
  });
});
