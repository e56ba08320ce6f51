// Batched requests (ctx.together, ctx.state.batch, the cleanup): they reach the server together, and a change stays pinned on its request.
import { describe, expect, it } from '@jest/globals';
import type { IncomingMessage } from 'node:http';
import type { Middleware } from '../../src/example-api/index.js';
import { auditFixture, CheckTester } from '../../src/testing/check-tester.js';
import missingCredentials401 from '../../suites/auth/missing-credentials-401.js';
import forbidden403 from '../../suites/auth/forbidden-403.js';
import malformed400 from '../../suites/errors/malformed-400.js';
import createAnswers201 from '../../suites/methods/create-answers-201.js';
import {
  actAsFull,
  auth,
  chain,
  FULL,
  isItem,
  isJson,
  LIMITED,
  noAuth,
  rewriteReply,
} from '../suites/auth-fixtures.js';

/**
 * Holds the requests `when` accepts until `n` of them are at the server at once, then lets every
 * one through to the example API; counts how many were in flight together at most. A check that
 * sent them one at a time would never open it (its first request would wait out the time-out).
 */
function gate(n: number, when: (req: IncomingMessage, body: Buffer) => boolean) {
  const seen = { inFlight: 0, most: 0, total: 0 };
  let held: Array<() => void> = [];
  let open = false;
  const middleware: Middleware = async (req, res, body) => {
    if (!when(req, body)) return false;
    seen.total++;
    seen.most = Math.max(seen.most, ++seen.inFlight);
    res.on('close', () => seen.inFlight--);
    if (!open) {
      await new Promise<void>((release) => {
        held.push(release);
        if (held.length < n) return;
        open = true;
        for (const go of held) go();
        held = [];
      });
    }
    return false;
  };
  return { middleware, seen };
}

/** A POST to the widgets collection. */
const postsWidgets = (req: IncomingMessage): boolean => req.method === 'POST' && req.url === '/v1/widgets';

describe('independent requests go out together', () => {
  it("the auth matrix's writes that could act reach the server together, and pass", async () => {
    // The unauthenticated POSTs to the collection (valid and malformed body) are both writes that
    // could act: they used to go one at a time with the state read around each.
    const { middleware, seen } = gate(2, (req) => noAuth(req) && postsWidgets(req));
    const { result } = await auditFixture([missingCredentials401], { api: { middleware } });
    // In the order they ended (the resources' tasks run side by side).
    expect(result.results.map((r) => `${r.resource}: ${r.status}`).sort()).toEqual([
      'orders: passed',
      'widgets: passed',
    ]);
    expect(seen.most).toBeGreaterThanOrEqual(2);
  });

  it("malformed-400's probes reach the server together, and pass", async () => {
    const malformed = (req: IncomingMessage, body: Buffer): boolean =>
      req.headers.authorization === `Bearer ${FULL}` && postsWidgets(req) && !isJson(body);
    const { middleware, seen } = gate(2, malformed);
    const { result } = await auditFixture([malformed400], { api: { middleware } });
    expect(result.results.map((r) => `${r.resource}: ${r.status}`)).toContain('widgets: passed');
    expect(seen.most).toBeGreaterThanOrEqual(2);
  });
});

describe('cleanup', () => {
  it('deletes what the audit created together, and all of it', async () => {
    // create-answers-201 sends no DELETE: every one the gate sees is the cleanup's.
    const { middleware, seen } = gate(2, (req) => req.method === 'DELETE');
    const { result } = await auditFixture([createAnswers201], { api: { middleware } });
    expect(result.cleanup.leftovers).toEqual([]);
    expect(result.cleanup.deleted).toBe(seen.total);
    expect(seen.most).toBeGreaterThanOrEqual(2);
  });
});

/** Answers 400 to the POST of a bare JSON number, after creating an item with the sample anyway. */
const numberCreates: Middleware = async (req, res, body) => {
  if (!postsWidgets(req) || body.toString('utf8') !== '42') return false;
  const made = await fetch(`http://${req.headers.host}/v1/widgets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${FULL}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'made by a refused request', price: 1 }),
  });
  await made.arrayBuffer();
  res.writeHead(400, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: 'not an object' }));
  return true;
};

// When a batch changed the state, its requests run again one by one: the finding names the one
// request that changed it, and no other.
new CheckTester().run(malformed400, {
  valid: [],
  invalid: [
    {
      name: 'only the JSON-number POST of the batch creates an item (and answers 400)',
      resource: 'widgets',
      api: { middleware: numberCreates },
      failures: [{ messageId: 'collectionChanged', message: /^POST \S+ with a JSON number answered 400/ }],
    },
  ],
});

new CheckTester().run(missingCredentials401, {
  valid: [],
  invalid: [
    {
      name: 'only PATCH on a known item acts without credentials, among writes sent together',
      resource: 'widgets',
      api: {
        middleware: actAsFull(
          (req, body) => noAuth(req) && req.method === 'PATCH' && isItem(req) && isJson(body),
        ),
      },
      failures: [
        {
          messageId: 'actedAnyway',
          message:
            /^CRITICAL: PATCH \/v1\/widgets\/\d+ without credentials answered 200, and it acted: the item changed: \/price/,
        },
        { messageId: 'wrongRefusal' },
      ],
    },
  ],
});

/** A DELETE with the limited token. */
const limitedDelete = (req: IncomingMessage): boolean =>
  auth(req) === `Bearer ${LIMITED}` && req.method === 'DELETE';

// Every answer of AUTH-FORBIDDEN's batch is compared (a 403 may still act): only the DELETE did.
new CheckTester().run(forbidden403, {
  valid: [],
  invalid: [
    {
      name: 'only the DELETE of the writes sent together still acts behind its 403',
      resource: 'widgets',
      api: {
        middleware: chain(
          rewriteReply(limitedDelete, () => 403),
          actAsFull(limitedDelete),
        ),
      },
      failures: [
        {
          messageId: 'actedAnyway',
          message:
            /^DELETE \/v1\/widgets\/\d+ with the limited token answered 403 but still acted: the item is gone/,
        },
      ],
    },
  ],
});
