// Webhooks: the subscription collection's definition, event matching, signing and fire-and-forget delivery.
import http, { type ClientRequest } from 'node:http';
import https from 'node:https';
import { createHmac, randomUUID } from 'node:crypto';
import type { ResourceDefinition } from './resources.js';
import type { Clock, Item } from './store.js';

/** Something that happened to a record, waiting to be delivered once the client has its answer. */
export interface ResourceEvent {
  /** `<singular>.<created|updated|deleted>`, e.g. `widget.created`. */
  type: string;
  /** The record (for deletions, as it was). */
  data: unknown;
}

/** The `webhooks` collection: `url` (http or https), `events` (patterns, default `["*"]`). */
export function webhooksDefinition(): ResourceDefinition {
  return {
    name: 'webhooks',
    singular: 'webhook',
    ids: 'uuid',
    operations: ['list', 'read', 'create', 'delete'],
    fields: {
      url: { type: 'string', required: true, min: 1 },
      events: { type: 'string[]', default: ['*'] },
    },
    seed: [],
    check: (record) => {
      let url: URL;
      try {
        url = new URL(String(record.url));
      } catch {
        return 'Field "url" must be an absolute http(s) URL';
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Field "url" must be an http(s) URL';
      const events = record.events as string[];
      if (events.some((e) => e.trim() === '')) return 'Field "events" must not contain empty names';
      return undefined;
    },
  };
}

/** True when a subscription's patterns select the event type (`*`, `widget.*`, or the exact type). */
export function eventMatches(patterns: readonly string[], type: string): boolean {
  return patterns.some(
    (p) => p === '*' || p === type || (p.endsWith('.*') && type.startsWith(p.slice(0, -1))),
  );
}

/** `sha256=<hex HMAC-SHA256 of the raw body>`, the value of the `X-Signature` header. */
export function signBody(secret: string, body: string | Buffer): string {
  return 'sha256=' + createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Delivers events to subscriptions with node:http(s): one POST per matching subscription, a
 * time-out per delivery, errors swallowed, no retries. `close()` aborts what is still in flight.
 */
export class WebhookDispatcher {
  private readonly inFlight = new Set<ClientRequest>();
  private closed = false;

  constructor(
    private readonly secret: string,
    private readonly timeoutMs: number,
    private readonly clock: Clock,
  ) {}

  /** Sends each event to every subscription whose patterns match it. */
  deliver(subscriptions: readonly Item[], events: readonly ResourceEvent[]): void {
    for (const event of events) {
      const payload = JSON.stringify({
        id: randomUUID(),
        type: event.type,
        createdAt: this.clock.iso(),
        data: event.data,
      });
      for (const sub of subscriptions) {
        if (eventMatches(sub.events as string[], event.type)) this.post(String(sub.url), payload);
      }
    }
  }

  /** Number of deliveries still in flight (for tests). */
  pending(): number {
    return this.inFlight.size;
  }

  /** Aborts every delivery in flight; later events are dropped. */
  close(): void {
    this.closed = true;
    for (const req of this.inFlight) req.destroy();
    this.inFlight.clear();
  }

  private post(url: string, payload: string): void {
    if (this.closed) return;
    try {
      const target = new URL(url);
      const client = target.protocol === 'https:' ? https : http;
      const req = client.request(target, {
        method: 'POST',
        agent: false,
        timeout: this.timeoutMs,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(payload)),
          'X-Signature': signBody(this.secret, payload),
          'User-Agent': 'conformance-example-api',
        },
      });
      this.inFlight.add(req);
      const done = (): void => {
        this.inFlight.delete(req);
      };
      req.on('response', (res) => {
        res.on('error', () => undefined);
        res.resume();
        res.on('end', done);
      });
      req.on('timeout', () => req.destroy());
      req.on('error', done);
      req.on('close', done);
      req.end(payload);
    } catch {
      // A subscription URL that cannot be requested is the subscriber's problem, never the server's.
    }
  }
}
