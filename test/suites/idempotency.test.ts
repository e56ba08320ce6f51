// CheckTester cases for the idempotency suite: IDEM-GET, IDEM-PUT, IDEM-DELETE (IDEM-KEY: idempotency-key.test.ts).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CheckTester } from '../../src/testing/check-tester.js';
import getChangesNothing from '../../suites/idempotency/get-changes-nothing.js';
import putRepeatable from '../../suites/idempotency/put-repeatable.js';
import deleteRepeatable from '../../suites/idempotency/delete-repeatable.js';
import type { Middleware } from '../../src/example-api/index.js';
import { VALID_VARIANTS } from './valid-variants.js';
import { isInner, jsonOf, pathOf, replay, selfRequest, sendJson } from './self-requests.js';
import { altFixture } from '../../src/testing/alt-api/index.js';
import { countingViews } from './view-counter.js';

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
      failures: [{ messageId: 'representationChanged' }, { messageId: 'representationChanged' }],
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
      failures: [{ messageId: 'statusChanged' }],
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
      failures: [{ messageId: 'statusChanged' }, { messageId: 'representationChanged' }],
    },
  ],
});

/** Items whose every read moves a `views` member: each comparing check must pass it. */
const VIEW_COUNTER = {
  name: 'items count their reads in a "views" member (IDEM-GET\'s finding, no effect of the requests)',
  api: { middleware: countingViews() },
};
/** The same on the alternative API (found there first). */
const ALT_VIEW_COUNTER = {
  name: 'a view counter that every read moves, on the alternative API',
  ...altFixture({ breaks: ['view-counter'] }),
};

/** Each PUT of a widget appends an entry to its tags: the end state grows with every repeat. */
const appendsOnPut: Middleware = async (req, res, body) => {
  if (isInner(req) || req.method !== 'PUT' || !WIDGET.test(pathOf(req))) return false;
  const current = (await selfRequest(req, 'GET', pathOf(req))).json as { tags?: string[] };
  const sent = jsonOf(body) as Record<string, unknown>;
  replay(
    res,
    await selfRequest(req, 'PUT', pathOf(req), { ...sent, tags: [...(current.tags ?? []), 'again'] }),
  );
  return true;
};

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

/**
 * Every write of a widget stamps `member` with a later time, shown in its answer and in every read
 * of the widget after it (as Strapi shows publishedAt); a `stamp` gives another value instead.
 */
function stampsEveryWrite(
  member: string,
  stamp = (n: number) => new Date(Date.UTC(2026, 10, 29, 2, 0, n)).toISOString(),
): Middleware {
  const writes = new Map<string, number>();
  return async (req, res, body) => {
    if (isInner(req) || !WIDGET.test(pathOf(req))) return false;
    const path = pathOf(req);
    if (req.method === 'PUT' || req.method === 'PATCH') writes.set(path, (writes.get(path) ?? 0) + 1);
    else if (req.method !== 'GET' || !writes.has(path)) return false;
    const answer = await selfRequest(
      req,
      req.method ?? 'GET',
      path,
      req.method === 'GET' ? undefined : jsonOf(body),
    );
    const item = answer.json as Record<string, unknown>;
    replay(
      res,
      answer,
      answer.status === 200 ? { ...item, [member]: stamp(writes.get(path)!) } : answer.json,
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
      // Strapi with drafts off publishes on every write: a date-time the PUT does not send moves on.
      name: 'a publishedAt every write stamps again, in answers and reads (a server-managed field)',
      api: { middleware: stampsEveryWrite('publishedAt') },
    },
    {
      name: 'a field of the service named in ignoreFields changes on every PUT',
      api: { middleware: putVia((item, n) => ({ ...item, syncedAt: `sync-${n}` })) },
      config: (c) => ({ ...c, ignoreFields: ['syncedAt'] }),
    },
    // A view counter that every read moves is IDEM-GET's finding, not an effect of the PUTs.
    VIEW_COUNTER,
    ALT_VIEW_COUNTER,
  ],
  invalid: [
    {
      // Only a date-time that moves on is a write's stamp: a number that counts the writes is a change.
      name: 'a member that counts the writes, in answers and reads',
      api: { middleware: stampsEveryWrite('writes', (n) => n as unknown as string) },
      failures: [
        { messageId: 'endStateDiffers' },
        { messageId: 'repeatBodyDiffers' },
        { messageId: 'repeatBodyDiffers' },
      ],
    },
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
      failures: [{ messageId: 'repeatStatusDiffers' }, { messageId: 'repeatStatusDiffers' }],
    },
    {
      name: 'each PUT appends to a list (the end state grows)',
      resource: 'widgets',
      api: { middleware: appendsOnPut },
      failures: [
        { messageId: 'repeatBodyDiffers' },
        { messageId: 'repeatBodyDiffers' },
        { messageId: 'endStateDiffers' },
      ],
    },
    {
      name: 'each PUT appends to a list, and every read moves a view counter (the real change is still found)',
      resource: 'widgets',
      api: { middleware: countingViews(appendsOnPut) },
      failures: [
        { messageId: 'repeatBodyDiffers' },
        { messageId: 'repeatBodyDiffers' },
        { messageId: 'endStateDiffers' },
      ],
    },
    {
      name: 'a PUT that appends, on the alternative API whose reads move a view counter',
      ...altFixture({ breaks: ['view-counter', 'put-appends'] }),
      resource: 'addresses',
      failures: [
        { messageId: 'repeatBodyDiffers' },
        { messageId: 'repeatBodyDiffers' },
        { messageId: 'endStateDiffers' },
      ],
    },
    {
      name: 'a repeated PUT answers another representation',
      resource: 'widgets',
      api: { middleware: putVia((item, n) => (n > 1 ? { ...item, replayed: true } : item)) },
      failures: [{ messageId: 'repeatBodyDiffers' }, { messageId: 'repeatBodyDiffers' }],
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
    VIEW_COUNTER,
    ALT_VIEW_COUNTER,
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
      failures: [{ messageId: 'repeatFailed' }, { messageId: 'repeatFailed' }],
    },
    {
      name: 'a repeated DELETE gets no answer',
      resource: 'widgets',
      api: {
        middleware: repeatDelete((res) => {
          res.socket?.destroy();
        }),
      },
      failures: [{ messageId: 'repeatFailed' }, { messageId: 'repeatFailed' }],
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
      failures: [{ messageId: 'collectionDiffers' }],
    },
    {
      name: 'a repeated DELETE changes another item, and every read moves a view counter',
      resource: 'widgets',
      api: {
        middleware: countingViews(
          repeatDelete(async (res, req) => {
            const list = await selfRequest(req, 'GET', '/v1/widgets');
            const other = (list.json as { data: Array<{ id: number }> }).data[0];
            await selfRequest(req, 'PATCH', `/v1/widgets/${other.id}`, { name: 'renamed by a repeat' });
            sendJson(res, 404, { error: { code: 'not_found', message: 'gone' } });
          }),
        ),
      },
      failures: [{ messageId: 'collectionDiffers' }],
    },
    {
      name: 'a repeated DELETE brings the item back',
      resource: 'widgets',
      api: { middleware: resurrect() },
      failures: [{ messageId: 'itemCameBack' }],
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
