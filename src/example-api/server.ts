// The example API's HTTP server (node:http only): body reading, middleware, replies, webhooks, lifecycle.
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { authenticateRequest } from './auth.js';
import { RateLimiter } from './ratelimit.js';
import { applyReplyBreaks } from './breaks.js';
import type { App } from './handlers.js';
import { IdempotencyStore } from './idempotency.js';
import { resolveOptions, type ExampleApiOptions } from './options.js';
import { errorReply, renderReply, sendReply, type RenderStyle, type Reply } from './reply.js';
import { dispatch, type RequestBody } from './router.js';
import { Clock, Collection } from './store.js';
import { WebhookDispatcher, webhooksDefinition, type ResourceEvent } from './webhooks.js';

/** A running (or ready to run) example API. */
export interface ExampleApi {
  /** Starts listening (default 127.0.0.1, port 0 = any free port); `baseUrl` is `origin + versionPrefix`. */
  listen(port?: number, host?: string): Promise<{ origin: string; baseUrl: string }>;
  /** Stops the server, closes every connection and aborts webhook deliveries in flight. */
  close(): Promise<void>;
  /** Deep copy of every collection's records (`webhooks` included), by collection name. */
  snapshot(): Record<string, unknown[]>;
  /** Requests received so far (answered or not, authenticated or not). */
  requestCount(): number;
  /** The bearer tokens it accepts. */
  tokens: { full: string; limited: string };
  /** The key of webhook signatures (`X-Signature: sha256=<hex HMAC-SHA256 of the raw body>`). */
  webhookSecret: string;
}

/** Bodies past this many times the cap are not drained any more: the connection is closed instead. */
const DRAIN_FACTOR = 16;

/**
 * Creates the bundled example API: an in-memory JSON-over-HTTP service that follows every rule
 * of CONVENTIONS.md by default; `variant` makes other valid choices, `breaks` violates rules.
 */
export function createExampleApi(options: ExampleApiOptions = {}): ExampleApi {
  const opts = resolveOptions(options);
  const clock = new Clock(opts.now);
  const app: App = {
    opts,
    clock,
    collections: new Map(opts.resources.map((def) => [def.name, new Collection(def, clock)])),
    webhooks: new Collection(webhooksDefinition(), clock, true),
    idempotency: new IdempotencyStore(),
    limiter: opts.rateLimit ? new RateLimiter(opts.rateLimit, opts.now) : undefined,
    dispatcher: new WebhookDispatcher(opts.webhookSecret, opts.webhookTimeoutMs, clock),
  };
  const style: RenderStyle = { errorStyle: opts.variant.errorStyle, contentType: opts.variant.contentType };
  let requests = 0;
  let origin = 'http://127.0.0.1';

  const server: Server = http.createServer((req, res) => {
    requests++;
    handle(app, style, req, res, origin).catch(() => {
      // handle() answers every error itself; this only guards against a failure while doing so.
      if (!res.headersSent)
        sendReply(res, errorReply(500, 'internal_error', 'Unexpected server error'), style);
      else res.destroy();
    });
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) =>
    answerClientError(err, socket, style),
  );
  // CONNECT never reaches 'request': answer it here (401 first, like everything else) instead of dropping it.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    requests++;
    socket.on('error', () => undefined);
    const auth = authenticateRequest(req, opts.tokens, opts.authScheme);
    const reply = auth.ok ? errorReply(405, 'method_not_allowed', 'CONNECT is not allowed') : auth.reply;
    writeRaw(socket, reply, style);
  });

  return {
    tokens: { ...opts.tokens },
    webhookSecret: opts.webhookSecret,
    requestCount: () => requests,
    snapshot: () => {
      const out: Record<string, unknown[]> = {};
      for (const coll of app.collections.values()) out[coll.name] = coll.snapshot();
      out.webhooks = app.webhooks.snapshot();
      return out;
    },
    listen: (port = 0, host = '127.0.0.1') =>
      new Promise((resolve, reject) => {
        const onError = (err: Error): void => reject(err);
        server.once('error', onError);
        server.listen(port, host, () => {
          server.off('error', onError);
          const address = server.address() as AddressInfo;
          const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          origin = `http://${hostPart}:${address.port}`;
          resolve({ origin, baseUrl: origin + opts.versionPrefix });
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        app.dispatcher.close();
        if (!server.listening) {
          resolve();
          return;
        }
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(
  app: App,
  style: RenderStyle,
  req: IncomingMessage,
  res: ServerResponse,
  listenOrigin: string,
): Promise<void> {
  const events: ResourceEvent[] = [];
  let reply: Reply;
  const body = await readBody(req, app.opts.maxBodyBytes);
  if (body === 'aborted') return;
  try {
    if (body !== 'too-large' && app.opts.middleware && (await app.opts.middleware(req, res, body))) return;
    if (res.headersSent || res.writableEnded) return;
    reply = applyReplyBreaks(
      dispatch(app, req, body, requestOrigin(req, listenOrigin), events),
      app.opts.breaks,
    );
  } catch {
    events.length = 0;
    reply = errorReply(500, 'internal_error', 'Unexpected server error');
  }
  if (app.opts.latencyMs > 0) await app.opts.delay(app.opts.latencyMs);
  if (res.headersSent || res.writableEnded) return;
  if (body === 'too-large') reply.headers.Connection = 'close';
  sendReply(res, reply, style);
  // Deliveries start only once the client's answer has been handed to the socket.
  if (events.length > 0) app.dispatcher.deliver(app.webhooks.list(), events);
}

/**
 * Reads a request body up to `cap` bytes. Past the cap the rest is drained and discarded (so the
 * client can read the 413), up to a bound past which the connection is simply closed.
 */
function readBody(req: IncomingMessage, cap: number): Promise<RequestBody | 'aborted'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > cap * DRAIN_FACTOR) {
      req.socket.destroy();
      resolve('aborted');
      return;
    }
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap * DRAIN_FACTOR) {
        req.socket.destroy();
        resolve('aborted');
      } else if (size > cap) {
        tooLarge = true;
        chunks.length = 0;
      } else if (!tooLarge) chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', () => resolve('aborted'));
    req.on('aborted', () => resolve('aborted'));
  });
}

/** `http://<Host header>` when it looks like a host, else the address the server listens on. */
function requestOrigin(req: IncomingMessage, fallback: string): string {
  const host = req.headers.host;
  return host && /^[A-Za-z0-9.\-[\]:]+$/.test(host) ? `http://${host}` : fallback;
}

/** Answers a request node:http could not parse with a JSON 400 (431 for oversized headers). */
function answerClientError(err: NodeJS.ErrnoException, socket: Socket, style: RenderStyle): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const message = status === 431 ? 'Request headers too large' : 'Malformed HTTP request';
  writeRaw(socket, errorReply(status, 'bad_request', message), style);
}

/** Writes a whole HTTP/1.1 response on a bare socket and closes it. */
function writeRaw(socket: Socket, reply: Reply, style: RenderStyle): void {
  const { status, headers, text } = renderReply(reply, style);
  const lines = Object.entries({ ...headers, Connection: 'close' }).map(([k, v]) => `${k}: ${v}`);
  const reason = http.STATUS_CODES[status] ?? 'Error';
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n${lines.join('\r\n')}\r\n\r\n${text}`);
}
