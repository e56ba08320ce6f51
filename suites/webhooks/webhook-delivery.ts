// HOOK-DELIVERY: after each declared operation, the declared event reaches the audit's receiver as JSON.
import { defineCheck, type CheckContext, type Exchange } from '../../src/core/check.js';
import type { WebhookConfig, WebhookReceiverConfig } from '../../src/core/types.js';
import { idOf, isObject, short, unwrapItem } from '../../src/core/shapes.js';
import { answered, is2xx } from '../../src/core/verdicts.js';
import { SkipSignal } from '../../src/engine/context.js';
import { deliveryEvidence, WebhookReceiver, type Delivery } from '../../src/engine/webhook-receiver.js';

type Expectation = WebhookConfig['expect'][number];

/** One declared operation, performed, and what reached the receiver afterwards. */
export interface Trigger {
  expectation: Expectation;
  /** The requests that performed the operation; the last one is the triggering request. */
  exchanges: Exchange[];
  /** The first delivery of the expected event after the operation. */
  delivery?: Delivery;
  /** Every other delivery that arrived after the operation and that the receiver kept. */
  others: Delivery[];
  /** Deliveries after the operation that the receiver did not keep (past its limits): counted. */
  notKept: number;
  /** Why the operation could not be performed. */
  skipped?: string;
}

/** One subscription of the receiver and every declared operation performed under it. */
export interface WebhookRound {
  receiverUrl: string;
  subscription: Exchange;
  triggers: Trigger[];
  deliveries: readonly Delivery[];
}

/** The run's one webhook round: HOOK-DELIVERY and HOOK-SIGNATURE judge the same deliveries. */
export function webhookRound(ctx: CheckContext): Promise<WebhookRound> {
  return ctx.shared('webhook-round', () => runRound(ctx));
}

/** The value at a dotted path (`type`, `event.type`, `events.0.name`); a key holding a dot wins. */
export function valueAt(json: unknown, dotted: string): unknown {
  if (isObject(json) && Object.hasOwn(json, dotted)) return json[dotted];
  let node = json;
  for (const part of dotted.split('.')) {
    if (Array.isArray(node) && /^\d+$/.test(part)) node = node[Number(part)];
    else if (isObject(node) && Object.hasOwn(node, part)) node = node[part];
    else return undefined;
  }
  return node;
}

/** The event name a delivery carries at `eventField`, if it is JSON and has one. */
export function eventOf(delivery: Delivery, eventField: string): unknown {
  return delivery.isJson ? valueAt(delivery.json, eventField) : undefined;
}

async function runRound(ctx: CheckContext): Promise<WebhookRound> {
  const hooks = ctx.config.webhooks;
  if (!hooks) return ctx.skip('the config declares no webhooks');
  const where = hooks.receiver ?? {};
  const unreachable = unreachableReason(ctx.config.baseUrl, where);
  if (unreachable) return ctx.skip(unreachable);
  if (ctx.readOnly) return ctx.skip('--read-only: subscribing a webhook and triggering events change state');
  let receiver: WebhookReceiver;
  try {
    receiver = await WebhookReceiver.start(where);
  } catch (err) {
    const address = `${where.host ?? '127.0.0.1'}:${where.port ?? 0}`;
    return ctx.skip(`could not start the webhook receiver on ${address}: ${(err as Error).message}`);
  }
  try {
    const subscription = await ctx.send({
      method: hooks.subscribe.method ?? 'POST',
      path: hooks.subscribe.path,
      json: withReceiverUrl(hooks.subscribe.body, receiver.url),
    });
    if (!is2xx(subscription)) {
      return ctx.skip(`could not subscribe the audit's receiver: ${answered(subscription)}`);
    }
    const path = subscriptionPath(ctx, subscription, hooks.subscribe);
    if (path) ctx.track(path, 'webhook subscription');
    else {
      ctx.leftover(
        'webhook subscription',
        subscription.url,
        `${answered(subscription)} with no id and no Location: the audit cannot delete the subscription`,
      );
    }
    const triggers: Trigger[] = [];
    try {
      for (const expectation of hooks.expect) triggers.push(await trigger(ctx, receiver, expectation, hooks));
    } finally {
      if (path) await unsubscribe(ctx, path);
    }
    return { receiverUrl: receiver.url, subscription, triggers, deliveries: receiver.deliveries() };
  } finally {
    await receiver.close();
  }
}

