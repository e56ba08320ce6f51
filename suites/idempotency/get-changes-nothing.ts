// IDEM-GET: reading an item or a collection, again and again, changes nothing (a read must not write).
import { defineCheck, type Exchange } from '../../src/core/check.js';
import { deepEqual, diffPaths, idOf, unwrapItemLoose, unwrapList } from '../../src/core/shapes.js';
import { answered, couldNotCompare, requestLine } from '../../src/core/verdicts.js';

/** Reads of each URL compared with the first. */
const READS = 3;

export default defineCheck({
  kind: 'active',
  id: 'get-changes-nothing',
  rules: ['IDEM-GET'],
  suite: 'idempotency',
  title: 'GET leaves the state as it was',
  severity: 'error',
  schedule: 'compares-collection',
  writes: 'when-allowed',
  messages: {
    statusChanged: 'repeated reads of the same URL answer different statuses',
    representationChanged: 'repeated reads differ with no write in between',
  },
  description: {
    sends:
      'Creates an item (under --read-only, or without a create operation: takes the first listed item), then GETs the item and the collection three times each, interleaved, with no write in between (no other check touches the resource meanwhile).',
    passes:
      'Every read answers the same status and the same representation as the first, server-managed fields included: createdAt, updatedAt, etags, view counters and "last read" stamps must not move on a read. Only the item itself and the listed items are compared, not the envelope around them (a request id or a generation time in "meta" describes the response, not the state), and list order is ignored. On a shared live service another client writing to the same collection during these few milliseconds would also change the list: rerun to confirm a collection-only finding.',
    why: 'Clients, caches, crawlers and retries issue GETs freely because a read is safe; a read that writes (counts, consumes, touches) changes data every time anything looks at it.',
  },
  async run(ctx) {
    const r = ctx.resource;
    const canRead = r.operations.includes('read');
    const canList = r.operations.includes('list');
    if (!canRead && !canList) return ctx.skip(`${r.name} declares neither the read nor the list operation`);
    // An item to read (created, else the first listed); with a list to read, the check goes on without one.
    const itemPath = canRead ? (await ctx.items(1, { atLeast: canList ? 0 : 1 }))[0]?.path : undefined;
    const itemReads: Exchange[] = [];
    const listReads: Exchange[] = [];
    for (let i = 0; i < READS; i++) {
      if (itemPath !== undefined) itemReads.push(await ctx.send({ method: 'GET', path: itemPath }));
      if (canList) listReads.push(await ctx.send({ method: 'GET', path: r.path }));
    }
    const item = (x: Exchange): unknown => unwrapItemLoose(x.json, r.idField) ?? x.text;
    const list = (x: Exchange): unknown => {
      const items = unwrapList(x.json, r.name);
      return items ? sortedById(items, r.idField) : (x.json ?? x.text);
    };
    if (![...itemReads, ...listReads].some((x) => x.status === 200)) {
      return ctx.skip(
        `no read answered 200 (${answered(itemReads[0] ?? listReads[0])}): see read-collection-and-item`,
      );
    }
    const cut = couldNotCompare(...itemReads, ...listReads);
    if (cut !== undefined) return ctx.skip(cut);
    compare(itemReads, item, 'the item');
    compare(listReads, list, 'the collection');

    function compare(reads: Exchange[], repr: (x: Exchange) => unknown, what: string): void {
      const [first, ...rest] = reads;
      for (const [i, later] of rest.entries()) {
        if (later.status !== first.status) {
          ctx.fail({
            messageId: 'statusChanged',
            message: `reading ${what} changed it: the first ${requestLine(first)} answered ${first.status ?? 'nothing'}, read ${i + 2} ${answered(later)}`,
            evidence: [first, later],
            reproduce: { kind: 'differ', at: [0, 1] },
          });
          return;
        }
        if (!deepEqual(repr(first), repr(later))) {
          const diff = diffPaths(repr(first), repr(later)).join(', ');
          ctx.fail({
            messageId: 'representationChanged',
            message: `reading ${what} changed it: read ${i + 2} of ${requestLine(first)} differs from the first with no write in between (${diff})`,
            evidence: [first, later],
            reproduce: { kind: 'differ', at: [0, 1] },
          });
          return;
        }
      }
    }
  },
});

/** List items in id order, so a different order of the same items is not a change. */
function sortedById(items: unknown[], idField: string): unknown[] {
  const key = (item: unknown): string => idOf(item, idField) ?? JSON.stringify(item);
  return [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
