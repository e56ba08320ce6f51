// IDEM-PUT: the same PUT sent once or N times leaves the same end state and gets the same answer.
import { defineCheck, type Exchange } from '../../src/core/check.js';
import { deepEqual, diffPaths, VOLATILE_FIELDS, withoutFields } from '../../src/core/shapes.js';
import { itemOf, writeStamps } from '../../src/core/state.js';
import { answered, couldNotCompare, is2xx, requestLine, statusText } from '../../src/core/verdicts.js';

/** How many times the same PUT is sent in all. */
const TIMES = 3;

export default defineCheck({
  kind: 'active',
  id: 'put-repeatable',
  rules: ['IDEM-PUT'],
  suite: 'idempotency',
  title: 'The same PUT sent once or three times leaves the same state',
  severity: 'error',
  // Tests an item it creates: when creating one fails, that failure is the root cause.
  dependsOn: ['create-answers-201'],
  schedule: 'own-items',
  writes: 'required',
  messages: {
    repeatStatusDiffers: 'a repeated PUT answers another status than the first',
    repeatBodyDiffers: 'a repeated PUT answers another body than the first',
    endStateDiffers: 'the item after several identical PUTs differs from after one',
    endStatusDiffers: 'the item answers differently after several identical PUTs than after one',
  },
  description: {
    sends:
      'Creates an item; PUTs the replacement payload (default: the sample) and GETs the item; PUTs the same body twice more and GETs it again.',
    passes:
      "The two reads show the same item, and each repeated PUT answers the same status and the same representation as the first, apart from server-managed fields that change on every write (createdAt, updatedAt, etags, revision counters, the config's ignoreFields, and any date-time the PUT does not send that moves on between the reads, as Strapi's publishedAt does). Envelopes around the item are not compared.",
    why: 'Clients and proxies retry a PUT whose answer was lost; if a repeat changes anything (a counter, a duplicated list entry, an error), retrying corrupts data or reports a failure that did not happen.',
  },
  async run(ctx) {
    const r = ctx.resource;
    ctx.requireOperations('replace');
    const body = r.replace ?? r.sample;
    if (body === undefined) return ctx.skip(`${r.name} has no replace or sample payload to PUT`);
    const created = await ctx.create();
    const watch = { collection: false, items: [created.path] };
    // The very same PUT each time: payload templates ({{unique}}, {{id}}) filled once.
    const same = ctx.payload(body, created.id);

    const first = await ctx.send({ method: 'PUT', path: created.path, json: same });
    if (!is2xx(first)) {
      return ctx.skip(
        `the first PUT answered ${first.status ?? 'nothing'}, so there is nothing to repeat (see change-visible)`,
      );
    }
    const once = await ctx.state.read(watch);
    // The repeats depend on nothing but the first: they go out together.
    const repeats = await ctx.together(Array.from({ length: TIMES - 1 }), () =>
      ctx.send({ method: 'PUT', path: created.path, json: same }),
    );
    const later = await ctx.state.read(watch);
    // An answer or read cut short proves no difference: could not compare.
    const cut = couldNotCompare(first, ...repeats);
    if (cut !== undefined) return ctx.skip(cut);
    // A date-time the PUTs did not send that moved on between the reads is the write's own stamp
    // (Strapi's publishedAt with drafts off): server-managed, as updatedAt is.
    const stamps = writeStamps(once, later, same);
    const diff = await ctx.state.compare(once, later, stamps);
    if (diff.incomparable !== undefined) return ctx.skip(diff.incomparable);

    // The answers are compared as the reads are: server-managed fields and read noise left out.
    const ignore = [...VOLATILE_FIELDS, ...ctx.config.ignoreFields, ...stamps, ...diff.noise];
    const repr = (x: Exchange): unknown => withoutFields(itemOf(x, r.idField), ignore);
    for (const [i, repeat] of repeats.entries()) {
      if (repeat.status !== first.status) {
        ctx.fail({
          messageId: 'repeatStatusDiffers',
          message: `repeat ${i + 2} of the same ${requestLine(first)} answered ${statusText(repeat)}, the first answered ${first.status}`,
          evidence: [first, repeat],
        });
      } else if (!deepEqual(repr(first), repr(repeat))) {
        ctx.fail({
          messageId: 'repeatBodyDiffers',
          message: `repeat ${i + 2} of the same ${requestLine(first)} answered a different body than the first (${diffPaths(repr(first), repr(repeat)).join(', ')}; server-managed fields ignored)`,
          evidence: [first, repeat],
          reproduce: { kind: 'differ', at: [0, 1], ignore: ignore.map((f) => f.split('.').pop()!) },
        });
      }
    }
    for (const change of diff.items) {
      ctx.fail(
        change.kind === 'members'
          ? {
              messageId: 'endStateDiffers',
              message: `the item after ${TIMES} identical PUTs differs from the item after one (${change.paths.join(', ')}; server-managed fields ignored)`,
              evidence: [change.before, ...repeats, change.after],
            }
          : {
              messageId: 'endStatusDiffers',
              message: `after one PUT ${answered(change.before)}, after ${TIMES} PUTs ${answered(change.after)}`,
              evidence: [first, change.before, ...repeats, change.after],
            },
      );
    }
  },
});
