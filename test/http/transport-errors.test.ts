// Transport failures as an exchange carries them: one code of the union, the words evidence shows, the low-level cause.
import { afterEach, describe, expect, it } from '@jest/globals';
import { faultOf, TRANSPORT_ERRORS } from '../../src/core/transport-errors.js';
import { HttpClient } from '../../src/http/client.js';
import { releasedPort, startRawFixture, type FixtureServer } from '../../src/testing/fixture-server.js';

describe('transport error codes', () => {
  let server: FixtureServer | undefined;
  const clients: HttpClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await server?.close();
    server = undefined;
  });

  const client = (baseUrl: string, extra: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) => {
    const c = new HttpClient({ baseUrl, tokens: { full: 'fixture-full-token' }, ...extra });
    clients.push(c);
    return c;
  };

  it('every code says what it means and whose doing it is', () => {
    for (const [code, { description, fault }] of Object.entries(TRANSPORT_ERRORS)) {
      expect([code, description.length > 10]).toEqual([code, true]);
      expect(['service', 'audit', 'unclear']).toContain(fault);
    }
    // The three failures ERR-SERVER judges, and the ones the circuit breaker must not count.
    const by = (f: string) =>
      Object.entries(TRANSPORT_ERRORS)
        .filter(([, v]) => v.fault === f)
        .map(([k]) => k)
        .sort();
    expect(by('service')).toEqual(['E_INVALID_HTTP', 'E_RESET', 'E_TIMEOUT']);
    expect(by('audit')).toEqual(
      expect.arrayContaining(['E_INTERRUPTED', 'E_OTHER_ORIGIN', 'E_SERVICE_DOWN', 'E_BODY_TOO_LARGE']),
    );
  });

  it('a connection reset mid-body is E_RESET, with the socket error as its cause', async () => {
    server = await startRawFixture((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"partial":');
      setImmediate(() => res.socket?.destroy());
    });
    const x = await client(server.baseUrl).send({ method: 'GET', path: '/things' });
    expect(x.status).toBeUndefined();
    expect(x.error?.code).toBe('E_RESET');
    expect(faultOf(x.error!)).toBe('service');
    expect(x.error?.cause).toMatch(/^(UND_ERR_SOCKET|ECONNRESET|UND_ERR_RES_CONTENT_LENGTH_MISMATCH)$/);
    expect(x.evidence.error).toBe(x.error?.message);
  });

  it('a closed port is E_CONNECT (not the service breaking: ERR-SERVER does not judge it)', async () => {
    const port = await releasedPort();
    const x = await client(`http://127.0.0.1:${port}/v1`).send({ method: 'GET', path: '/things' });
    expect(x.error).toEqual({ code: 'E_CONNECT', message: 'connection refused', cause: 'ECONNREFUSED' });
    expect(faultOf(x.error!)).toBe('unclear');
  });

  it('no answer within the deadline is E_TIMEOUT', async () => {
    server = await startRawFixture(() => undefined);
    const x = await client(server.baseUrl, { timeoutMs: 300 }).send({ method: 'GET', path: '/slow' });
    expect(x.error).toEqual({ code: 'E_TIMEOUT', message: 'no complete response within 300 ms' });
  });

  it('a redirect loop is E_REDIRECT_LIMIT on the last 3xx', async () => {
    server = await startRawFixture((req, res) => {
      res.writeHead(302, { location: `${req.url}x` });
      res.end();
    });
    const x = await client(server.baseUrl, { maxRedirects: 2 }).send({ method: 'GET', path: '/loop' });
    expect(x.status).toBe(302);
    expect(x.error).toEqual({ code: 'E_REDIRECT_LIMIT', message: 'more than 2 redirects (a loop?)' });
    expect(x.evidence.notes).toHaveLength(2);
  });

  it('another origin is refused unsent: E_OTHER_ORIGIN', async () => {
    server = await startRawFixture((_req, res) => res.end('{}'));
    const c = client(server.baseUrl);
    const x = await c.send({ method: 'GET', path: 'http://localhost:1/elsewhere' });
    expect(x.error?.code).toBe('E_OTHER_ORIGIN');
    expect(x.error?.notSent).toBe(true);
    expect(x.status).toBeUndefined();
    expect(c.requestCount).toBe(0);
  });

  it('once the service stopped answering, requests are not sent: E_SERVICE_DOWN carries the reason', async () => {
    server = await startRawFixture((_req, res) => res.socket?.destroy());
    const c = client(server.baseUrl, { breakerThreshold: 2 });
    for (let i = 0; i < 2; i++) {
      const sent = await c.send({ method: 'GET', path: `/a${i}` });
      expect([sent.error?.code, sent.error?.notSent]).toEqual(['E_RESET', undefined]);
    }
    const x = await c.send({ method: 'GET', path: '/b' });
    expect(x.error?.code).toBe('E_SERVICE_DOWN');
    expect(x.error?.notSent).toBe(true);
    if (x.error?.code !== 'E_SERVICE_DOWN') return;
    expect(x.error.reason).toBe(c.stoppedAnswering);
    expect(x.error.reason).toMatch(/^the service stopped answering: 2 requests in a row/);
    expect(x.error.message).toBe(`not sent: ${x.error.reason}`);
  });

  it('a request the interruption stops before it leaves is E_INTERRUPTED and marked not sent', async () => {
    let received = 0;
    server = await startRawFixture((_req, res) => {
      received++;
      res.end('{}');
    });
    const stop = new AbortController();
    stop.abort();
    const c = client(server.baseUrl, { signal: stop.signal });
    const x = await c.send({ method: 'POST', path: '/items', json: {} });
    expect([x.error?.code, x.error?.notSent, x.error?.message]).toEqual([
      'E_INTERRUPTED',
      true,
      'not sent: the audit was interrupted',
    ]);
    expect([c.requestCount, received]).toEqual([0, 0]);
  });
});
