// Webhook fixtures: the example API with its subscriptions replaced by a deliverer whose bodies and signatures each test chooses.
import http from 'node:http';
import { createHmac, randomUUID } from 'node:crypto';
import type { AuditConfig, WebhookConfig } from '../../src/core/types.js';
import type { FixtureCase } from '../../src/testing/check-tester.js';
import type { Middleware } from '../../src/example-api/index.js';

export const SECRET = 'demo-webhook-secret';

/** What the fixture delivers for one event: body bytes and headers. */
export interface Shipment {
  body: string;
  headers: Record<string, string>;
}

/** hex or base64 HMAC of `body` (default SHA-256 with the example secret). */
export function hmac(
  body: string,
  encoding: 'hex' | 'base64' = 'hex',
  secret = SECRET,
  algorithm = 'sha256',
): string {
  return createHmac(algorithm, secret).update(body).digest(encoding);
}

/** The example API's own delivery: JSON `{id, type, data}` signed `X-Signature: sha256=<hex>`. */
export function standard(type: string): Shipment {
  const body = JSON.stringify({ id: randomUUID(), type, data: {} });
  return { body, headers: { 'content-type': 'application/json', 'x-signature': `sha256=${hmac(body)}` } };
}

/**
 * Takes over POST/DELETE /v1/webhooks (subscriptions answered 201 with an id and a Location) and,
 * after each successful POST to widgets or orders, delivers `ship(event)` to every subscriber.
 * `ship` returning a list sends several deliveries, in order; an empty list sends none. With
 * `beforeAnswer`, every POST's deliveries are made (each answered) before the API answers it:
 * everything has arrived by the time the create's answer does.
 */
export function deliverer(
  ship: (event: string) => Shipment | Shipment[],
  { beforeAnswer = false }: { beforeAnswer?: boolean } = {},
): Middleware {
  const urls = new Set<string>();
  return async (req, res, body) => {
    const url = req.url ?? '';
    if (req.method === 'POST' && url === '/v1/webhooks') {
      const id = randomUUID();
      const sub = JSON.parse(body.toString('utf8')) as { url: string };
      urls.add(sub.url);
      res.writeHead(201, { 'content-type': 'application/json', location: `/v1/webhooks/${id}` });
      res.end(JSON.stringify({ id, ...sub }));
      return true;
    }
    if (req.method === 'DELETE' && url.startsWith('/v1/webhooks/')) {
      res.writeHead(204).end();
      return true;
    }
    const m = /^\/v1\/(widget|order)s$/.exec(url);
    if (req.method === 'POST' && m) {
      const send = async (): Promise<void> => {
        const shipped = ship(`${m[1]}.created`);
        const list = Array.isArray(shipped) ? shipped : [shipped];
        await Promise.all([...urls].map((target) => sendInOrder(target, list)));
      };
      if (beforeAnswer) await send();
      // Else after the API has answered: a delivery never races the answer to the triggering request.
      else
        res.on('finish', () => {
          if (res.statusCode === 201) void send();
        });
    }
    return false;
  };
}

/** POSTs each shipment to `target`, one after the other's answer; a failed one ends nothing. */
async function sendInOrder(target: string, shipments: Shipment[]): Promise<void> {
  for (const { body, headers } of shipments) {
    await new Promise<void>((resolve) => {
      const req = http.request(target, { method: 'POST', agent: false, headers }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', () => resolve());
      req.end(body);
    });
  }
}

/** A case on the example API with this deliverer; `hooks` adjusts config.webhooks. */
export function delivering(
  name: string,
  ship: (event: string) => Shipment | Shipment[],
  extra: Partial<FixtureCase> & { hooks?: (hooks: WebhookConfig) => WebhookConfig } = {},
): FixtureCase {
  const { hooks, ...rest } = extra;
  return {
    name,
    api: { middleware: deliverer(ship) },
    config: (config) => withHooks(config, (h) => hooks?.(fast(h)) ?? fast(h)),
    ...rest,
  };
}

/** A short time-out: cases that expect no matching delivery do not wait 5 s. */
function fast(hooks: WebhookConfig): WebhookConfig {
  return { ...hooks, timeoutMs: 400 };
}

/** The config with its webhooks section rewritten. */
export function withHooks(config: AuditConfig, edit: (hooks: WebhookConfig) => WebhookConfig): AuditConfig {
  if (!config.webhooks) throw new Error('the example config declares webhooks');
  return { ...config, webhooks: edit(config.webhooks) };
}

/** The signature settings rewritten (the secret stays the example's). */
export function signedAs(fields: {
  encoding?: 'hex' | 'base64';
  prefix?: string;
  header?: string;
  algorithm?: string;
}) {
  return (hooks: WebhookConfig): WebhookConfig => ({
    ...hooks,
    signature: { ...hooks.signature!, ...fields },
  });
}
