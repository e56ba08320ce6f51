// CheckTester cases for the idempotency suite: IDEM-GET, IDEM-PUT, IDEM-DELETE, IDEM-KEY.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from '@jest/globals';
import { auditFixture, CheckTester } from '../../src/testing/check-tester.js';
import getChangesNothing from '../../suites/idempotency/get-changes-nothing.js';
import putRepeatable from '../../suites/idempotency/put-repeatable.js';
import deleteRepeatable from '../../suites/idempotency/delete-repeatable.js';
import idempotencyKeyOnce from '../../suites/idempotency/idempotency-key-once.js';
import type { Middleware } from '../../src/example-api/index.js';
import { VALID_VARIANTS } from './valid-variants.js';
import { isInner, jsonOf, pathOf, replay, selfRequest, sendJson } from './self-requests.js';

const tester = new CheckTester();
const WIDGET = /^\/v1\/widgets\/\d+$/;

tester.run(getChangesNothing, {
  valid: [
    ...VALID_VARIANTS,
    {
      name: 'a per-response request id in the envelope and a list order that varies between reads',
      api: {
        middleware: async (req, res) => {
          if (isInner(req) || req.method !== 'GET' || pathOf(req) !== '/v1/widgets') return false;
          const list = await selfRequest(req, 'GET', '/v1/widgets');
          const items = (list.json as { data: unknown[] }).data;
          const data = Math.random() < 0.5 ? items : [...items].reverse();
          sendJson(res, 200, {
            data,
            meta: { requestId: randomUUID(), generatedAt: new Date().toISOString() },
          });
          return true;
        },
      },
    },
    { name: 'under --read-only it reads listed items', run: { readOnly: true } },
  ],
  invalid: [
    {
      name: 'a GET of an item writes to it (updatedAt moves)',
      resource: 'widgets',
      api: {
        middleware: async (req) => {
          if (isInner(req) || req.method !== 'GET' || !WIDGET.test(pathOf(req))) return false;
          await selfRequest(req, 'PATCH', pathOf(req), {});
          return false;
        },
      },
      message: /reading the item changed it: read 2 of GET \/v1\/widgets\/\d+ differs .*\/updatedAt/,
    },
    {
      name: 'a GET of an item consumes it (the next read is 404)',
      resource: 'widgets',
      api: {
        middleware: async (req, res) => {
          if (isInner(req) || req.method !== 'GET' || !WIDGET.test(pathOf(req))) return false;
          const read = await selfRequest(req, 'GET', pathOf(req));
          if (read.status === 200) await selfRequest(req, 'DELETE', pathOf(req));
          replay(res, read);
          return true;
        },
      },
      message: /answered 200, read 2 GET \/v1\/widgets\/\d+ answered 404/,
    },
    {
      name: 'a GET of the collection removes its oldest item (queue semantics)',
      resource: 'orders',
      api: {
        middleware: async (req) => {
          if (isInner(req) || req.method !== 'GET' || pathOf(req) !== '/v1/orders') return false;
          const list = await selfRequest(req, 'GET', '/v1/orders');
          const oldest = (list.json as { data: Array<{ id: string }> }).data[0];
          if (oldest) await selfRequest(req, 'DELETE', `/v1/orders/${oldest.id}`);
          return false;
        },
      },
      message: 'reading the collection changed it',
    },
  ],
});

/** Answers every PUT on a widget itself (through the API), letting `shape` rewrite the answer. */
function putVia(shape: (answer: Record<string, unknown>, count: number) => unknown): Middleware {
  let count = 0;
  return async (req, res, body) => {
    if (isInner(req) || req.method !== 'PUT' || !WIDGET.test(pathOf(req))) return false;
    const answer = await selfRequest(req, 'PUT', pathOf(req), jsonOf(body));
    replay(
      res,
      answer,
      answer.status === 200 ? shape(answer.json as Record<string, unknown>, ++count) : answer.json,
    );
    return true;
  };
}

