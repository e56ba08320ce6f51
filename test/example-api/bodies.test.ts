// Example API: request bodies must be JSON objects of the right shape (415/400/413, no effect), and bad input never crashes it.
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import net from 'node:net';
import { call, start, type Running } from './helpers.js';

let s: Running;
beforeAll(async () => {
  s = await start();
});
afterAll(async () => {
  await s.api.close();
});

const SAMPLE = JSON.stringify({ name: 'bolt', price: 3 });

describe('media types', () => {
  it.each([
    ['text/plain', 'POST', '/widgets'],
    ['application/x-www-form-urlencoded', 'POST', '/widgets'],
    [null, 'POST', '/widgets'],
    ['text/plain', 'PUT', '/widgets/1'],
    [null, 'PATCH', '/widgets/1'],
  ])('Content-Type %s on %s %s answers 415 with no effect', async (contentType, method, path) => {
    const before = s.api.snapshot();
    const r = await call(s.baseUrl, method, path, { body: SAMPLE, contentType });
    expect(r.status).toBe(415);
    expect(r.json.error.code).toBe('unsupported_media_type');
    expect(s.api.snapshot()).toEqual(before);
  });

  it.each(['application/json; charset=utf-8', 'application/vnd.example+json', 'APPLICATION/JSON'])(
    'accepts %s',
    async (contentType) => {
      const r = await call(s.baseUrl, 'POST', '/widgets', { body: SAMPLE, contentType });
      expect(r.status).toBe(201);
    },
  );
});

describe('malformed bodies', () => {
  const widgetCases: Array<[string, string]> = [
    ['unparseable JSON', '{"name": "bolt",'],
    ['an empty body', ''],
    ['whitespace only', '  \n'],
    ['an array', '[{"name":"bolt","price":3}]'],
    ['a string', '"bolt"'],
    ['a number', '3'],
    ['null', 'null'],
    ['a missing required field', '{"name":"bolt"}'],
    ['an empty name', '{"name":"","price":3}'],
    ['a string price', '{"name":"bolt","price":"three"}'],
    ['a negative price', '{"name":"bolt","price":-1}'],
    ['a boolean name', '{"name":true,"price":3}'],
    ['a null name', '{"name":null,"price":3}'],
    ['tags not strings', '{"name":"bolt","price":3,"tags":[1]}'],
    ['tags an object', '{"name":"bolt","price":3,"tags":{}}'],
  ];
  it.each(widgetCases)(
    'POST /widgets with %s answers 400 with a JSON error and no effect',
    async (_name, body) => {
      const before = s.api.snapshot();
      const r = await call(s.baseUrl, 'POST', '/widgets', { body });
      expect(r.status).toBe(400);
      expect(r.contentType).toBe('application/json; charset=utf-8');
      expect(r.json).toEqual({
        error: { code: expect.stringMatching(/^invalid_/), message: expect.any(String) },
      });
      expect(s.api.snapshot()).toEqual(before);
    },
  );

  it.each([
    ['PUT', '/widgets/1', '{"name":"x"}'],
    ['PUT', '/widgets/1', '[]'],
    ['PATCH', '/widgets/1', '{"price":"5"}'],
    ['PATCH', '/widgets/1', 'null'],
    ['PATCH', '/widgets/1', '{"price":'],
    ['POST', '/orders', '{"widgetId":1.5,"quantity":1}'],
    ['POST', '/orders', '{"widgetId":1,"quantity":0}'],
    ['POST', '/orders', '{"widgetId":"1","quantity":1}'],
    ['POST', '/orders', '{"widgetId":1,"quantity":1,"note":5}'],
    ['POST', '/webhooks', '{"url":"ftp://example.com/","events":["*"]}'],
    ['POST', '/webhooks', '{"url":"not a url"}'],
    ['POST', '/webhooks', '{"url":"http://127.0.0.1/","events":"*"}'],
  ])('%s %s with %s answers 400 with no effect', async (method, path, body) => {
    const before = s.api.snapshot();
    const r = await call(s.baseUrl, method, path, { body });
    expect(r.status).toBe(400);
    expect(s.api.snapshot()).toEqual(before);
  });

  it('refuses unknown fields with 400 when asked to', async () => {
    const t = await start({ unknownFields: 'reject' });
    try {
      const r = await call(t.baseUrl, 'POST', '/widgets', {
        json: { name: 'bolt', price: 3, colour: 'red' },
      });
      expect(r.status).toBe(400);
      expect(r.json.error.message).toContain('colour');
      // Server-managed fields are not unknown: still ignored.
      expect(
        (await call(t.baseUrl, 'POST', '/widgets', { json: { id: 5, name: 'bolt', price: 3 } })).status,
      ).toBe(201);
    } finally {
      await t.api.close();
    }
  });
});

