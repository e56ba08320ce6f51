// IDEM-DELETE: the same DELETE sent once or N times leaves the same end state; repeats never answer 5xx.
import { defineCheck } from '../../src/core/check.js';
import { answered, is2xx, requestLine, statusText } from '../../src/core/verdicts.js';

/** How many times the same DELETE is sent in all. */
const TIMES = 3;

export default defineCheck({
  kind: 'active',
  id: 'delete-repeatable',
  rules: ['IDEM-DELETE'],
  suite: 'idempotency',
  title: 'The same DELETE sent once or three times leaves the same state',
  severity: 'error',
  // Tests an item it creates: when creating one fails, that failure is the root cause.
  dependsOn: ['create-answers-201'],
  schedule: 'compares-collection',
  writes: 'required',
  messages: {
    repeatFailed: 'a repeated DELETE fails (5xx or no answer)',
    itemCameBack: 'the repeats brought the deleted item back',
    otherItemAffected: 'repeating the DELETE affected another item',
    collectionDiffers: 'the collection after the repeats differs from after one DELETE',
  },
  description: {
    sends:
      'Creates two items; DELETEs the first, then reads it, the other item and the collection; sends the same DELETE twice more and reads them all again.',
    passes:
      'No repeat answers 5xx or goes unanswered: any other status passes (404, 410 and 2xx are usual; the conventions judge the end state, not the status), and the state after three DELETEs is the state after one: the deleted item still gone, the other item unchanged, no other item vanished or changed in the collection (server-managed fields such as updatedAt ignored). On a shared live service another client deleting in the same moment would also show as a vanished item: rerun to confirm.',
    why: 'Clients retry a DELETE whose answer was lost; a repeat that fails with 5xx makes them believe the delete failed, and one that removes or changes anything else destroys data nobody asked to delete.',
  },
  async run(ctx) {
    const r = ctx.resource;
    ctx.requireOperations('delete');
    const canRead = r.operations.includes('read');
    const [victim, bystander] = await ctx.together(canRead ? [0, 1] : [0], () => ctx.create());

    const first = await ctx.send({ method: 'DELETE', path: victim.path });
    if (!is2xx(first)) {
      return ctx.skip(
        `the first DELETE answered ${statusText(first)}, so there is nothing to repeat (see delete-removes)`,
      );
    }
    ctx.markDeleted(victim.path);
    // The deleted item, the other one and the collection, after one DELETE and after the repeats.
    const watch = { items: [victim.path, ...(bystander ? [bystander.path] : [])] };
    const once = await ctx.state.read(watch);
    // The repeats depend on nothing but the first: they go out together.
    const repeats = await ctx.together(Array.from({ length: TIMES - 1 }), () =>
      ctx.send({ method: 'DELETE', path: victim.path }),
    );
    const after = await ctx.state.read(watch);

    for (const [i, repeat] of repeats.entries()) {
      if (repeat.status === undefined || repeat.status >= 500) {
        ctx.fail({
          messageId: 'repeatFailed',
          message: `repeat ${i + 2} of ${requestLine(first)} answered ${statusText(repeat)}: a repeated DELETE must not fail (404, 410 or 2xx are usual)`,
          evidence: [first, repeat],
        });
      }
    }
    // A read cut short proves no difference between the states: could not compare.
    const diff = await ctx.state.compare(once, after);
    if (diff.incomparable !== undefined) return ctx.skip(diff.incomparable);
    for (const { path, kind, paths, before: a, after: b } of diff.items) {
      if (path === victim.path) {
        // Gone after one DELETE but back after the repeats. (Readable after one and gone later is an
        // asynchronous delete, e.g. after a 202, finishing: not the repeats' doing.)
        if (kind === 'appeared') {
          ctx.fail({
            messageId: 'itemCameBack',
            message: `after one DELETE ${answered(a)}, after ${TIMES} ${answered(b)}: the repeats brought the deleted item back`,
            evidence: [a, ...repeats, b],
          });
        }
        continue;
      }
      const what = kind === 'members' ? paths.join(', ') : `${answered(b)} (was ${statusText(a)})`;
      ctx.fail({
        messageId: 'otherItemAffected',
        message: `repeating ${requestLine(first)} affected another item, ${path}: ${what}`,
        evidence: [...repeats, a, b],
      });
    }
    const list = diff.collection;
    if (list) {
      const vanished = list.vanished.filter((id) => id !== victim.id);
      const changed = list.changed.filter((c) => c.id !== victim.id).map((c) => c.id);
      const back = list.added.includes(victim.id);
      const problems = [
        ...(vanished.length > 0 ? [`${r.idField} ${vanished.slice(0, 5).join(', ')} vanished`] : []),
        ...(changed.length > 0 ? [`${r.idField} ${changed.slice(0, 5).join(', ')} changed`] : []),
        ...(back ? [`the deleted ${r.idField} ${victim.id} is listed again`] : []),
      ];
      if (problems.length > 0) {
        ctx.fail({
          messageId: 'collectionDiffers',
          message: `the collection after ${TIMES} DELETEs of ${victim.path} differs from after one: ${problems.join('; ')}`,
          evidence: [...repeats, list.before, list.after],
        });
      }
    }
  },
});
