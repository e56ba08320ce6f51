// HOOK-SIGNATURE: every delivery carries the HMAC of its raw body, made with the configured secret.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { defineCheck } from '../../src/core/check.js';
import type { WebhookSignatureConfig } from '../../src/core/types.js';
import { short } from '../../src/core/shapes.js';
import type { Delivery } from '../../src/core/check.js';
import { operationLabel, webhookRound, type Trigger } from '../support/webhooks.js';

const ENCODED = {
  hex: /^[0-9a-fA-F]+$/,
  // Standard and URL-safe alphabets, padded or not.
  base64: /^[A-Za-z0-9+/_-]+={0,2}$/,
};

/** True when `encoded` is `expected` in the given encoding (compared in constant time). */
function sameDigest(encoded: string, expected: Buffer, encoding: 'hex' | 'base64'): boolean {
  if (!ENCODED[encoding].test(encoded)) return false;
  const given = Buffer.from(encoded, encoding === 'hex' ? 'hex' : 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Why a delivery's signature is not valid, or undefined when it is. The header may hold several
 * values (comma- or space-separated, as during a secret rotation): one valid value is enough.
 */
export function signatureProblem(delivery: Delivery, sig: WebhookSignatureConfig): string | undefined {
  const header = delivery.headers[sig.header.toLowerCase()]?.trim();
  if (!header) return `the delivery carries no ${sig.header} header`;
  const expected = createHmac(sig.algorithm.replace(/^hmac-/i, ''), sig.secret)
    .update(delivery.body)
    .digest();
  const candidates = [header, ...header.split(/[\s,]+/)].filter((c) => c.startsWith(sig.prefix));
  if (candidates.length === 0) {
    return `${sig.header} is ${short(header, 160)}, which does not start with the prefix ${JSON.stringify(sig.prefix)}`;
  }
  if (candidates.some((c) => sameDigest(c.slice(sig.prefix.length), expected, sig.encoding)))
    return undefined;
  const cut = delivery.truncated ? ' (the body was cut at the receiver cap)' : '';
  return `${sig.header} ${short(header, 160)} is not the ${sig.algorithm} of the raw body with the configured secret, ${sig.encoding}-encoded after the prefix ${JSON.stringify(sig.prefix)}${cut}`;
}

export default defineCheck({
  kind: 'active',
  id: 'webhook-signature',
  rules: ['HOOK-SIGNATURE'],
  suite: 'webhooks',
  title: 'Webhook deliveries carry a valid signature',
  severity: 'error',
  // Tests an item it creates: when creating one fails, that failure is the root cause.
  dependsOn: ['create-answers-201'],
  schedule: 'api-writes',
  writes: 'required',
  messages: {
    badSignature: 'a delivery carries no valid signature',
  },
  description: {
    sends:
      'Nothing more than webhook-delivery: it judges the deliveries of the same round (it runs the round itself when run alone).',
    passes:
      'Each delivery of a declared event carries webhooks.signature.header holding the prefix followed by the HMAC (hmac-sha256, -sha512 or -sha1) of the raw body with the secret, hex- or base64-encoded; compared in constant time. Skipped when no secret is configured.',
    why: 'Anyone can POST to a public webhook URL; the signature is the only way a subscriber can tell a real event from a forged one.',
  },
  async run(ctx) {
    if (!ctx.config.webhooks) return ctx.skip('the config declares no webhooks');
    const sig = ctx.config.webhooks.signature;
    if (!sig) return ctx.skip('webhooks.signature names no secret: there is no signature to check');
    const round = await webhookRound(ctx);
    // The deliveries of the declared events; failing those, whatever arrived.
    let judged = round.triggers.flatMap((t): Array<{ delivery: Delivery; what: string; t?: Trigger }> =>
      t.delivery ? [{ delivery: t.delivery, what: `the ${operationLabel(t)} delivery`, t }] : [],
    );
    // Failing those, the first operation performed stands as the trigger of the script.
    const first = round.triggers.find((t) => t.skipped === undefined && t.exchanges.length > 0);
    if (judged.length === 0)
      judged = round.deliveries.map((d) => ({ delivery: d, what: 'a delivery', t: first }));
    if (judged.length === 0) {
      return ctx.skip('no delivery arrived (see webhook-delivery): there is no signature to check');
    }
    for (const { delivery, what, t } of judged) {
      const problem = signatureProblem(delivery, sig);
      if (problem === undefined) continue;
      // The triggering request goes last: the script replays it under its own receiver's subscription.
      const cause = t?.exchanges[t.exchanges.length - 1];
      ctx.fail({
        messageId: 'badSignature',
        message: `${what}: ${problem}`,
        evidence: [round.evidence(delivery), round.subscription, ...(cause ? [cause] : [])],
        reproduce: cause
          ? {
              kind: 'webhook',
              judge: 'signature',
              at: 2,
              receiverUrl: round.receiverUrl,
              event: t!.expectation.event,
            }
          : { kind: 'none', why: 'no operation of the round was performed to trigger a delivery' },
      });
    }
  },
});
