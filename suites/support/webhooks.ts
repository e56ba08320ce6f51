// The run's one webhook round (subscribe the audit's receiver, perform each declared operation, collect deliveries), judged by HOOK-DELIVERY and HOOK-SIGNATURE.
import {
  SkipSignal,
  type CheckContext,
  type Delivery,
  type Exchange,
  type WebhookReceiverHandle,
} from '../../src/core/check.js';
import type { Evidence, WebhookConfig, WebhookReceiverConfig } from '../../src/core/types.js';
import { idOf, isObject, unwrapItem } from '../../src/core/shapes.js';
import { answered, is2xx } from '../../src/core/verdicts.js';
import { withReceiverUrl } from '../../src/core/payloads.js';
import { OPERATION_METHODS } from '../../src/core/methods.js';

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
  /** A delivery as report evidence (secrets redacted, a curl line that replays it against the receiver). */
  evidence(delivery: Delivery): Evidence;
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
  let receiver: WebhookReceiverHandle;
  try {
    receiver = await ctx.webhookReceiver(where);
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
    const evidence = (d: Delivery): Evidence => receiver.evidence(d);
    return { receiverUrl: receiver.url, subscription, triggers, deliveries: receiver.deliveries(), evidence };
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
  receiver: WebhookReceiverHandle,
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
        const method = OPERATION_METHODS[op];
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

/** "create on widgets" */
export function operationLabel(t: Trigger): string {
  return `${t.expectation.after.operation} on ${t.expectation.after.resource}`;
}
