// Tiny fixture servers for tests: the example API with switches, or a raw handler, on 127.0.0.1:0.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { createExampleApi, type ExampleApiOptions } from '../example-api/index.js';

export interface FixtureServer {
  origin: string;
  /** The URL the audit is pointed at (origin + version prefix). */
  baseUrl: string;
  tokens: { full: string; limited: string };
  webhookSecret?: string;
  /** Records held by the server, for before/after comparisons (example API only). */
  snapshot?: () => Record<string, unknown[]>;
  close(): Promise<void>;
}

/** Starts the bundled example API with the given switches. */
export async function startExampleFixture(options: ExampleApiOptions = {}): Promise<FixtureServer> {
  const api = createExampleApi(options);
  const { origin, baseUrl } = await api.listen(0, '127.0.0.1');
  return {
    origin,
    baseUrl,
    tokens: api.tokens,
    webhookSecret: api.webhookSecret,
    snapshot: () => api.snapshot(),
    close: () => api.close(),
  };
}

/** Starts a server from a raw handler (hostile and one-off fixtures). */
export async function startRawFixture(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  options: { prefix?: string; tokens?: { full: string; limited: string } } = {},
): Promise<FixtureServer> {
  const sockets = new Set<Socket>();
  const server = createServer(handler);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: origin + (options.prefix ?? '/v1'),
    tokens: options.tokens ?? { full: 'fixture-full-token', limited: 'fixture-limited-token' },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A loopback port the OS just handed out (port 0) and released: nothing listens there now. For a
 * test that needs a closed port, or a server that must listen on a port known in advance.
 */
export async function releasedPort(): Promise<number> {
  const probe = createTcpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
