// The audit's own webhook receiver: an HTTP server that records deliveries and wakes whoever awaits one.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Evidence, Secret } from '../core/types.js';
import { curlLine } from '../http/curl.js';
import { Redactor } from '../http/redact.js';

/** One request the receiver got, as it arrived (the raw bytes are what a signature covers). */
export interface Delivery {
  /** Order of arrival, from 1. */
  seq: number;
  receivedAt: number;
  method: string;
  /** Request target as sent (path and query). */
  target: string;
  /** Header names lower-cased; repeated headers joined with ', '. */
  headers: Record<string, string>;
  /** The raw body (cut at the cap, see `truncated`). */
  body: Buffer;
  text: string;
  /** Parsed JSON, or undefined when the body is empty or not JSON. */
  json: unknown;
  isJson: boolean;
  truncated: boolean;
}

export interface ReceiverOptions {
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Port (default 0: any free port). */
  port?: number;
  /** URL the service must call, when it cannot reach host:port directly (a tunnel, a proxy). */
  publicUrl?: string;
  /** Bytes of one delivery's body kept (default 1 MiB); the rest is discarded. */
  maxBodyBytes?: number;
}

interface Waiter {
  since: number;
  accept: (delivery: Delivery) => boolean;
  resolve: (delivery: Delivery | undefined) => void;
}

/**
 * Records every request it receives and answers 204. `waitFor` resolves as soon as a matching
 * delivery arrives (or has already arrived), so callers await an event instead of polling.
 */
export class WebhookReceiver {
  private readonly received: Delivery[] = [];
  private readonly waiters = new Set<Waiter>();
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    /** The URL subscribed at the service ({{receiverUrl}}). */
    readonly url: string,
    private readonly maxBodyBytes: number,
  ) {}

  /** Starts listening; rejects when the address cannot be bound. */
  static async start(options: ReceiverOptions = {}): Promise<WebhookReceiver> {
    const host = options.host ?? '127.0.0.1';
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address() as AddressInfo;
    const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const receiver = new WebhookReceiver(
      server,
      options.publicUrl ?? `http://${hostPart}:${address.port}/`,
      options.maxBodyBytes ?? 1024 * 1024,
    );
    server.on('request', (req: IncomingMessage, res: ServerResponse) => receiver.onRequest(req, res));
    server.on('connection', (socket: Socket) => {
      receiver.sockets.add(socket);
      socket.on('close', () => receiver.sockets.delete(socket));
    });
    return receiver;
  }

  /** Every delivery so far, in order of arrival. */
  deliveries(): readonly Delivery[] {
    return this.received;
  }

  /** The sequence number of the latest delivery (0 when none): pass it as `since` to wait for newer ones. */
  mark(): number {
    return this.received.length;
  }

  /**
   * The first delivery after `since` that `accept` takes, as soon as there is one; undefined when
   * none arrives within `timeoutMs` or the signal aborts.
   */
  waitFor(
    accept: (delivery: Delivery) => boolean,
    options: { since: number; timeoutMs: number; signal?: AbortSignal },
  ): Promise<Delivery | undefined> {
    const already = this.received.find((d) => d.seq > options.since && accept(d));
    if (already) return Promise.resolve(already);
    if (options.signal?.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const finish = (delivery: Delivery | undefined): void => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        this.waiters.delete(waiter);
        resolve(delivery);
      };
      const onAbort = (): void => finish(undefined);
      const waiter: Waiter = { since: options.since, accept, resolve: finish };
      const timer = setTimeout(() => finish(undefined), options.timeoutMs);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(waiter);
    });
  }

  /** Stops listening and drops every open connection; pending waits resolve with undefined. */
  async close(): Promise<void> {
    for (const waiter of [...this.waiters]) waiter.resolve(undefined);
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    req.on('data', (chunk: Buffer) => {
      if (truncated) return;
      if (size + chunk.length > this.maxBodyBytes) {
        chunks.push(chunk.subarray(0, this.maxBodyBytes - size));
        size = this.maxBodyBytes;
        truncated = true;
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    req.on('error', () => undefined);
    req.on('end', () => {
      // Answer first: a service that waits for our answer before sending the next event must not stall.
      res.writeHead(204).end();
      this.record(req, Buffer.concat(chunks, size), truncated);
    });
  }

  private record(req: IncomingMessage, body: Buffer, truncated: boolean): void {
    const text = body.toString('utf8');
    let json: unknown;
    let isJson = false;
    if (!truncated && text.trim() !== '') {
      try {
        json = JSON.parse(text);
        isJson = true;
      } catch {
        json = undefined;
      }
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const delivery: Delivery = {
      seq: this.received.length + 1,
      receivedAt: Date.now(),
      method: req.method ?? 'POST',
      target: req.url ?? '/',
      headers,
      body,
      text,
      json,
      isJson,
      truncated,
    };
    this.received.push(delivery);
    for (const waiter of [...this.waiters]) {
      if (delivery.seq > waiter.since && waiter.accept(delivery)) waiter.resolve(delivery);
    }
  }
}

/**
 * A delivery as report evidence: the request the service sent to the receiver (secrets redacted)
 * and the 204 it got, with a curl line that replays it against the receiver's URL.
 */
export function deliveryEvidence(
  delivery: Delivery,
  receiverUrl: string,
  secrets: readonly Secret[],
): Evidence {
  const redactor = new Redactor([...secrets]);
  const url = new URL(delivery.target, receiverUrl).href;
  const text = redactor.text(delivery.text);
  let body: unknown = text === '' ? null : text;
  if (delivery.isJson) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return {
    request: {
      method: delivery.method,
      url: redactor.text(url),
      headers: redactor.headers(delivery.headers),
      body,
    },
    response: { status: 204, headers: {}, body: null, durationMs: 0 },
    notes: [
      `delivered by the service to the audit's webhook receiver${delivery.truncated ? ' (body cut at the cap)' : ''}; the curl line replays it`,
    ],
    curl: curlLine({ method: delivery.method, url, headers: delivery.headers, body: delivery.body }, secrets),
  };
}
