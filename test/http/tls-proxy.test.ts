// TLS (private CA, self-signed, client certificates, --insecure) and proxies (CONNECT, NO_PROXY) as the one HTTP client sees them.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TlsSettings } from '../../src/core/types.js';
import { createExampleApi, type ExampleApi } from '../../src/example-api/server.js';
import { HttpClient } from '../../src/http/client.js';
import { proxyFor, proxySettings } from '../../src/http/dispatchers.js';
import { makePki, startConnectProxy, startTlsFront, type Pki } from '../../src/testing/tls-fixture.js';

type Front = Awaited<ReturnType<typeof startTlsFront>>;

describe('TLS and proxies', () => {
  let pki: Pki;
  let api: ExampleApi;
  let apiPort: number;
  const fronts: Record<string, Front> = {};
  let proxy: Awaited<ReturnType<typeof startConnectProxy>>;
  let ca: string;

  beforeAll(async () => {
    pki = makePki();
    ca = pki.read(pki.ca);
    api = createExampleApi();
    apiPort = Number(new URL((await api.listen(0)).origin).port);
    fronts.selfSigned = await startTlsFront(apiPort, { cert: pki.selfSignedCert, key: pki.selfSignedKey });
    fronts.privateCa = await startTlsFront(apiPort, { cert: pki.serverCert, key: pki.serverKey });
    fronts.otherHost = await startTlsFront(apiPort, { cert: pki.otherHostCert, key: pki.otherHostKey });
    fronts.clientCert = await startTlsFront(apiPort, {
      cert: pki.serverCert,
      key: pki.serverKey,
      clientCa: pki.ca,
    });
    proxy = await startConnectProxy();
  });
  afterAll(async () => {
    await Promise.all(Object.values(fronts).map((f) => f.close()));
    await proxy.close();
    await api.close();
    pki.remove();
  });

  /** One GET of the collection through a fresh client; returns the status and the transport error. */
  async function get(front: Front, tls?: TlsSettings, env: NodeJS.ProcessEnv = {}) {
    const client = new HttpClient({
      baseUrl: `https://127.0.0.1:${front.port}/v1`,
      tokens: { full: api.tokens.full },
      network: { tls, env },
    });
    try {
      const x = await client.send({ method: 'GET', path: '/widgets' });
      return { status: x.status, error: x.error };
    } finally {
      await client.close();
    }
  }

  it('says which certificate was refused and why, instead of "cannot reach"', async () => {
    expect(await get(fronts.selfSigned)).toEqual({
      status: undefined,
      error: {
        code: 'E_TLS',
        message: 'TLS: certificate refused (self-signed certificate)',
        cause: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      },
    });
    expect((await get(fronts.privateCa)).error).toMatchObject({
      code: 'E_TLS',
      message: expect.stringMatching(/^TLS: certificate refused \(unknown CA/),
    });
    expect((await get(fronts.otherHost, { ca })).error).toMatchObject({
      code: 'E_TLS',
      message:
        'TLS: certificate refused (hostname mismatch: the certificate names DNS:other.test, not 127.0.0.1)',
    });
  });

  it('trusts a private CA given as tls.ca, beside the public ones', async () => {
    expect(await get(fronts.privateCa, { ca })).toEqual({ status: 200, error: undefined });
    // The CA vouches for its own certificates only.
    expect((await get(fronts.selfSigned, { ca })).error?.code).toBe('E_TLS');
  });

  it('insecure accepts any certificate, for this client only', async () => {
    expect((await get(fronts.selfSigned, { insecure: true })).status).toBe(200);
    expect((await get(fronts.otherHost, { insecure: true })).status).toBe(200);
    // Nothing process-wide: the next client verifies again.
    expect((await get(fronts.selfSigned)).error?.code).toBe('E_TLS');
  });

  it('sends the client certificate a service requires, and says so when none is given', async () => {
    const before = fronts.clientCert.handshakes();
    expect((await get(fronts.clientCert, { ca })).error).toMatchObject({
      code: 'E_TLS',
      message: expect.stringContaining('the service asks for a client certificate'),
    });
    const cert = { ca, cert: pki.read(pki.clientCert), key: pki.read(pki.clientKey) };
    expect(await get(fronts.clientCert, cert)).toEqual({ status: 200, error: undefined });
    expect(fronts.clientCert.handshakes()).toBeGreaterThan(before);
  });

  it('tunnels through HTTPS_PROXY with CONNECT, TLS settings included; NO_PROXY bypasses it', async () => {
    const target = `127.0.0.1:${fronts.privateCa.port}`;
    const count = () => proxy.tunnels.filter((t) => t === target).length;
    expect(await get(fronts.privateCa, { ca }, { HTTPS_PROXY: proxy.url })).toEqual({
      status: 200,
      error: undefined,
    });
    expect(count()).toBe(1);
    // Through the tunnel, the certificate is still verified.
    const selfTarget = `127.0.0.1:${fronts.selfSigned.port}`;
    expect((await get(fronts.selfSigned, undefined, { https_proxy: proxy.url })).error?.code).toBe('E_TLS');
    expect(proxy.tunnels).toContain(selfTarget);
    // NO_PROXY (host, or host:port) sends it direct.
    expect(
      (await get(fronts.privateCa, { ca }, { HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1' })).status,
    ).toBe(200);
    expect(
      (await get(fronts.privateCa, { ca }, { HTTPS_PROXY: proxy.url, no_proxy: `localhost,${target}` }))
        .status,
    ).toBe(200);
    expect(count()).toBe(1);
  });

  it('tunnels plain http through HTTP_PROXY, pinned connections included', async () => {
    const client = new HttpClient({
      baseUrl: `http://127.0.0.1:${apiPort}/v1`,
      tokens: { full: api.tokens.full },
      network: { env: { HTTP_PROXY: proxy.url } },
    });
    const target = `127.0.0.1:${apiPort}`;
    const before = proxy.tunnels.filter((t) => t === target).length;
    try {
      expect((await client.send({ method: 'GET', path: '/widgets' })).status).toBe(200);
      const pinned = client.pin();
      expect((await pinned.send({ method: 'GET', path: '/widgets' })).status).toBe(200);
      expect((await pinned.send({ method: 'GET', path: '/widgets' })).status).toBe(200);
      expect(pinned.connectionsOpened).toBe(1);
      await pinned.close();
    } finally {
      await client.close();
    }
    // One tunnel for the pool, one for the pinned connection.
    expect(proxy.tunnels.filter((t) => t === target).length - before).toBe(2);
  });

  it('reads the proxy variables as curl does and tells where a URL goes', () => {
    const settings = proxySettings({
      HTTP_PROXY: 'http://u:secret@proxy:3128',
      NO_PROXY: '.internal, 10.0.0.1:8443',
    });
    expect(settings).toEqual({
      httpProxy: 'http://u:secret@proxy:3128',
      httpsProxy: 'http://u:secret@proxy:3128',
      noProxy: '.internal, 10.0.0.1:8443',
    });
    expect(proxyFor('https://api.example.com/v1', settings)).toEqual({
      proxy: 'http://proxy:3128',
      variable: 'HTTP_PROXY',
    });
    expect(proxyFor('https://a.internal/v1', settings)).toBeUndefined();
    expect(proxyFor('https://10.0.0.1:8443/v1', settings)).toBeUndefined();
    expect(proxyFor('https://10.0.0.1/v1', settings)).toBeDefined();
    expect(
      proxyFor('https://x/v1', proxySettings({ HTTPS_PROXY: 'http://p:1', NO_PROXY: '*' })),
    ).toBeUndefined();
    expect(proxyFor('http://x/v1', proxySettings({ HTTPS_PROXY: 'http://p:1' }))).toBeUndefined();
  });
});
