// The webhook round as users see it: subscriptions cleaned up, secrets never shown, skips with reasons, every operation.
import { describe, expect, it } from '@jest/globals';
import { auditFixture } from '../../src/testing/check-tester.js';
import { releasedPort } from '../../src/testing/fixture-server.js';
import webhookDelivery from '../../suites/webhooks/webhook-delivery.js';
import webhookSignature from '../../suites/webhooks/webhook-signature.js';
import { reporters } from '../../src/reporters/index.js';
import { delivering, hmac, SECRET, withHooks } from './webhooks-fixtures.js';
import type { FixtureCase } from '../../src/testing/check-tester.js';
import { parseConfigText } from '../../src/config/load.js';
import { configError } from '../config/helpers.js';

const HOOKS = [webhookDelivery, webhookSignature];

async function audit(fixture: Partial<FixtureCase>) {
  return auditFixture(HOOKS, fixture);
}

const statuses = (results: { checkId: string; status: string; message?: string }[]) =>
  results.map((r) => `${r.checkId}: ${r.status}${r.message ? `: ${r.message}` : ''}`);

describe('the webhook round', () => {
  it('subscribes once for both checks and deletes the subscription at the end', async () => {
    let subscriptions = 0;
    const { result, before, after } = await audit({
      api: {
        middleware: (req) => {
          if (req.method === 'POST' && req.url === '/v1/webhooks') subscriptions++;
          return false;
        },
      },
    });
    expect(statuses(result.results)).toEqual(['webhook-delivery: passed', 'webhook-signature: passed']);
    expect(subscriptions).toBe(1);
    expect(after?.webhooks).toEqual([]);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
    expect(result.cleanup.leftovers).toEqual([]);
  });

  it('triggers update, replace and delete events too', async () => {
    const { result } = await audit({
      config: (config) =>
        withHooks(config, (h) => ({
          ...h,
          expect: [
            { after: { resource: 'widgets', operation: 'update' }, event: 'widget.updated' },
            { after: { resource: 'orders', operation: 'replace' }, event: 'order.updated' },
            { after: { resource: 'widgets', operation: 'delete' }, event: 'widget.deleted' },
          ],
        })),
    });
    expect(statuses(result.results)).toEqual(['webhook-delivery: passed', 'webhook-signature: passed']);
    expect(result.cleanup.leftovers).toEqual([]);
  });

  it('leaves cleanup to delete the subscription when deleting it failed during the check', async () => {
    let deletes = 0;
    const { result, after } = await audit({
      api: {
        middleware: (req, res) => {
          if (req.method !== 'DELETE' || !req.url?.startsWith('/v1/webhooks/') || deletes++ > 0) return false;
          res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"try later"}');
          return true;
        },
      },
    });
    expect(deletes).toBe(2);
    expect(after?.webhooks).toEqual([]);
    expect(result.cleanup.leftovers).toEqual([]);
  });

  it('reports a subscription it cannot delete', async () => {
    const { result } = await audit({
      api: {
        middleware: (req, res) => {
          if (req.method !== 'POST' || req.url !== '/v1/webhooks') return false;
          res.writeHead(202, { 'content-type': 'application/json' }).end('{"status":"accepted"}');
          return true;
        },
      },
      config: (config) => withHooks(config, (h) => ({ ...h, timeoutMs: 200 })),
    });
    expect(result.cleanup.leftovers).toEqual([
      {
        resource: 'webhook subscription',
        url: expect.stringMatching(/\/v1\/webhooks$/),
        reason:
          'POST /v1/webhooks answered 202 with no id and no Location: the audit cannot delete the subscription',
      },
    ]);
  });

  it('never shows the webhook secret, in any report format', async () => {
    const { result } = await audit(
      delivering('wrong signature', (type) => {
        const body = JSON.stringify({ type, note: `signed with ${SECRET}?` });
        return {
          body,
          headers: { 'content-type': 'application/json', 'x-signature': `sha256=${hmac(body, 'hex', 'x')}` },
        };
      }),
    );
    expect(result.results.find((r) => r.checkId === 'webhook-signature')?.status).toBe('failed');
    expect(JSON.stringify(result)).not.toContain(SECRET);
    for (const reporter of Object.values(reporters)) {
      expect(reporter.render(result, { color: false, verbose: true })).not.toContain(SECRET);
    }
    // The replayable curl line refers to the variable instead.
    expect(JSON.stringify(result)).toContain('${CONFORMANCE_WEBHOOK_SECRET}');
  });
});

