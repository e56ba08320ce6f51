// HttpClient.pin: every request over one keep-alive socket, and a count that shows when the server closed it.
import { afterEach, describe, expect, it } from '@jest/globals';
import { HttpClient } from '../../src/http/client.js';
import { startRawFixture, type FixtureServer } from '../../src/testing/fixture-server.js';

describe('HttpClient.pin', () => {
  let server: FixtureServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  /** A server that answers with the remote port of the socket, closing it when asked to. */
  const start = async (): Promise<HttpClient> => {
    server = await startRawFixture((req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        ...(req.url?.includes('close') ? { connection: 'close' } : {}),
      });
      res.end(JSON.stringify({ port: req.socket.remotePort }));
    });
    return new HttpClient({ baseUrl: server.baseUrl, tokens: { full: 'fixture-full-token' } });
  };

  it('sends every request over the same socket, with or without credentials', async () => {
    const client = await start();
    const pinned = client.pin();
    const ports = [];
    for (const auth of ['full', 'none', 'full', 'none'] as const) {
      const x = await pinned.send({ method: 'GET', path: '/things', auth });
      ports.push((x.json as { port: number }).port);
    }
    expect(new Set(ports).size).toBe(1);
    expect(pinned.connectionsOpened).toBe(1);
    // The shared pool is another connection.
    const shared = await client.send({ method: 'GET', path: '/things' });
    expect((shared.json as { port: number }).port).not.toBe(ports[0]);
    await pinned.close();
    await client.close();
  });

  it('counts a new connection when the server closed the last one', async () => {
    const client = await start();
    const pinned = client.pin();
    await pinned.send({ method: 'GET', path: '/close' });
    await pinned.send({ method: 'GET', path: '/things' });
    expect(pinned.connectionsOpened).toBe(2);
    await client.close();
  });
});
