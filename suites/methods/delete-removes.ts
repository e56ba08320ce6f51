// MTH-DELETE: DELETE on an item removes it (and only it).
import { defineCheck, type CheckContext, type Exchange } from '../../src/core/check.js';
import {
  deepEqual,
  diffPaths,
  idOf,
  unwrapItemLoose,
  unwrapList,
  VOLATILE_FIELDS,
  withoutFields,
} from '../../src/core/shapes.js';
import { answered, couldNotCompare, is2xx } from '../../src/core/verdicts.js';
import { readNoise, withoutNoise } from './support/read-noise.js';
import { findListed } from '../resources/item-url-names-one.js';

export default defineCheck({
  kind: 'active',
  id: 'delete-removes',
  rules: ['MTH-DELETE'],
  suite: 'methods',
  title: 'DELETE removes the item, and only it',
  severity: 'error',
  scope: 'resource',
  mutates: true,
  description: {
    sends:
      'Creates two items; lists the collection; DELETEs the first; GETs it; GETs the second; lists again.',
    passes:
      'The DELETE answers 2xx (200, 202 or 204 all pass), the deleted item then answers 404 (or 410) and is no longer listed in the collection, and every other item is still there unchanged.',
    why: 'A delete that leaves the item readable, or removes something else, corrupts client state in ways nobody notices until data is gone.',
  },
  async run(ctx) {
    const r = ctx.resource!;
    ctx.requireOperations('delete');
    const victim = await ctx.create();
    const bystander = await ctx.create();
    const canList = r.operations.includes('list');
    const canRead = r.operations.includes('read');
    const before = canList ? await ctx.send({ method: 'GET', path: r.path }) : undefined;
    const bystanderBefore = canRead ? await ctx.send({ method: 'GET', path: bystander.path }) : undefined;

    const del = await ctx.send({ method: 'DELETE', path: victim.path });
    if (!is2xx(del)) {
      ctx.fail({ message: `${answered(del)}, expected 2xx`, evidence: [del] });
      return;
    }
    ctx.markDeleted(victim.path);
    if (canRead) {
      const gone = await ctx.send({ method: 'GET', path: victim.path });
      // No answer to the read says nothing about the item (ERR-SERVER judges the silence).
      if (gone.status === undefined) return ctx.skip(couldNotCompare(gone)!);
      if (gone.status !== 404 && gone.status !== 410) {
        ctx.fail({
          message: is2xx(gone)
            ? `after ${answered(del)}, the item is still readable: ${answered(gone)}, expected 404`
            : `after ${answered(del)}, ${answered(gone)}, expected 404 for an item that is gone`,
          evidence: [del, gone],
        });
      }
      const after = await ctx.send({ method: 'GET', path: bystander.path });
      const cut = couldNotCompare(bystanderBefore, after);
      if (cut !== undefined) return ctx.skip(cut);
      const volatile = [...VOLATILE_FIELDS, ...ctx.config.ignoreFields];
      // The item itself, not its envelope: a request id or a generation time in "meta" is no change.
      const item = (x: Exchange): unknown =>
        withoutFields(unwrapItemLoose(x.json, r.idField) ?? x.json, volatile);
      if (after.status !== 200) {
        ctx.fail({
          message: `deleting ${victim.path} also affected ${bystander.path}: ${answered(after)}`,
          evidence: [del, after],
        });
      } else if (bystanderBefore?.status === 200 && !deepEqual(item(bystanderBefore), item(after))) {
        // Members that a mere re-read changes too (a view counter) are IDEM-GET's finding, not the DELETE's.
        const again = await ctx.send({ method: 'GET', path: bystander.path });
        const unread = couldNotCompare(again);
        if (unread !== undefined) return ctx.skip(unread);
        const noise = readNoise(item(after), item(again));
        const was = withoutNoise(item(bystanderBefore), noise);
        const now = withoutNoise(item(after), noise);
        if (!deepEqual(was, now)) {
          ctx.fail({
            message: `deleting ${victim.path} changed ${bystander.path}: ${diffPaths(was, now).join(', ')}`,
            evidence: [del, bystanderBefore, after],
          });
        }
      }
    }
    if (before?.status === 200) {
      const after = await ctx.send({ method: 'GET', path: r.path });
      const cut = couldNotCompare(before, after);
      if (cut !== undefined) return ctx.skip(cut);
      const ids = (body: unknown): string[] =>
        (unwrapList(body, r.name) ?? [])
          .map((item) => idOf(item, r.idField))
          .filter((id): id is string => id !== undefined);
      const remaining = new Set(ids(after.json));
      const vanished = ids(before.json).filter((id) => id !== victim.id && !remaining.has(id));
      if (after.status === 200 && vanished.length > 0) {
        ctx.fail({
          message: `deleting ${victim.path} also removed other items from the collection: ${r.idField} ${vanished.slice(0, 5).join(', ')}`,
          evidence: [before, del, after],
        });
      }
      // A soft delete that hides the item URL but keeps listing it has not removed it. On a paged
      // collection the item may be on a later page: look there too (a few pages, or a filter by id).
      const listed = remaining.has(victim.id)
        ? { found: true, exchanges: [after] }
        : await stillListed(ctx, victim.id);
      if (after.status === 200 && listed.found) {
        ctx.fail({
          message: `after ${answered(del)}, the collection still lists the deleted item (${r.idField} ${victim.id})`,
          evidence: [del, ...listed.exchanges.slice(-1)],
        });
      }
    }
  },
});

/** Whether the collection still lists an id, on any page the audit can reach (no: absent, or not found). */
async function stillListed(
  ctx: CheckContext,
  id: string,
): Promise<{ found: boolean; exchanges: Exchange[] }> {
  const listed = await findListed(ctx, [id]);
  return {
    found: listed.inconclusive === undefined && listed.missing.length === 0,
    exchanges: listed.exchanges,
  };
}
