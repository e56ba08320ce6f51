// MTH-READ: GET on a collection and on an item answers 200 (which item it answers is RES-ITEM's).
import { defineCheck } from '../../src/core/check.js';
import { answered } from '../../src/core/verdicts.js';

export default defineCheck({
  kind: 'active',
  id: 'read-collection-and-item',
  rules: ['MTH-READ'],
  suite: 'methods',
  title: 'GET on a collection and on an item answers 200',
  severity: 'error',
  // Tests an item it creates: when creating one fails, that failure is the root cause.
  dependsOn: ['create-answers-201'],
  schedule: 'own-items',
  writes: 'when-allowed',
  messages: {
    collectionNot200: 'GET on the collection does not answer 200',
    itemNot200: 'GET on a known item does not answer 200',
  },
  description: {
    sends:
      'GET on the collection; GET on one item (one the audit created, or the first listed when it may not create).',
    passes:
      "Both answer 200. Whether the item URL answers the item asked for is RES-ITEM's finding (item-url-names-one), not this one.",
    why: 'Clients read state with GET and treat anything but 200 as "no data": a 202, 203 or 204 breaks every generic client and cache.',
  },
  async run(ctx) {
    const r = ctx.resource;
    if (!r.operations.includes('list') && !r.operations.includes('read'))
      ctx.skip(`${r.name} declares neither list nor read`);
    if (r.operations.includes('list')) {
      const list = await ctx.send({ method: 'GET', path: ctx.collectionPath() });
      if (list.status !== 200)
        ctx.fail({
          messageId: 'collectionNot200',
          message: `${answered(list)}, expected 200`,
          evidence: [list],
        });
    }
    if (!r.operations.includes('read')) return;
    const [item] = await ctx.items(1);
    const read = await ctx.send({ method: 'GET', path: item.path });
    // Only the status is MTH-READ's: an item URL that answers another item is RES-ITEM's finding.
    if (read.status !== 200)
      ctx.fail({ messageId: 'itemNot200', message: `${answered(read)}, expected 200`, evidence: [read] });
  },
});
