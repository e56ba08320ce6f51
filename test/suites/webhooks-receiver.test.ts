// The audit's webhook receiver: it records deliveries byte for byte and wakes waiters on arrival, without polling.
import { afterEach, describe, expect, it } from '@jest/globals';
import { WebhookReceiver, deliveryEvidence } from '../../src/engine/webhook-receiver.js';

const open: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

async function start(options: Parameters<typeof WebhookReceiver.start>[0] = {}): Promise<WebhookReceiver> {
  const receiver = await WebhookReceiver.start(options);
  open.push(receiver);
  return receiver;
}

function post(url: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  return fetch(url, { method: 'POST', body, headers }).then((res) => res.status);
}

describe('WebhookReceiver', () => {
  it('listens on 127.0.0.1 on a free port and answers 204', async () => {
    const receiver = await start();
    expect(receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(
      await post(`${receiver.url}hooks?x=1`, '{"type":"a"}', { 'content-type': 'application/json' }),
    ).toBe(204);
    const [d] = receiver.deliveries();
    expect(d).toMatchObject({
      seq: 1,
      method: 'POST',
      target: '/hooks?x=1',
      isJson: true,
      json: { type: 'a' },
    });
    expect(d.headers['content-type']).toBe('application/json');
    expect(d.body.toString()).toBe('{"type":"a"}');
  });

  it('keeps the raw bytes of a body that is not JSON', async () => {
    const receiver = await start();
    await post(receiver.url, 'type=a&x=%20');
    expect(receiver.deliveries()[0]).toMatchObject({ isJson: false, json: undefined, text: 'type=a&x=%20' });
  });

  it('resolves a wait as soon as a matching delivery arrives, ignoring others', async () => {
    const receiver = await start();
    const waiting = receiver.waitFor((d) => (d.json as { type?: string })?.type === 'b', {
      since: receiver.mark(),
      timeoutMs: 60_000,
    });
    await post(receiver.url, '{"type":"a"}');
    await post(receiver.url, '{"type":"b"}');
    expect((await waiting)?.seq).toBe(2);
  });

  it('finds a delivery that arrived before the wait began, but not one before `since`', async () => {
    const receiver = await start();
    await post(receiver.url, '{"type":"a"}');
    const since = receiver.mark();
    await post(receiver.url, '{"type":"a"}');
    const found = await receiver.waitFor(() => true, { since, timeoutMs: 60_000 });
    expect(found?.seq).toBe(2);
  });

  it('gives undefined at the time-out or when the signal aborts', async () => {
    const receiver = await start();
    expect(await receiver.waitFor(() => true, { since: 0, timeoutMs: 10 })).toBeUndefined();
    const controller = new AbortController();
    const waiting = receiver.waitFor(() => true, { since: 0, timeoutMs: 60_000, signal: controller.signal });
    controller.abort();
    expect(await waiting).toBeUndefined();
  });

  it('ends pending waits when it closes', async () => {
    const receiver = await WebhookReceiver.start();
    const waiting = receiver.waitFor(() => true, { since: 0, timeoutMs: 60_000 });
    await receiver.close();
    expect(await waiting).toBeUndefined();
  });

  it('cuts bodies at the cap and says so', async () => {
    const receiver = await start({ maxBodyBytes: 8 });
    await post(receiver.url, '{"type":"long enough"}');
    expect(receiver.deliveries()[0]).toMatchObject({ truncated: true, isJson: false, text: '{"type":' });
  });

  it('announces the public URL when one is given', async () => {
    const receiver = await start({ publicUrl: 'https://hooks.example.test/audit' });
    expect(receiver.url).toBe('https://hooks.example.test/audit');
  });

  it('turns a delivery into evidence with secrets redacted and a replayable curl line', async () => {
    const receiver = await start();
    await post(receiver.url, '{"type":"a","token":"s3cret-value"}', { 'x-signature': 'sha256=ab' });
    const evidence = deliveryEvidence(receiver.deliveries()[0], receiver.url, [
      { value: 's3cret-value', envVar: 'HOOK_SECRET' },
    ]);
    expect(evidence.request.body).toEqual({ type: 'a', token: '[redacted]' });
    expect(evidence.request.headers['x-signature']).toBe('sha256=ab');
    expect(evidence.response?.status).toBe(204);
    expect(evidence.curl).toMatch(/^curl -i -X POST /);
    expect(evidence.curl).toContain('${HOOK_SECRET}');
    expect(evidence.curl).not.toContain('s3cret-value');
  });

  it('keeps at most maxDeliveries; later ones are counted, and still wake a waiter as they arrive', async () => {
    const receiver = await start({ maxDeliveries: 3 });
    for (let i = 0; i < 5; i++) await post(receiver.url, JSON.stringify({ type: 'noise', i }));
    const since = receiver.mark();
    const waiting = receiver.waitFor((d) => (d.json as { type?: string }).type === 'wanted', {
      since,
      timeoutMs: 60_000,
    });
    await post(receiver.url, '{"type":"wanted"}');
    expect((await waiting)?.json).toEqual({ type: 'wanted' });
    expect(receiver.deliveries().map((d) => d.seq)).toEqual([1, 2, 3]);
    expect(receiver.dropped()).toEqual({ count: 3, bytes: expect.any(Number) });
    expect(receiver.mark()).toBe(6);
  });

  it('past maxHeldBytes deliveries are counted, not kept', async () => {
    const receiver = await start({ maxHeldBytes: 200_000 });
    const big = JSON.stringify({ type: 'noise', pad: 'x'.repeat(150_000) });
    for (let i = 0; i < 4; i++) await post(receiver.url, big);
    // The first fits the 200 KB; with it kept, no other does.
    expect(receiver.deliveries().length).toBe(1);
    expect(receiver.dropped()).toEqual({ count: 3, bytes: 3 * big.length });
  });

  it('nested JSON past the parse limit is not parsed (the receiver cannot be made to recurse)', async () => {
    const receiver = await start();
    await post(receiver.url, '['.repeat(100_000) + ']'.repeat(100_000));
    expect(receiver.deliveries()[0]).toMatchObject({ isJson: false, json: undefined });
  });

  it('evidence of a large delivery shows its start and no curl body past 64 KiB', async () => {
    const receiver = await start();
    const big = JSON.stringify({ type: 'noise', pad: 'y'.repeat(100_000) });
    await post(receiver.url, big);
    const evidence = deliveryEvidence(receiver.deliveries()[0], receiver.url, []);
    expect(evidence.request.body).toMatch(/^\{"type":"noise","pad":"y+… \[\d+ more characters not shown\]$/);
    expect(evidence.curl).not.toContain('yyyy');
    expect(evidence.notes?.join(' ')).toMatch(/too long for a curl line/);
  });
});
