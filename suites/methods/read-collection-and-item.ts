// MTH-READ: GET on a collection and on an item answers 200 and returns the item asked for.
import { defineCheck } from '../../src/core/check.js';
import { idOf, unwrapItemLoose, unwrapList } from '../../src/core/shapes.js';
import { answered } from '../../src/core/verdicts.js';

export default defineCheck({
  kind: 'active',
  id: 'read-collection-and-item',
  rules: ['MTH-READ'],
  suite: 'methods',
  title: 'GET on a collection and on an item answers 200',
  severity: 'error',
  scope: 'resource',
  mutates: false,
  // Works on items of its own and compares nothing else: may share the resource with its kind.
  isolation: 'shared',
  description: {
    sends:
      'GET on the collection; GET on one item (one the audit created, or the first listed when it may not create).',
    passes: 'Both answer 200; the item answer carries the id that was asked for.',
    why: 'Clients read state with GET and treat anything but 200 as "no data": a 202, 203 or 204 breaks every generic client and cache.',
  },
  async run(ctx) {
    const r = ctx.resource!;
    if (!r.operations.includes('list') && !r.operations.includes('read'))
      ctx.skip(`${r.name} declares neither list nor read`);
    let listed: string | undefined;
    if (r.operations.includes('list')) {
      const list = await ctx.send({ method: 'GET', path: ctx.collectionPath() });
      if (list.status !== 200) {
        ctx.fail({ message: `${answered(list)}, expected 200`, evidence: [list] });
      } else {
        listed = unwrapList(list.json, r.name)
          ?.map((item) => idOf(item, r.idField))
          .find(Boolean);
      }
    }
    if (!r.operations.includes('read')) return;
    let id: string | undefined;
    if (r.operations.includes('create') && r.sample !== undefined && !ctx.readOnly)
      id = (await ctx.create()).id;
    else id = listed;
    if (id === undefined)
      return ctx.skip('no item to read: cannot create one and the collection listed none');
    const read = await ctx.send({ method: 'GET', path: ctx.itemPath(id) });
    if (read.status !== 200) {
      ctx.fail({ message: `${answered(read)}, expected 200`, evidence: [read] });
      return;
    }
    const got = idOf(unwrapItemLoose(read.json, r.idField), r.idField);
    if (got !== undefined && got !== id) {
      ctx.fail({
        message: `GET ${read.url} answered the item with ${r.idField} ${got}, not ${id}`,
        evidence: [read],
      });
    }
  },
});