/** Why the service could not reach the receiver as configured, if it cannot. */
function unreachableReason(baseUrl: string, where: WebhookReceiverConfig): string | undefined {
  if (where.publicUrl) return undefined;
  const host = where.host ?? '127.0.0.1';
  if (host === '0.0.0.0' || host === '::' || host === '[::]') {
    return `webhooks.receiver.host ${host} listens everywhere but is no address to call: set webhooks.receiver.publicUrl`;
  }
  const apiHost = new URL(baseUrl).hostname;
  if (isLoopback(host) && !isLoopback(apiHost)) {
    return `the receiver listens on ${host}, which the service at ${apiHost} cannot reach: set webhooks.receiver (host, port and publicUrl)`;
  }
  return undefined;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || /^127\./.test(host) || host === '::1' || host === '[::1]';
}

/** The subscription body with every "{{receiverUrl}}" replaced, at any depth. */
function withReceiverUrl(body: unknown, url: string): unknown {
  if (typeof body === 'string') return body.split('{{receiverUrl}}').join(url);
  if (Array.isArray(body)) return body.map((v) => withReceiverUrl(v, url));
  if (isObject(body)) {
    return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, withReceiverUrl(v, url)]));
  }
  return body;
}

/** Where the new subscription lives (relative to the base URL): its Location, else `<path>/<id>` after a POST. */
function subscriptionPath(
  ctx: CheckContext,
  x: Exchange,
  subscribe: WebhookConfig['subscribe'],
): string | undefined {
  const base = new URL(ctx.config.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  if (x.headers.location) {
    try {
      const location = new URL(x.headers.location, x.url);
      if (location.origin === base.origin && location.pathname.startsWith(`${basePath}/`)) {
        return location.pathname.slice(basePath.length);
      }
    } catch {
      // An unusable Location: fall back to the id.
    }
  }
  const id = idOf(unwrapItem(x.json, 'id'), 'id');
  if (id === undefined || (subscribe.method ?? 'POST') !== 'POST') return undefined;
  return `${subscribe.path.replace(/\/+$/, '')}/${encodeURIComponent(id)}`;
}

async function unsubscribe(ctx: CheckContext, path: string): Promise<void> {
  if (ctx.signal.aborted) return; // the cleanup ledger deletes it
  const x = await ctx.send({ method: 'DELETE', path });
  if (is2xx(x) || x.status === 404 || x.status === 410) ctx.markDeleted(path);
}

/** Performs one declared operation and waits for its event (or the time-out). */
async function trigger(
  ctx: CheckContext,
  receiver: WebhookReceiver,
  expectation: Expectation,
  hooks: WebhookConfig,
): Promise<Trigger> {
  const t: Trigger = { expectation, exchanges: [], others: [], notKept: 0 };
  const r = ctx.config.resources.find((res) => res.name === expectation.after.resource);
  const op = expectation.after.operation;
  if (!r) return { ...t, skipped: `no resource named ${expectation.after.resource}` };
  if (!r.operations.includes(op)) return { ...t, skipped: `${r.name} does not declare the ${op} operation` };
  if (op === 'update' && r.update === undefined) return { ...t, skipped: `${r.name} has no update payload` };
  // Watching starts before the triggering request: in a flood of other deliveries the receiver
  // keeps only the first ones, so the event must be matched as it arrives, not looked up later.
  let since = receiver.mark();
  let dropped = receiver.dropped().count;
  const stop = new AbortController();
  let watching: Promise<Delivery | undefined> | undefined;
  const watch = (): void => {
    since = receiver.mark();
    dropped = receiver.dropped().count;
    watching = receiver.waitFor((d) => eventOf(d, hooks.eventField) === expectation.event, {
      since,
      timeoutMs: hooks.timeoutMs,
      signal: AbortSignal.any([ctx.signal, stop.signal]),
    });
  };
  try {
    if (op === 'list') {
      watch();
      t.exchanges.push(await ctx.send({ method: 'GET', path: r.path }));
    } else {
      if (op === 'create') watch();
      const created = await ctx.create({ resource: r });
      t.exchanges.push(created.exchange);
      if (op !== 'create') {
        const method = { read: 'GET', replace: 'PUT', update: 'PATCH', delete: 'DELETE' }[op];
        const json = op === 'replace' ? r.replace : op === 'update' ? r.update : undefined;
        watch();
        const x = await ctx.send({ method, path: created.path, json });
        t.exchanges.push(x);
        if (op === 'delete' && is2xx(x)) ctx.markDeleted(created.path);
      }
    }
    const last = t.exchanges[t.exchanges.length - 1];
    if (!is2xx(last)) return { ...t, skipped: `the operation failed: ${answered(last)}` };
    t.delivery = await watching;
  } catch (err) {
    if (err instanceof SkipSignal) return { ...t, skipped: err.reason };
    throw err;
  } finally {
    stop.abort();
  }
  t.others = receiver.deliveries().filter((d) => d.seq > since && d !== t.delivery);
  t.notKept = receiver.dropped().count - dropped;
  return t;
}

/** Values seen, counted, in one short phrase: `"noise" × 400, no "type" × 2, and 3 other values`. */
function tally(values: string[], shown = 5): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const parts = [...counts].slice(0, shown).map(([v, n]) => (n > 1 ? `${v} × ${n}` : v));
  if (counts.size > shown) parts.push(`and ${counts.size - shown} other values`);
  return parts.join(', ');
}

