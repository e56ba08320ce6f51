// IDEM-DELETE: the same DELETE sent once or N times leaves the same end state; repeats never answer 5xx.
import { defineCheck, type Exchange } from '../../src/core/check.js';
import {
  deepEqual,
  diffPaths,
  idOf,
  unwrapItemLoose,
  unwrapList,
  VOLATILE_FIELDS,
  withoutFields,
} from '../../src/core/shapes.js';
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
  scope: 'resource',
  mutates: true,
  description: {
    sends:
      'Creates two items; DELETEs the first, then reads it, the other item and the collection; sends the same DELETE twice more and reads them all again.',
    passes:
      'No repeat answers 5xx or goes unanswered: any other status passes (404, 410 and 2xx are usual; the conventions judge the end state, not the status), and the state after three DELETEs is the state after one: the deleted item still gone, the other item unchanged, no other item vanished or changed in the collection (server-managed fields such as updatedAt ignored). On a shared live service another client deleting in the same moment would also show as a vanished item: rerun to confirm.',
    why: 'Clients retry a DELETE whose answer was lost; a repeat that fails with 5xx makes them believe the delete failed, and one that removes or changes anything else destroys data nobody asked to delete.',
  },
  async run(ctx) {
    const r = ctx.resource!;
    ctx.requireOperations('delete');
    const canRead = r.operations.includes('read');
    const canList = r.operations.includes('list');
    const victim = await ctx.create();
    const bystander = canRead ? await ctx.create() : undefined;
    const volatile = [...VOLATILE_FIELDS, ...ctx.config.ignoreFields];

    const first = await ctx.send({ method: 'DELETE', path: victim.path });
    if (!is2xx(first)) {
      return ctx.skip(
        `the first DELETE answered ${statusText(first)}, so there is nothing to repeat (see delete-removes)`,
      );
    }
    ctx.markDeleted(victim.path);
    const readState = async (): Promise<Exchange[]> => [
      ...(canRead ? [await ctx.send({ method: 'GET', path: victim.path })] : []),
      ...(bystander ? [await ctx.send({ method: 'GET', path: bystander.path })] : []),
      ...(canList ? [await ctx.send({ method: 'GET', path: r.path })] : []),
    ];
    const once = await readState();
    const repeats: Exchange[] = [];
    for (let i = 1; i < TIMES; i++) repeats.push(await ctx.send({ method: 'DELETE', path: victim.path }));
    const after = await readState();

    for (const [i, repeat] of repeats.entries()) {
      if (repeat.status === undefined || repeat.status >= 500) {
        ctx.fail({
          message: `repeat ${i + 2} of ${requestLine(first)} answered ${statusText(repeat)}: a repeated DELETE must not fail (404, 410 or 2xx are usual)`,
          evidence: [first, repeat],
        });
      }
    }
    const item = (x: Exchange): unknown =>
      withoutFields(unwrapItemLoose(x.json, r.idField) ?? x.text, volatile);
    let k = 0;
    if (canRead) {
      const [a, b] = [once[k], after[k++]];
      // Gone after one DELETE but back after the repeats. (Readable after one and gone later is an
      // asynchronous delete, e.g. after a 202, finishing: not the repeats' doing.)
      if (gone(a) && !gone(b)) {
        ctx.fail({
          message: `after one DELETE ${answered(a)}, after ${TIMES} ${answered(b)}: the repeats brought the deleted item back`,
          evidence: [a, ...repeats, b],
        });
      }
    }
    if (bystander) {
      const [a, b] = [once[k], after[k++]];
      if (a.status !== b.status || !deepEqual(item(a), item(b))) {
        const what =
          a.status !== b.status
            ? `${answered(b)} (was ${statusText(a)})`
            : diffPaths(item(a), item(b)).join(', ');
        ctx.fail({
          message: `repeating ${requestLine(first)} affected another item, ${bystander.path}: ${what}`,
          evidence: [...repeats, a, b],
        });
      }
    }
    if (canList) {
      const [a, b] = [once[k], after[k]];
      const before = byId(a, r.idField, r.name, volatile);
      const later = byId(b, r.idField, r.name, volatile);
      if (a.status === 200 && b.status === 200 && before && later) {
        const vanished = [...before.keys()].filter((id) => id !== victim.id && !later.has(id));
        const changed = [...before.keys()].filter(
          (id) => later.has(id) && !deepEqual(before.get(id), later.get(id)),
        );
        const back = later.has(victim.id) && !before.has(victim.id);
        const problems = [
          ...(vanished.length > 0 ? [`${r.idField} ${vanished.slice(0, 5).join(', ')} vanished`] : []),
          ...(changed.length > 0 ? [`${r.idField} ${changed.slice(0, 5).join(', ')} changed`] : []),
          ...(back ? [`the deleted ${r.idField} ${victim.id} is listed again`] : []),
        ];
        if (problems.length > 0) {
          ctx.fail({
            message: `the collection after ${TIMES} DELETEs of ${victim.path} differs from after one: ${problems.join('; ')}`,
            evidence: [...repeats, a, b],
          });
        }
      }
    }
  },
});

/** True when a read says the item is not there (404 or 410). */
function gone(x: Exchange): boolean {
  return x.status === 404 || x.status === 410;
}

/** Listed items by id, server-managed fields removed; undefined when the body holds no list. */
function byId(
  x: Exchange,
  idField: string,
  name: string,
  volatile: string[],
): Map<string, unknown> | undefined {
  const list = unwrapList(x.json, name);
  if (!list) return undefined;
  const out = new Map<string, unknown>();
  for (const entry of list) {
    const id = idOf(entry, idField);
    if (id !== undefined) out.set(id, withoutFields(entry, volatile));
  }
  return out;
}
