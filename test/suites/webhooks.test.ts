// CheckTester cases for HOOK-DELIVERY and HOOK-SIGNATURE: no delivery, non-JSON, wrong event, bad signatures; valid encodings and prefixes.
import { CheckTester } from '../../src/testing/check-tester.js';
import webhookDelivery from '../../suites/webhooks/webhook-delivery.js';
import webhookSignature from '../../suites/webhooks/webhook-signature.js';
import { VALID_VARIANTS } from './valid-variants.js';
import { delivering, hmac, SECRET, signedAs, standard, withHooks } from './webhooks-fixtures.js';

const tester = new CheckTester();

/** JSON deliveries the signature check must accept, each signed its own valid way. */
const VALID_SIGNATURES = [
  delivering(
    'base64 signatures',
    (type) => {
      const body = JSON.stringify({ type });
      return {
        body,
        headers: { 'content-type': 'application/json', 'x-signature': `sha256=${hmac(body, 'base64')}` },
      };
    },
    { hooks: signedAs({ encoding: 'base64' }) },
  ),
  delivering(
    'no prefix, another header name',
    (type) => {
      const body = JSON.stringify({ type });
      return { body, headers: { 'content-type': 'application/json', 'x-hub-signature': hmac(body) } };
    },
    { hooks: signedAs({ prefix: '', header: 'X-Hub-Signature' }) },
  ),
  delivering(
    'a v1= prefix with HMAC-SHA512',
    (type) => {
      const body = JSON.stringify({ type });
      const sig = `v1=${hmac(body, 'hex', SECRET, 'sha512')}`;
      return { body, headers: { 'content-type': 'application/json', 'x-signature': sig } };
    },
    { hooks: signedAs({ prefix: 'v1=', algorithm: 'hmac-sha512' }) },
  ),
  delivering('two signatures during a secret rotation, the second one valid', (type) => {
    const body = JSON.stringify({ type });
    const sig = `sha256=${hmac(body, 'hex', 'old-secret')}, sha256=${hmac(body)}`;
    return { body, headers: { 'content-type': 'application/json', 'x-signature': sig } };
  }),
  delivering('upper-case hex', (type) => {
    const body = JSON.stringify({ type });
    return {
      body,
      headers: { 'content-type': 'application/json', 'x-signature': `sha256=${hmac(body).toUpperCase()}` },
    };
  }),
];

tester.run(webhookDelivery, {
  valid: [
    ...VALID_VARIANTS,
    ...VALID_SIGNATURES,
    delivering('deliveries of other events first (ignored)', (type) => [
      standard('ping'),
      standard(`${type}.audit`),
      standard(type),
    ]),
    delivering(
      'the event name at a dotted path',
      (type) => {
        const body = JSON.stringify({ event: { type }, data: {} });
        return {
          body,
          headers: { 'content-type': 'application/json', 'x-signature': `sha256=${hmac(body)}` },
        };
      },
      { hooks: (h) => ({ ...h, eventField: 'event.type' }) },
    ),
    delivering('a JSON body sent as text/plain', (type) => {
      const shipment = standard(type);
      return { ...shipment, headers: { ...shipment.headers, 'content-type': 'text/plain' } };
    }),
  ],
  invalid: [
    delivering('no delivery at all', () => [], {
      // Nothing is ever sent: a wait of any length proves it, so the shortest (twice, once per event).
      hooks: (h) => ({ ...h, timeoutMs: 100 }),
      failures: [{ messageId: 'nothingDelivered' }, { messageId: 'nothingDelivered' }],
    }),
    delivering(
      'a body that is not JSON',
      (type) => ({ body: `event=${type}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      {
        failures: [{ messageId: 'notJson' }, { messageId: 'notJson' }],
      },
    ),
    delivering('the wrong event type', (type) => standard(type.replace('.created', '.create')), {
      failures: [{ messageId: 'eventMissing' }, { messageId: 'eventMissing' }],
    }),
    delivering('the event name missing', () => standard(undefined as unknown as string), {
      failures: [{ messageId: 'eventMissing' }, { messageId: 'eventMissing' }],
    }),
    {
      // The example API stores the subscription, but for events that never happen.
      name: 'the service never delivers (subscription stored, events dropped)',
      config: (config) =>
        withHooks(config, (h) => ({
          ...h,
          // Nothing matching is ever sent: a wait of any length proves it.
          timeoutMs: 100,
          subscribe: { ...h.subscribe, body: { url: '{{receiverUrl}}', events: ['nothing.*'] } },
        })),
      failures: [{ messageId: 'nothingDelivered' }, { messageId: 'nothingDelivered' }],
    },
  ],
});

tester.run(webhookSignature, {
  valid: [...VALID_VARIANTS, ...VALID_SIGNATURES],
  invalid: [
    delivering(
      'no signature header',
      (type) => ({ ...standard(type), headers: { 'content-type': 'application/json' } }),
      {
        failures: [{ messageId: 'badSignature' }, { messageId: 'badSignature' }],
      },
    ),
    delivering(
      'a signature made with another secret',
      (type) => {
        const body = JSON.stringify({ type });
        return {
          body,
          headers: {
            'content-type': 'application/json',
            'x-signature': `sha256=${hmac(body, 'hex', 'wrong-secret')}`,
          },
        };
      },
      {
        failures: [{ messageId: 'badSignature' }, { messageId: 'badSignature' }],
      },
    ),
    delivering(
      'a signature of another body (re-serialised JSON)',
      (type) => {
        const body = JSON.stringify({ type }, null, 2);
        return {
          body,
          headers: {
            'content-type': 'application/json',
            'x-signature': `sha256=${hmac(JSON.stringify({ type }))}`,
          },
        };
      },
      { failures: [{ messageId: 'badSignature' }, { messageId: 'badSignature' }] },
    ),
    delivering(
      'the right HMAC with the wrong prefix',
      (type) => {
        const body = JSON.stringify({ type });
        return { body, headers: { 'content-type': 'application/json', 'x-signature': `sha1=${hmac(body)}` } };
      },
      { failures: [{ messageId: 'badSignature' }, { messageId: 'badSignature' }] },
    ),
    delivering(
      'the right HMAC without its prefix',
      (type) => {
        const body = JSON.stringify({ type });
        return { body, headers: { 'content-type': 'application/json', 'x-signature': hmac(body) } };
      },
      { failures: [{ messageId: 'badSignature' }, { messageId: 'badSignature' }] },
    ),
    delivering(
      'hex where base64 is declared',
      (type) => {
        const body = JSON.stringify({ type });
        return {
          body,
          headers: { 'content-type': 'application/json', 'x-signature': `sha256=${hmac(body)}` },
        };
      },
      {
        hooks: signedAs({ encoding: 'base64' }),
        failures: [{ messageId: 'badSignature' }, { messageId: 'badSignature' }],
      },
    ),
  ],
});
