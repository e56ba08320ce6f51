// The audit's own webhook receiver: an HTTP server that records deliveries and wakes whoever awaits one.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Delivery } from '../core/context.js';
import type { Evidence, Secret } from '../core/types.js';
import { curlLine } from '../http/curl.js';
import { ownCopy } from '../core/shapes.js';
import { parseJson } from '../http/json.js';
import { Redactor } from '../http/redact.js';

export type { Delivery };

export interface ReceiverOptions {
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Port (default 0: any free port). */
  port?: number;
  /** URL the service must call, when it cannot reach host:port directly (a tunnel, a proxy). */
  publicUrl?: string;
  /** Bytes of one delivery's body kept (default 1 MiB); the rest is discarded. */
  maxBodyBytes?: number;
  /** Deliveries kept (default 100); later ones are matched against waiters, then only counted. */
  maxDeliveries?: number;
  /**
   * Bytes of bodies held at once, kept deliveries and deliveries being read together (default
   * 4 MiB). Past it a delivery being read keeps only its first SMALL_BODY bytes (enough for an
   * event of the usual size to be recognised), and is not kept once matched.
   */
  maxHeldBytes?: number;
}

/** What the receiver did not keep: counted, not stored. */
export interface Dropped {
  count: number;
  bytes: number;
}

/** Characters of a delivery's body shown in evidence (as the client shows answers). */
const EVIDENCE_BODY_CHARS = 8192;
/** Bodies up to this size go into a delivery's curl line whole (it replays the delivery). */
const CURL_BODY_BYTES = 64 * 1024;

/** Bytes of a delivery always read, whatever the others hold: an ordinary event fits. */
const SMALL_BODY = 64 * 1024;
/** Connections the receiver serves at once; a sender past it waits in the listen backlog. */
const MAX_CONNECTIONS = 64;

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
  private seq = 0;
  /** Body bytes held now: kept deliveries and deliveries being read. */
  private held = 0;
  private readonly notKept: Dropped = { count: 0, bytes: 0 };

  private constructor(
    private readonly server: Server,
    /** The URL subscribed at the service ({{receiverUrl}}). */
    readonly url: string,
    private readonly limits: { body: number; deliveries: number; held: number },
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
    const receiver = new WebhookReceiver(server, options.publicUrl ?? `http://${hostPart}:${address.port}/`, {
      body: options.maxBodyBytes ?? 1024 * 1024,
      deliveries: options.maxDeliveries ?? 100,
      held: options.maxHeldBytes ?? 4 * 1024 * 1024,
    });
    server.maxConnections = MAX_CONNECTIONS;
    server.on('request', (req: IncomingMessage, res: ServerResponse) => receiver.onRequest(req, res));
    server.on('connection', (socket: Socket) => {
      receiver.sockets.add(socket);
      socket.on('close', () => receiver.sockets.delete(socket));
    });
    return receiver;
  }

  /** The deliveries kept, in order of arrival (see `dropped` for those that were not). */
  deliveries(): readonly Delivery[] {
    return this.received;
  }

  /** Deliveries not kept (past `maxDeliveries` or `maxHeldBytes`): counted, with their body bytes. */
  dropped(): Dropped {
    return { ...this.notKept };
  }

  /** The sequence number of the latest delivery (0 when none): pass it as `since` to wait for newer ones. */
  mark(): number {
    return this.seq;
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
    let received = 0;
    let truncated = false;
    // Held from the first byte: a flood of large deliveries read at once stays within the limit.
    const release = (): void => {
      this.held -= size;
      size = 0;
    };
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (truncated) return;
      const room = this.held < this.limits.held ? this.limits.body : SMALL_BODY;
      if (size + chunk.length > room) {
        // A copy: a slice would keep the socket's whole buffer alive.
        chunks.push(Buffer.from(chunk.subarray(0, Math.max(0, room - size))));
        this.held += Math.max(0, room - size);
        size = Math.max(size, room);
        truncated = true;
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
      this.held += chunk.length;
    });
    req.on('error', release);
    req.on('close', () => {
      if (!req.complete) release();
    });
    req.on('end', () => {
      // Answer first: a service that waits for our answer before sending the next event must not stall.
      res.writeHead(204).end();
      const body = Buffer.concat(chunks, size);
      chunks.length = 0;
      const kept = this.record(req, body, truncated);
      if (!kept) {
        this.notKept.count++;
        this.notKept.bytes += received;
        release();
      }
    });
  }

  /** Matches a delivery against the waiters; keeps it while the limits allow. True: kept. */
  private record(req: IncomingMessage, body: Buffer, truncated: boolean): boolean {
    const text = body.toString('utf8');
    let json: unknown;
    let isJson = false;
    if (!truncated && text.trim() !== '') {
      const parsed = parseJson(text);
      if (parsed.ok) {
        json = parsed.value;
        isJson = true;
      }
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const delivery: Delivery = {
      seq: ++this.seq,
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
    for (const waiter of [...this.waiters]) {
      if (delivery.seq > waiter.since && waiter.accept(delivery)) waiter.resolve(delivery);
    }
    const keep = this.received.length < this.limits.deliveries && this.held <= this.limits.held;
    if (keep) this.received.push(delivery);
    return keep;
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
  let body: unknown = delivery.text === '' ? null : redactor.body(delivery.text, false);
  if (delivery.text.length > EVIDENCE_BODY_CHARS) {
    // Only the part shown is searched for secrets (Redactor.excerpt); a copy, not a slice.
    const shown = ownCopy(redactor.excerpt(delivery.text, EVIDENCE_BODY_CHARS));
    body = `${shown}… [${delivery.text.length - EVIDENCE_BODY_CHARS} more characters not shown]`;
  } else if (delivery.isJson) {
    try {
      // As the client's evidence: parsed values are searched again when escapes could hide one.
      const redacted = redactor.body(delivery.text, true);
      body = redacted.includes('\\') ? redactor.json(JSON.parse(redacted)) : JSON.parse(redacted);
    } catch {
      // keep the text
    }
  }
  const replayable = delivery.body.length <= CURL_BODY_BYTES;
  const notes = [
    `delivered by the service to the audit's webhook receiver${delivery.truncated ? ' (body cut at the cap)' : ''}; the curl line replays it`,
  ];
  if (!replayable)
    notes.push(
      `the body (${delivery.body.length} bytes) is too long for a curl line: the line sends none, the evidence shows its start`,
    );
  return {
    request: {
      method: delivery.method,
      url: redactor.text(url),
      headers: redactor.headers(delivery.headers),
      body,
    },
    response: { status: 204, headers: {}, body: null, durationMs: 0 },
    notes,
    curl: curlLine(
      {
        method: delivery.method,
        url,
        headers: delivery.headers,
        ...(replayable ? { body: delivery.body } : {}),
      },
      redactor,
    ),
  };
}