tester.run(putRepeatable, {
  valid: [
    ...VALID_VARIANTS,
    {
      name: 'a revision counter in every PUT answer (a server-managed field)',
      api: { middleware: putVia((item, n) => ({ ...item, revision: n })) },
    },
    {
      name: 'a field of the service named in ignoreFields changes on every PUT',
      api: { middleware: putVia((item, n) => ({ ...item, syncedAt: `sync-${n}` })) },
      config: (c) => ({ ...c, ignoreFields: ['syncedAt'] }),
    },
  ],
  invalid: [
    {
      name: 'a repeated PUT answers 409',
      resource: 'widgets',
      api: {
        middleware: (() => {
          const seen = new Set<string>();
          return (req, res) => {
            if (req.method !== 'PUT' || !WIDGET.test(pathOf(req))) return false;
            if (!seen.has(pathOf(req))) {
              seen.add(pathOf(req));
              return false;
            }
            sendJson(res, 409, { error: { code: 'conflict', message: 'already replaced' } });
            return true;
          };
        })(),
      },
      message: /repeat 2 of the same PUT \/v1\/widgets\/\d+ answered 409, the first answered 200/,
    },
    {
      name: 'each PUT appends to a list (the end state grows)',
      resource: 'widgets',
      api: {
        middleware: async (req, res, body) => {
          if (isInner(req) || req.method !== 'PUT' || !WIDGET.test(pathOf(req))) return false;
          const current = (await selfRequest(req, 'GET', pathOf(req))).json as { tags?: string[] };
          const sent = jsonOf(body) as Record<string, unknown>;
          replay(
            res,
            await selfRequest(req, 'PUT', pathOf(req), { ...sent, tags: [...(current.tags ?? []), 'again'] }),
          );
          return true;
        },
      },
      message: /the item after 3 identical PUTs differs from the item after one \(\/tags/,
    },
    {
      name: 'a repeated PUT answers another representation',
      resource: 'widgets',
      api: { middleware: putVia((item, n) => (n > 1 ? { ...item, replayed: true } : item)) },
      message: 'answered a different body than the first (/replayed',
    },
  ],
});

/**
 * DELETE of a widget answers 202 and removes it only when the next DELETE of it arrives (an
 * asynchronous delete finishing late), so the item is still readable right after the first.
 */
function asyncDelete(): Middleware {
  const pending = new Set<string>();
  return async (req, res) => {
    if (isInner(req) || req.method !== 'DELETE' || !WIDGET.test(pathOf(req))) return false;
    if (pending.has(pathOf(req))) {
      pending.delete(pathOf(req));
      await selfRequest(req, 'DELETE', pathOf(req));
    } else if ((await selfRequest(req, 'GET', pathOf(req))).status === 200) pending.add(pathOf(req));
    sendJson(res, 202, { status: 'deletion scheduled' });
    return true;
  };
}

/** After a repeated DELETE of a widget, reads of it answer the deleted item again. */
function resurrect(): Middleware {
  const items = new Map<string, { item: unknown; repeated: boolean }>();
  return async (req, res) => {
    if (isInner(req) || !WIDGET.test(pathOf(req))) return false;
    const seen = items.get(pathOf(req));
    if (req.method === 'DELETE') {
      if (seen) seen.repeated = true;
      else
        items.set(pathOf(req), { item: (await selfRequest(req, 'GET', pathOf(req))).json, repeated: false });
      return false;
    }
    if (req.method !== 'GET' || !seen?.repeated) return false;
    sendJson(res, 200, seen.item);
    return true;
  };
}

tester.run(deleteRepeatable, {
  valid: [
    ...VALID_VARIANTS,
    {
      name: 'an asynchronous DELETE (202) that finishes after the first read',
      api: { middleware: asyncDelete() },
    },
    {
      name: 'a repeated DELETE answers 410 Gone',
      api: {
        middleware: repeatDelete((res) => sendJson(res, 410, { error: { code: 'gone', message: 'gone' } })),
      },
    },
    {
      name: 'a repeated DELETE answers 409 (any non-5xx passes)',
      api: {
        middleware: repeatDelete((res) =>
          sendJson(res, 409, { error: { code: 'conflict', message: 'already deleted' } }),
        ),
      },
    },
  ],
  invalid: [
    {
      name: 'a repeated DELETE answers 500',
      resource: 'widgets',
      api: {
        middleware: repeatDelete((res) =>
          sendJson(res, 500, { error: { code: 'internal', message: 'boom' } }),
        ),
      },
      message: /repeat 2 of DELETE \/v1\/widgets\/\d+ answered 500: a repeated DELETE must not fail/,
    },
    {
      name: 'a repeated DELETE gets no answer',
      resource: 'widgets',
      api: {
        middleware: repeatDelete((res) => {
          res.socket?.destroy();
        }),
      },
      message: /repeat 2 of DELETE \/v1\/widgets\/\d+ answered nothing/,
    },
    {
      name: 'a repeated DELETE removes another item',
      resource: 'widgets',
      api: {
        middleware: repeatDelete(async (res, req) => {
          const list = await selfRequest(req, 'GET', '/v1/widgets');
          const other = (list.json as { data: Array<{ id: number }> }).data[0];
          await selfRequest(req, 'DELETE', `/v1/widgets/${other.id}`);
          sendJson(res, 404, { error: { code: 'not_found', message: 'gone' } });
        }),
      },
      message: /the collection after 3 DELETEs of \/widgets\/\d+ differs from after one: id 1, 2 vanished/,
    },
    {
      name: 'a repeated DELETE brings the item back',
      resource: 'widgets',
      api: { middleware: resurrect() },
      message:
        /after one DELETE GET \/v1\/widgets\/\d+ answered 404, after 3 GET \/v1\/widgets\/\d+ answered 200: the repeats brought the deleted item back/,
    },
  ],
});

/** Middleware that lets the first DELETE of each widget through and answers repeats with `answer`. */
function repeatDelete(
  answer: (res: ServerResponse, req: IncomingMessage) => void | Promise<void>,
): Middleware {
  const deleted = new Set<string>();
  return async (req, res) => {
    if (isInner(req) || req.method !== 'DELETE' || !WIDGET.test(pathOf(req))) return false;
    if (!deleted.has(pathOf(req))) {
      deleted.add(pathOf(req));
      return false;
    }
    await answer(res, req);
    return true;
  };
}

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
      name: 'the key is ignored: the retry creates a second item',
      resource: 'widgets',
      api: { middleware: ignoreKey },
      message: /answered id \d+, the first \d+: the retry created or named a different resource/,
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
      message: /two POSTs with the same Idempotency-Key created 2 items/,
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
      message: 'answered id 999999',
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
      message: 'expected a 4xx refusal',
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
