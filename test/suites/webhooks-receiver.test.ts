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
});
