// CheckTester cases for IDEM-KEY: a POST retried with the same idempotency key acts once.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from '@jest/globals';
import { auditFixture, CheckTester } from '../../src/testing/check-tester.js';
import idempotencyKeyOnce from '../../suites/idempotency/idempotency-key-once.js';
import type { Middleware } from '../../src/example-api/index.js';
import { VALID_VARIANTS } from './valid-variants.js';
import { altFixture } from '../../src/testing/alt-api/index.js';
import { isInner, pathOf, replay, selfRequest, sendJson } from './self-requests.js';
import { DECIMAL_STRINGS_CASE } from './value-fixtures.js';

const tester = new CheckTester();

/** Middleware for POSTs to widgets carrying an Idempotency-Key: `handle` decides; undefined lets the API answer. */
function keyed(
  handle: (
    seen: { body: string } | undefined,
    body: string,
    req: IncomingMessage,
    res: ServerResponse,
  ) => boolean | Promise<boolean>,
): Middleware {
  const keys = new Map<string, { body: string }>();
  return async (req, res, raw) => {
    const key = req.headers['idempotency-key'];
    if (isInner(req) || req.method !== 'POST' || pathOf(req) !== '/v1/widgets' || typeof key !== 'string')
      return false;
    const body = raw.toString('utf8');
    const seen = keys.get(key);
    if (!seen) keys.set(key, { body });
    return handle(seen, body, req, res);
  };
}

/** A service that ignores the key: the header is dropped before the API sees it. */
const ignoreKey: Middleware = (req) => {
  delete req.headers['idempotency-key'];
  return false;
};

const replayAs200 = keyed(async (seen, body, req, res) => {
  if (!seen || seen.body !== body) return false;
  const key = req.headers['idempotency-key'] as string;
  const answer = await selfRequest(req, 'POST', '/v1/widgets', JSON.parse(body), { 'idempotency-key': key });
  replay(res, { ...answer, status: 200 });
  return true;
});

tester.run(idempotencyKeyOnce, {
  valid: [
    ...VALID_VARIANTS,
    { name: 'the retry replays the item with 200', api: { middleware: replayAs200 } },
    { name: 'JSON:API documents, another header name', ...altFixture({ format: 'jsonapi' }) },
    DECIMAL_STRINGS_CASE,
    {
      name: 'numbers as strings with two decimals, date-times at +02:00, dates as midnight UTC',
      ...altFixture({ values: 'decimal-strings' }),
    },
    {
      name: 'reusing the key with another body answers 422',
      api: {
        middleware: keyed((seen, body, _req, res) => {
          if (!seen || seen.body === body) return false;
          sendJson(res, 422, { error: { code: 'key_reused', message: 'key reused with another body' } });
          return true;
        }),
      },
    },
  ],
  invalid: [
    {
      // The second item is found in the collection by the values sent, read back as decimal strings.
      name: 'the retry replays the first answer but creates a second item; numbers shown as decimal strings',
      ...altFixture({ values: 'decimal-strings', breaks: ['key-replays-but-creates'] }),
      resource: 'updates',
      failures: [{ messageId: 'createdTwice' }],
    },
    {
      // Found by the alternative API: list entries are JSON:API resource objects, the sample a document.
      name: 'JSON:API: the retry replays the first answer but creates a second item',
      ...altFixture({ format: 'jsonapi', breaks: ['key-replays-but-creates'] }),
      failures: [{ messageId: 'createdTwice' }, { messageId: 'createdTwice' }],
    },
    {
      name: 'the key is ignored: the retry creates a second item',
      resource: 'widgets',
      api: { middleware: ignoreKey },
      failures: [
        { messageId: 'retryNamedOther' },
        { messageId: 'createdTwice' },
        { messageId: 'reuseNotRefused' },
      ],
    },
    {
      name: 'the key is ignored and the retry answer names no id: counted in the collection',
      resource: 'widgets',
      api: {
        middleware: keyed(async (seen, body, req, res) => {
          if (!seen) return false;
          await selfRequest(req, 'POST', '/v1/widgets', JSON.parse(body));
          sendJson(res, 201, { created: true });
          return true;
        }),
      },
      failures: [{ messageId: 'createdTwice' }, { messageId: 'reuseNotRefused' }],
    },
    {
      name: 'the retry names a different resource (without creating one)',
      resource: 'widgets',
      api: {
        middleware: (() => {
          const first = new Map<string, unknown>();
          return keyed(async (seen, body, req, res) => {
            const key = req.headers['idempotency-key'] as string;
            if (!seen) {
              const answer = await selfRequest(req, 'POST', '/v1/widgets', JSON.parse(body));
              first.set(key, answer.json);
              replay(res, answer);
            } else if (seen.body === body) {
              sendJson(res, 201, { ...(first.get(key) as object), id: 999_999 });
            } else sendJson(res, 409, { error: { code: 'conflict', message: 'key reused' } });
            return true;
          });
        })(),
      },
      failures: [{ messageId: 'retryNamedOther' }],
    },
    {
      name: 'reusing the key with another body is accepted',
      resource: 'widgets',
      api: {
        middleware: keyed((seen, body, req) => {
          // A new body under a known key is treated as a new request.
          if (seen && seen.body !== body) delete req.headers['idempotency-key'];
          return false;
        }),
      },
      failures: [{ messageId: 'reuseNotRefused' }],
      severity: 'warning',
    },
  ],
});

describe('idempotency-key-once beyond pass and fail', () => {
  it('is skipped, with the reason, for resources that do not declare idempotencyKey', async () => {
    const { result } = await auditFixture([idempotencyKeyOnce], {
      config: (c) => ({ ...c, resources: c.resources.map((r) => ({ ...r, idempotencyKey: false })) }),
    });
    const mine = result.results.filter((r) => r.checkId === 'idempotency-key-once');
    expect(mine.map((r) => [r.status, r.message])).toEqual([
      ['skipped', expect.stringContaining('does not declare idempotencyKey: true')],
      ['skipped', expect.stringContaining('does not declare idempotencyKey: true')],
    ]);
  });

  it('deletes every item the second POST created when the key is ignored', async () => {
    const { result, before, after } = await auditFixture([idempotencyKeyOnce], {
      api: { middleware: ignoreKey },
    });
    expect(result.results.some((r) => r.status === 'failed')).toBe(true);
    expect(result.cleanup.leftovers).toEqual([]);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });
});
