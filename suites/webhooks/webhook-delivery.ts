// HOOK-DELIVERY: after each declared operation, the declared event reaches the audit's receiver as JSON.
import { defineCheck } from '../../src/core/check.js';
import { short } from '../../src/core/shapes.js';
import { answered } from '../../src/core/verdicts.js';
import { eventOf, operationLabel, webhookRound } from '../support/webhooks.js';

/** Values seen, counted, in one short phrase: `"noise" × 400, no "type" × 2, and 3 other values`. */
function tally(values: string[], shown = 5): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const parts = [...counts].slice(0, shown).map(([v, n]) => (n > 1 ? `${v} × ${n}` : v));
  if (counts.size > shown) parts.push(`and ${counts.size - shown} other values`);
  return parts.join(', ');
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
  // Tests an item it creates: when creating one fails, that failure is the root cause.
  dependsOn: ['create-answers-201'],
  schedule: 'api-writes',
  writes: 'required',
  messages: {
    notJson: 'after an operation, a delivery arrived whose body is not JSON',
    eventMissing: 'after an operation, deliveries arrived but none of the expected event',
    nothingDelivered: 'after an operation, no delivery arrived in time',
  },
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
      const evidence = [cause, ...t.others.slice(0, 3).map((d) => round.evidence(d)), round.subscription];
      // A body the receiver cut (past its limits) is no proof of a non-JSON delivery.
      const notJson = t.others.filter((d) => !d.isJson && !d.truncated);
      const names = t.others.filter((d) => d.isJson).map((d) => eventOf(d, hooks.eventField));
      let message: string;
      let messageId: 'notJson' | 'eventMissing' | 'nothingDelivered';
      if (notJson.length > 0) {
        messageId = 'notJson';
        const type = notJson[0].headers['content-type'] ?? 'no Content-Type';
        message = `after ${answered(cause)}, a delivery arrived whose body is not JSON (${type}: ${short(notJson[0].text)}); expected a JSON event ${event}`;
      } else if (t.others.length > 0 || t.notKept > 0) {
        messageId = 'eventMissing';
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
        messageId = 'nothingDelivered';
        message = `after ${answered(cause)}, no delivery reached ${round.receiverUrl} within ${seconds(hooks.timeoutMs)} (expected event ${event})`;
      }
      // The script stands up its own receiver, subscribes it as the round did and replays the trigger.
      const reproduce = {
        kind: 'webhook',
        judge: 'delivery',
        at: 0,
        receiverUrl: round.receiverUrl,
        event: t.expectation.event,
      } as const;
      ctx.fail({ messageId, message, evidence, reproduce });
    }
  },
});
