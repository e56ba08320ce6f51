// Example API: webhook subscriptions and signed, fire-and-forget deliveries of resource events.
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import { call, LIMITED, start, type Running } from './helpers.js';

/** A delivery as the receiver saw it. */
interface Delivery {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: any;
}

/** An HTTP receiver whose `next()` resolves on the next delivery (no sleeping, no polling). */
class Receiver {
  private readonly queue: Delivery[] = [];
  private readonly waiters: Array<(d: Delivery) => void> = [];
  readonly server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      res.writeHead(204).end();
      const d = { path: req.url ?? '', headers: req.headers, raw, body: JSON.parse(raw) };
      const waiter = this.waiters.shift();
      if (waiter) waiter(d);
      else this.queue.push(d);
    });
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  next(): Promise<Delivery> {
    const d = this.queue.shift();
    return d ? Promise.resolve(d) : new Promise((resolve) => this.waiters.push(resolve));
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let s: Running;
let receiver: Receiver;
beforeAll(async () => {
  s = await start({ extraResources: 1 });
  receiver = new Receiver();
  await receiver.start();
});
afterAll(async () => {
  await s.api.close();
  await receiver.close();
});

const sign = (raw: string, secret = 'demo-webhook-secret'): string =>
  'sha256=' + createHmac('sha256', secret).update(raw).digest('hex');

describe('subscriptions', () => {
  it('creates, lists, reads and deletes a subscription', async () => {
    const created = await call(s.baseUrl, 'POST', '/webhooks', {
      json: { url: receiver.url + '/unused', events: ['order.deleted'] },
    });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: receiver.url + '/unused',
      events: ['order.deleted'],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(created.headers.get('location')).toBe(`/v1/webhooks/${created.json.id}`);
    expect((await call(s.baseUrl, 'GET', '/webhooks')).json.data).toContainEqual(created.json);
    expect((await call(s.baseUrl, 'GET', `/webhooks/${created.json.id}`)).json).toEqual(created.json);
    expect((await call(s.baseUrl, 'DELETE', `/webhooks/${created.json.id}`)).status).toBe(204);
    expect((await call(s.baseUrl, 'GET', `/webhooks/${created.json.id}`)).status).toBe(404);
  });

  it('defaults events to ["*"] and refuses the limited token', async () => {
    const r = await call(s.baseUrl, 'POST', '/webhooks', { json: { url: 'https://example.test/hook' } });
    expect(r.json.events).toEqual(['*']);
    await call(s.baseUrl, 'DELETE', `/webhooks/${r.json.id}`);
    expect(
      (await call(s.baseUrl, 'POST', '/webhooks', { token: LIMITED, json: { url: receiver.url } })).status,
    ).toBe(403);
  });
});

describe('deliveries', () => {
  it('delivers created, updated and deleted events with a valid signature', async () => {
    const sub = await call(s.baseUrl, 'POST', '/webhooks', {
      json: { url: receiver.url + '/all', events: ['*'] },
    });
    try {
      const created = await call(s.baseUrl, 'POST', '/widgets', { json: { name: 'hooked', price: 1 } });
      const d1 = await receiver.next();
      expect(d1.path).toBe('/all');
      expect(d1.headers['content-type']).toBe('application/json');
      expect(d1.headers['x-signature']).toBe(sign(d1.raw));
      expect(d1.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        type: 'widget.created',
        createdAt: expect.any(String),
        data: created.json,
      });

      const put = await call(s.baseUrl, 'PUT', `/widgets/${created.json.id}`, {
        json: { name: 'h2', price: 2 },
      });
      const d2 = await receiver.next();
      expect(d2.body.type).toBe('widget.updated');
      expect(d2.body.data).toEqual(put.json);

      await call(s.baseUrl, 'PATCH', `/widgets/${created.json.id}`, { json: { price: 3 } });
      expect((await receiver.next()).body.type).toBe('widget.updated');

      await call(s.baseUrl, 'DELETE', `/widgets/${created.json.id}`);
      const d4 = await receiver.next();
      expect(d4.body.type).toBe('widget.deleted');
      expect(d4.body.data.id).toBe(created.json.id);

      const order = await call(s.baseUrl, 'POST', '/orders', { json: { widgetId: 1, quantity: 1 } });
      const d5 = await receiver.next();
      expect(d5.body.type).toBe('order.created');
      expect(d5.body.data.id).toBe(order.json.id);

      await call(s.baseUrl, 'POST', '/things1', { json: { name: 't', price: 1 } });
      expect((await receiver.next()).body.type).toBe('thing1.created');
    } finally {
      await call(s.baseUrl, 'DELETE', `/webhooks/${sub.json.id}`);
    }
  });

  it('sends only the events a subscription asked for, and nothing for refused requests', async () => {
    const sub = await call(s.baseUrl, 'POST', '/webhooks', {
      json: { url: receiver.url + '/orders', events: ['order.*'] },
    });
    try {
      await call(s.baseUrl, 'POST', '/widgets', { json: { name: 'quiet', price: 1 } });
      await call(s.baseUrl, 'POST', '/orders', { json: { widgetId: 1 } }); // 400: no event
      await call(s.baseUrl, 'POST', '/orders', { json: { widgetId: 1, quantity: 5 } });
      const d = await receiver.next();
      expect(d.path).toBe('/orders');
      expect(d.body.type).toBe('order.created');
      expect(d.body.data.quantity).toBe(5);
    } finally {
      await call(s.baseUrl, 'DELETE', `/webhooks/${sub.json.id}`);
    }
  });

  it('signs with the configured secret and survives unreachable subscribers', async () => {
    const t = await start({ webhookSecret: 'other-secret' });
    try {
      expect(t.api.webhookSecret).toBe('other-secret');
      // A port nobody listens on: the delivery fails, the API does not care.
      await call(t.baseUrl, 'POST', '/webhooks', { json: { url: 'http://127.0.0.1:1/dead' } });
      await call(t.baseUrl, 'POST', '/webhooks', { json: { url: receiver.url + '/signed' } });
      await call(t.baseUrl, 'POST', '/widgets', { json: { name: 'n', price: 1 } });
      const d = await receiver.next();
      expect(d.path).toBe('/signed');
      expect(d.headers['x-signature']).toBe(sign(d.raw, 'other-secret'));
      expect((await call(t.baseUrl, 'GET', '/widgets')).status).toBe(200);
    } finally {
      await t.api.close();
    }
  });

  it('closes without waiting for a delivery that hangs, and aborts it', async () => {
    const hanging = http.createServer(() => undefined); // never answers
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const got = new Promise<http.IncomingMessage>((resolve) => hanging.once('request', resolve));
    // A delivery time-out far beyond jest's: only an abort by close() lets this test finish.
    const t = await start({ webhookTimeoutMs: 10 * 60_000 });
    try {
      const port = (hanging.address() as AddressInfo).port;
      await call(t.baseUrl, 'POST', '/webhooks', { json: { url: `http://127.0.0.1:${port}/` } });
      await call(t.baseUrl, 'POST', '/widgets', { json: { name: 'n', price: 1 } });
      const req = await got;
      const aborted = new Promise<void>((resolve) => req.socket.once('close', () => resolve()));
      await t.api.close();
      await aborted;
    } finally {
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    }
  });
});