describe('limits and robustness', () => {
  it('answers 413 with a JSON error to a body over 1 MiB', async () => {
    const before = s.api.snapshot();
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10), price: 1 });
    const r = await call(s.baseUrl, 'POST', '/widgets', { body: big });
    expect(r.status).toBe(413);
    expect(r.json.error.code).toBe('payload_too_large');
    expect(s.api.snapshot()).toEqual(before);
  });

  it('still answers 401 before 413', async () => {
    const r = await call(s.baseUrl, 'POST', '/widgets', { token: null, body: 'x'.repeat(2 * 1024 * 1024) });
    expect(r.status).toBe(401);
  });

  it('survives deeply nested JSON and odd URLs without a 5xx', async () => {
    const deep = '{"name":"n","price":1,"x":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}';
    const r1 = await call(s.baseUrl, 'POST', '/widgets', {
      body: deep,
      headers: { 'idempotency-key': 'deep' },
    });
    expect(r1.status).toBe(201);
    for (const path of ['/%', '/widgets/%E0%A4%A', '/widgets/..%2f..', '/widgets?x=%', '/widgets//1']) {
      const r = await call(s.baseUrl, 'GET', path);
      expect(r.status).toBeLessThan(500);
    }
  });

  /** Sends raw bytes and collects everything until the server closes the connection. */
  const raw = (text: string): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(new URL(s.origin).port), '127.0.0.1');
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
      socket.write(text);
    });

  it('answers CONNECT with a JSON 401 without credentials and a JSON 405 with them', async () => {
    const anonymous = await raw('CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(anonymous).toMatch(/^HTTP\/1\.1 401/);
    expect(anonymous).toContain('WWW-Authenticate: Bearer realm="example"');
    const known = await raw(
      'CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-full-token\r\n\r\n',
    );
    expect(known).toMatch(/^HTTP\/1\.1 405/);
    expect(known).toContain('"method_not_allowed"');
  });

  it('answers a request node cannot parse with a JSON 400', async () => {
    const answer = await raw('GET /v1/widgets HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(answer).toContain('application/json');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      error: { code: 'bad_request', message: expect.any(String) },
    });
  });
});

describe('middleware', () => {
  it('sees every request first with its body, and can answer it alone', async () => {
    const seen: string[] = [];
    const t = await start({
      middleware: (req, res, body) => {
        seen.push(`${req.method} ${req.url} ${body.toString()}`);
        if (req.url === '/v1/custom') {
          res.writeHead(418, { 'content-type': 'application/json' });
          res.end('{"teapot":true}');
          return true;
        }
        return false;
      },
    });
    try {
      const custom = await call(t.baseUrl, 'POST', '/custom', { token: null, json: { a: 1 } });
      expect(custom.status).toBe(418);
      expect(custom.json).toEqual({ teapot: true });
      expect((await call(t.baseUrl, 'GET', '/widgets')).status).toBe(200);
      expect(seen).toEqual(['POST /v1/custom {"a":1}', 'GET /v1/widgets ']);
    } finally {
      await t.api.close();
    }
  });

  it('turns a throwing middleware into a JSON 500', async () => {
    const t = await start({
      middleware: async () => {
        throw new Error('boom');
      },
    });
    try {
      const r = await call(t.baseUrl, 'GET', '/widgets');
      expect(r.status).toBe(500);
      expect(r.json.error.code).toBe('internal_error');
    } finally {
      await t.api.close();
    }
  });
});