describe('skips', () => {
  it('skips both checks when the config declares no webhooks', async () => {
    const { result } = await audit({ config: (config) => ({ ...config, webhooks: undefined }) });
    expect(statuses(result.results)).toEqual([
      'webhook-delivery: skipped: the config declares no webhooks',
      'webhook-signature: skipped: the config declares no webhooks',
    ]);
  });

  it('skips the signature check when no secret is configured, and still judges delivery', async () => {
    const { result } = await audit({
      config: (config) => withHooks(config, (h) => ({ ...h, signature: undefined })),
    });
    expect(statuses(result.results)).toEqual([
      'webhook-delivery: passed',
      'webhook-signature: skipped: webhooks.signature names no secret: there is no signature to check',
    ]);
  });

  it('skips when the service is elsewhere and no publicUrl says how it reaches the receiver', async () => {
    const { result } = await audit({
      config: (config) => ({ ...config, baseUrl: 'http://api.example.invalid/v1' }),
      run: { skipPreflight: true },
    });
    expect(result.results.map((r) => r.message)).toEqual([
      'the receiver listens on 127.0.0.1, which the service at api.example.invalid cannot reach: set webhooks.receiver (host, port and publicUrl)',
      'the receiver listens on 127.0.0.1, which the service at api.example.invalid cannot reach: set webhooks.receiver (host, port and publicUrl)',
    ]);
  });

  it('skips when the receiver listens on a wildcard address without a publicUrl', async () => {
    const { result } = await audit({
      config: (config) => withHooks(config, (h) => ({ ...h, receiver: { host: '0.0.0.0' } })),
    });
    expect(result.results[0].message).toBe(
      'webhooks.receiver.host 0.0.0.0 listens everywhere but is no address to call: set webhooks.receiver.publicUrl',
    );
  });

  it('sends the publicUrl as {{receiverUrl}} (here: the receiver itself, through a fixed port)', async () => {
    // A port the OS just handed out (port 0) and released: the receiver must listen on a known one here.
    const port = await releasedPort();
    let subscribed: unknown;
    const { result } = await audit({
      api: {
        middleware: (req, _res, body) => {
          if (req.method === 'POST' && req.url === '/v1/webhooks')
            subscribed = JSON.parse(body.toString()).url;
          return false;
        },
      },
      config: (config) =>
        withHooks(config, (h) => ({
          ...h,
          receiver: { host: '127.0.0.1', port, publicUrl: `http://localhost:${port}/hooks` },
        })),
    });
    expect(subscribed).toBe(`http://localhost:${port}/hooks`);
    expect(statuses(result.results)).toEqual(['webhook-delivery: passed', 'webhook-signature: passed']);
  });

  it('skips an operation the resource does not declare, and the check when none is left', async () => {
    const { result } = await audit({
      config: (config) => ({
        ...withHooks(config, (h) => ({
          ...h,
          expect: [{ after: { resource: 'widgets', operation: 'update' }, event: 'widget.updated' }],
        })),
        resources: config.resources.map((r) => ({
          ...r,
          operations: r.operations.filter((op) => op !== 'update'),
        })),
      }),
    });
    expect(result.results[0]).toMatchObject({
      status: 'skipped',
      message: 'update on widgets: widgets does not declare the update operation',
    });
  });
});

describe('config', () => {
  const base = `baseUrl: http://127.0.0.1:1/v1
resources: [{ name: widgets, path: /widgets }]
webhooks:
  subscribe: { path: /webhooks, body: { url: '{{receiverUrl}}' } }
  expect: [{ after: { resource: widgets, operation: create }, event: widget.created }]
`;

  it('reads webhooks.receiver and rateLimit.maxWaitMs', () => {
    const config = parseConfigText(
      `${base}  receiver: { host: 0.0.0.0, port: 8085, publicUrl: 'https://hooks.example.net/a' }\nrateLimit: { maxWaitMs: 5000 }\n`,
      { source: 'c.yaml' },
    );
    expect(config.webhooks?.receiver).toEqual({
      host: '0.0.0.0',
      port: 8085,
      publicUrl: 'https://hooks.example.net/a',
    });
    expect(config.rateLimit.maxWaitMs).toBe(5000);
  });

  it('names unknown receiver keys and a publicUrl that is not a URL', () => {
    const error = configError(() =>
      parseConfigText(`${base}  receiver: { hots: a, publicUrl: hooks.example.net }\n`, { source: 'c.yaml' }),
    );
    expect(error.problems.join('\n')).toMatch(/webhooks\.receiver.*hots/);
    expect(error.problems.join('\n')).toMatch(
      /webhooks\.receiver\.publicUrl: must be an absolute http\(s\) URL/,
    );
  });
});
