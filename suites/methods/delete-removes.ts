// MTH-DELETE: DELETE on an item removes it (and only it).
import { defineCheck, type Exchange, type ResourceCheckContext } from '../../src/core/check.js';
import { listIds } from '../../src/core/shapes.js';
import { deletedWithErrorBody, existence } from '../../src/core/error-body.js';
import { answered, couldNotCompare, is2xx } from '../../src/core/verdicts.js';
import { findListed } from '../support/listed.js';
import { byQuery, itemTemplate } from '../../src/core/addressing.js';
import type { ResourceConfig } from '../../src/core/types.js';
import { notOfferedHint } from '../support/offered.js';
import { refusalText } from '../support/refusal.js';

export default defineCheck({
  kind: 'active',
  id: 'delete-removes',
  rules: ['MTH-DELETE'],
  suite: 'methods',
  title: 'DELETE removes the item, and only it',
  severity: 'error',
  // Tests an item it creates: when creating one fails, that failure is the root cause.
  dependsOn: ['create-answers-201'],
  schedule: 'compares-collection',
  writes: 'required',
  messages: {
    deleteNot2xx: 'DELETE on an item does not answer 2xx',
    stillReadable: 'the deleted item still reads back',
    goneWithErrorBody: 'the deleted item answers a 2xx error object instead of 404',
    goneWrongStatus: 'the deleted item answers neither the item nor 404',
    otherItemChanged: 'deleting one item changed another',
    otherItemAffected: 'deleting one item made another answer differently',
    othersVanished: 'deleting one item removed others from the collection',
    stillListed: 'the collection still lists the deleted item',
  },
  description: {
    sends:
      'Creates two items; lists the collection; DELETEs the first; GETs it; GETs the second; lists again.',
    passes:
      'The DELETE answers 2xx (200, 202 or 204 all pass), the deleted item then answers 404 (or 410) and is no longer listed in the collection, and every other item is still there unchanged.',
    why: 'A delete that leaves the item readable, or removes something else, corrupts client state in ways nobody notices until data is gone.',
  },
  async run(ctx) {
    const r = ctx.resource;
    ctx.requireOperations('delete');
    const [victim, bystander] = await ctx.together([0, 1], () => ctx.create());
    // The collection and the other item, read around the DELETE.
    const watch = { items: [bystander.path] };
    const before = await ctx.state.read(watch);

    const del = await ctx.send({ method: 'DELETE', path: victim.path });
    if (!is2xx(del)) {
      ctx.fail({
        messageId: 'deleteNot2xx',
        message: `${answered(del)}${refusalText(del)}, expected 2xx${notOfferedHint(del)}`,
        evidence: [del],
      });
      return;
    }
    ctx.markDeleted(victim.path);
    // The read-back of the deleted item and the state around it do not depend on each other.
    const [gone, after] = await Promise.all([
      r.operations.includes('read') ? ctx.send({ method: 'GET', path: victim.path }) : undefined,
      ctx.state.read(watch),
    ]);
    if (gone) {
      // No answer to the read says nothing about the item (ERR-SERVER judges the silence).
      if (gone.status === undefined) return ctx.skip(couldNotCompare(gone)!);
      const now = existence(gone, r);
      if (now === 'exists') {
        ctx.fail({
          messageId: 'stillReadable',
          message: `after ${answered(del)}, the item is still readable: ${answered(gone)}, expected ${noItem(r)}`,
          evidence: [del, gone],
        });
      } else if (now === 'error-body') {
        // A 2xx error object is no item: the DELETE worked, the read-back's status is the finding.
        ctx.fail({
          messageId: 'goneWithErrorBody',
          message: `after ${answered(del)}, ${answered(gone)} with an error object in the body, expected ${noItem(r)}: ${deletedWithErrorBody(gone.status)}`,
          evidence: [del, gone],
        });
      } else if (now === 'unknown') {
        ctx.fail({
          messageId: 'goneWrongStatus',
          message: `after ${answered(del)}, ${answered(gone)}, expected ${noItem(r)} for an item that is gone`,
          evidence: [del, gone],
        });
      }
    }
    const diff = await ctx.state.compare(before, after);
    if (diff.incomparable !== undefined) return ctx.skip(diff.incomparable);
    for (const change of diff.items) {
      ctx.fail(
        change.kind === 'members'
          ? {
              messageId: 'otherItemChanged',
              message: `deleting ${victim.path} changed ${bystander.path}: ${change.paths.join(', ')}`,
              evidence: [del, change.before, change.after],
            }
          : {
              messageId: 'otherItemAffected',
              message: `deleting ${victim.path} also affected ${bystander.path}: ${answered(change.after)}`,
              evidence: [del, change.after],
            },
      );
    }
    const list = diff.collection;
    if (list) {
      const vanished = list.vanished.filter((id) => id !== victim.id);
      if (vanished.length > 0) {
        ctx.fail({
          messageId: 'othersVanished',
          message: `deleting ${victim.path} also removed other items from the collection: ${r.idField} ${vanished.slice(0, 5).join(', ')}`,
          // The creates first: a script replaying it needs an item besides the one it deletes.
          evidence: [victim.exchange, bystander.exchange, list.before, del, list.after],
          reproduce: { kind: 'others-gone', before: 2, after: 4, deleted: 3, idField: r.idField },
        });
      }
      // A soft delete that hides the item URL but keeps listing it has not removed it. On a paged
      // collection the item may be on a later page: look there too (a few pages, or a filter by id).
      const remaining = new Set(listIds(list.after.json, r.idField, r.name));
      const listed = remaining.has(victim.id)
        ? { found: true, exchanges: [list.after] }
        : await stillListed(ctx, victim.id);
      if (listed.found) {
        ctx.fail({
          messageId: 'stillListed',
          message: `after ${answered(del)}, the collection still lists the deleted item (${r.idField} ${victim.id})`,
          evidence: [del, ...listed.exchanges.slice(-1)],
          reproduce: { kind: 'in-list', item: 0, lists: [1], fails: 'present' },
        });
      }
    }
  },
});

/** Whether the collection still lists an id, on any page the audit can reach (no: absent, or not found). */
async function stillListed(
  ctx: ResourceCheckContext,
  id: string,
): Promise<{ found: boolean; exchanges: Exchange[] }> {
  const listed = await findListed(ctx, [id]);
  return {
    found: listed.inconclusive === undefined && listed.missing.length === 0,
    exchanges: listed.exchanges,
  };
}

/**
 * The answers that say "no such item": 404, and for an item addressed by a query filter
 * (`/widgets?id=eq.{id}`) also 200 with an empty list, which existence() accepts as gone.
 */
function noItem(r: Pick<ResourceConfig, 'item' | 'path'>): string {
  return byQuery(itemTemplate(r))
    ? '404, or 200 with an empty list [] (the item is addressed by a query filter, so no match reads as no item)'
    : '404';
}