/** "create on widgets" */
export function operationLabel(t: Trigger): string {
  return `${t.expectation.after.operation} on ${t.expectation.after.resource}`;
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

export default defineCheck({
  kind: 'active',
  id: 'webhook-delivery',
  rules: ['HOOK-DELIVERY'],
  suite: 'webhooks',
  title: 'Declared events are delivered to the subscriber as JSON',
  severity: 'error',
  scope: 'api',
  mutates: true,
  touches: 'all',
  description: {
    sends:
      "Starts the audit's own receiver (127.0.0.1, any free port, or webhooks.receiver), subscribes it as webhooks.subscribe says ({{receiverUrl}} replaced), performs each webhooks.expect operation on test data it creates, waits up to webhooks.timeoutMs for each event, and deletes the subscription.",
    passes:
      'For every declared operation, a request with a JSON body whose webhooks.eventField (a dotted path) holds the declared event arrives in time. Deliveries of other events are ignored. Skipped when the config declares no webhooks.',
    why: 'A client that subscribes stops polling: an event that never comes, comes as something other than JSON, or comes under another name is data the client silently never sees.',
  },
  async run(ctx) {
    const round = await webhookRound(ctx);
    const hooks = ctx.config.webhooks!;
    const performed = round.triggers.filter((t) => t.skipped === undefined);
    if (performed.length === 0) {
      return ctx.skip(round.triggers.map((t) => `${operationLabel(t)}: ${t.skipped}`).join('; '));
    }
    for (const t of performed) {
      if (t.delivery) continue;
      const cause = t.exchanges[t.exchanges.length - 1];
      const event = JSON.stringify(t.expectation.event);
      const evidence = [
        cause,
        ...t.others.slice(0, 3).map((d) => deliveryEvidence(d, round.receiverUrl, ctx.config.secrets)),
        round.subscription,
      ];
      // A body the receiver cut (past its limits) is no proof of a non-JSON delivery.
      const notJson = t.others.filter((d) => !d.isJson && !d.truncated);
      const names = t.others.filter((d) => d.isJson).map((d) => eventOf(d, hooks.eventField));
      let message: string;
      if (notJson.length > 0) {
        const type = notJson[0].headers['content-type'] ?? 'no Content-Type';
        message = `after ${answered(cause)}, a delivery arrived whose body is not JSON (${type}: ${short(notJson[0].text)}); expected a JSON event ${event}`;
      } else if (t.others.length > 0 || t.notKept > 0) {
        // One phrase however many arrived: each kind named once, with its count.
        const cut = t.others.length - names.length;
        const parts = [
          tally(names.map((n) => (n === undefined ? `no "${hooks.eventField}"` : short(n)))),
          cut > 0 ? `${cut} cut at the receiver's limit` : '',
          t.notKept > 0
            ? `${names.length + cut > 0 ? 'and ' : ''}${t.notKept} the receiver only counted`
            : '',
        ].filter((p) => p !== '');
        const total = t.others.length + t.notKept;
        const what =
          names.length > 0
            ? `the ${total > 1 ? `${total} ` : ''}deliveries had`
            : `${total} other deliveries arrived:`;
        message = `after ${answered(cause)}, no delivery had ${hooks.eventField} = ${event} within ${seconds(hooks.timeoutMs)}; ${what} ${parts.join(', ')}`;
      } else {
        message = `after ${answered(cause)}, no delivery reached ${round.receiverUrl} within ${seconds(hooks.timeoutMs)} (expected event ${event})`;
      }
      ctx.fail({ message, evidence });
    }
  },
});
