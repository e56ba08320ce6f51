// RES-ITEM: /<collection>/<id> answers that one resource, and a created item is listed in its collection.
import { defineCheck } from '../../src/core/check.js';
import { idOf, unwrapItem } from '../../src/core/shapes.js';
import { answered, requestLine } from '../../src/core/verdicts.js';
import { findListed } from '../support/listed.js';
import { byQuery, itemTemplate, itemUrl } from '../../src/core/addressing.js';

export default defineCheck({
  kind: 'active',
  id: 'item-url-names-one',
  rules: ['RES-ITEM'],
  suite: 'resources',
  title: 'An item URL names exactly one resource, and created items are listed',
  severity: 'error',
  // Tests an item it creates: when creating one fails, that failure is the root cause.
  dependsOn: ['create-answers-201'],
  schedule: 'compares-collection',
  writes: 'when-allowed',
  messages: {
    otherItemAnswered: 'the URL of one item answers another item',
    missingFromCollection: 'a created item is missing from the collection',
    queryFilterItems: 'items are addressed by a query filter, not as /<collection>/<id>',
  },
  description: {
    sends:
      'Creates two items (under --read-only, or without a create operation: takes two listed items instead), GETs each item URL, and GETs the collection. When a created item is not on the first page of a paged collection it follows the "next" link or page number (at most 5 pages) and tries one filter by id (?<idField>=<id>).',
    passes:
      "Items are addressed as <path>/<id> (a query-filter item URL such as /widgets?id=eq.7 is this rule's finding; the other checks still run through it). Each item URL answers the item with that id (bare or in an envelope; numeric or string ids), and every created item is in the collection. Reading two items catches a URL that always answers the first or the latest item. When the collection is paged and the item could not be found within those few requests, that part is skipped, not failed.",
    why: 'Clients cache, link and update items by their URL; a URL that answers another item, or a list that hides new items, makes them show or overwrite the wrong data.',
  },
  async run(ctx) {
    const r = ctx.resource;
    const canRead = r.operations.includes('read');
    const canList = r.operations.includes('list');
    if (!canRead && !canList) return ctx.skip(`${r.name} declares neither the read nor the list operation`);
    const canCreate = ctx.canCreate();
    if (!canCreate && !canRead) {
      return ctx.skip(
        `${r.name} declares no read operation, and the audit cannot create items to look for in the list`,
      );
    }
    // Two items: a URL that always answers the first or the latest item answers one of them wrongly.
    const items = await ctx.items(2);

    const unjudged: string[] = [];
    let judged = 0;
    if (canRead) {
      const reads = await ctx.together(items, (item) => ctx.send({ method: 'GET', path: item.path }));
      for (const [i, item] of items.entries()) {
        const read = reads[i];
        const got = idOf(unwrapItem(read.json, r.idField), r.idField);
        if (read.status !== 200) {
          unjudged.push(`${answered(read)} (see read-collection-and-item)`);
        } else if (got === undefined) {
          unjudged.push(`${answered(read)} with no "${r.idField}" field to compare`);
        } else if (sameId(got, item.id)) {
          judged++;
        } else {
          judged++;
          ctx.fail({
            messageId: 'otherItemAnswered',
            message: `${requestLine(read)} answered the item with ${r.idField} ${got}, not ${item.id}: the URL of one resource answers another`,
            evidence: [read],
          });
        }
      }
    }
    if (canList && canCreate) {
      const listed = await findListed(
        ctx,
        items.map((i) => i.id),
      );
      if (listed.inconclusive) unjudged.push(listed.inconclusive);
      else judged++;
      if (listed.missing.length > 0) {
        const creates = items.flatMap((i) => (i.created ? [i.created.exchange] : []));
        const missing = items.filter((i) => i.created).findIndex((i) => i.id === listed.missing[0]);
        ctx.fail({
          messageId: 'missingFromCollection',
          message: `the created item${listed.missing.length > 1 ? 's' : ''} with ${r.idField} ${listed.missing.join(', ')} ${listed.missing.length > 1 ? 'are' : 'is'} missing from the collection (${listed.how})`,
          evidence: [...creates, ...listed.exchanges],
          reproduce: {
            kind: 'in-list',
            item: Math.max(0, missing),
            lists: listed.exchanges.map((_, i) => creates.length + i),
            fails: 'absent',
          },
        });
      }
    }
    const template = itemTemplate(r);
    if (byQuery(template)) {
      // The rule names the shape itself: the other checks still run through the declared template.
      const read = items[0] && canRead ? await ctx.send({ method: 'GET', path: items[0].path }) : undefined;
      ctx.fail({
        messageId: 'queryFilterItems',
        message: `items of ${r.name} are addressed by a query filter (${template}), not as /<collection>/<id>: a filter names a list of matches, not one resource`,
        evidence: [
          read ?? ctx.notSent({ path: itemUrl(r, items[0]?.id ?? '1') ?? r.path }, 'the declared item URL'),
        ],
      });
      return;
    }
    if (judged === 0) ctx.skip(`nothing could be judged: ${unjudged.join('; ')}`);
  },
});

/** Ids are compared as text; UUIDs case-insensitively. */
function sameId(a: string, b: string): boolean {
  return a === b || (/^[0-9a-f-]{32,36}$/i.test(a) && a.toLowerCase() === b.toLowerCase());
}
