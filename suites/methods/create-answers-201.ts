// MTH-CREATE: POST to a collection creates the resource, answers 201, and the item can be read back.
import { defineCheck } from '../../src/core/check.js';
import { valuesNotShown } from '../support/shown.js';
import { describeDifferences } from '../../src/core/values.js';
import { answered, couldNotCompare, is2xx } from '../../src/core/verdicts.js';
import { notOfferedHint } from '../support/offered.js';
import { refusalText } from '../support/refusal.js';

export default defineCheck({
  kind: 'active',
  id: 'create-answers-201',
  rules: ['MTH-CREATE'],
  suite: 'methods',
  title: 'POST to a collection creates: 201, and the item reads back',
  severity: 'error',
  schedule: 'own-items',
  writes: 'required',
  // What leaves the checks that test an item they create without a usable one (a 200 that created
  // the item does not: their failures are their own).
  causes: ['createRefused', 'notNewItem', 'noItemNamed', 'notReadable', 'valuesNotShown'],
  messages: {
    not201: 'POST of the sample payload answers another 2xx than 201',
    createRefused: 'POST of the sample payload is not answered 2xx: nothing is created',
    notNewItem: 'the create answer names an item the audit did not just create',
    noItemNamed: 'the create answer names no new item (no id, no usable Location)',
    notReadable: 'the created item does not read back (200)',
    valuesNotShown: 'the created item does not read back the values sent',
  },
  description: {
    sends: "POST of the resource's sample payload to the collection, then GET of the new item's URL.",
    passes:
      'The POST answers 201 and names a new item (its id field, or a Location header on the same origin); the GET answers 200 with the values sent, compared by meaning: a number may read back as a decimal string of the same value ("3.00"), a date-time in another RFC 3339 spelling of the same instant, a date as midnight UTC of that day; a rounded number is a changed value. An answer naming an item that existed before (an earlier answer showed its id) fails, and that item is never touched.',
    why: 'Clients branch on 201 to know something was created, and need its id or URL to use it.',
  },
  async run(ctx) {
    const r = ctx.resource;
    ctx.requireOperations('create');
    if (r.sample === undefined) ctx.skip(`${r.name} has no sample payload`);
    // Another check's create already named no id: that is the finding (the audit creates nothing more there).
    const unnamed = ctx.unnamedCreate();
    const post =
      unnamed?.exchange ?? (await ctx.send({ method: 'POST', path: ctx.collectionPath(), json: r.sample }));
    if (post.status !== 201) {
      const refused = !is2xx(post);
      // A refusal says why in its body (a field the service manages, one it requires): every check
      // that tests an item it creates waits on this one, so the reason is in the message.
      ctx.fail({
        messageId: refused ? 'createRefused' : 'not201',
        message: `${answered(post)}${refusalText(post)}, expected 201${notOfferedHint(post)}`,
        evidence: [post],
      });
      if (refused) return;
    }
    const adoption = ctx.creation(post);
    if (adoption?.kind === 'refused' || adoption?.kind === 'ours') {
      // Safety first: an item the audit did not create (or created before) is neither read back nor touched.
      ctx.fail({
        messageId: 'notNewItem',
        message:
          adoption.kind === 'refused'
            ? `${adoption.reason}; the audit neither changes nor deletes it`
            : `${answered(post)} naming ${r.name} ${adoption.created.id}, an item the audit had created before: the service answered an existing item instead of creating one`,
        evidence: [post],
      });
      return;
    }
    if (adoption?.kind !== 'new') {
      const location = post.headers.location
        ? `a Location header that names no ${r.name} item on the audit's origin (${post.headers.location})`
        : 'no Location header';
      ctx.fail({
        messageId: 'noItemNamed',
        message: `${answered(post)} but named no new item: no "${r.idField}" in the body and ${location}, so it cannot be read back`,
        evidence: [post],
      });
      return;
    }
    const created = adoption.created;
    if (!r.operations.includes('read')) return;
    const read = await ctx.send({ method: 'GET', path: created.path });
    if (read.status !== 200) {
      ctx.fail({
        messageId: 'notReadable',
        message: `the created item cannot be read back: ${answered(read)}, expected 200`,
        evidence: [post, read],
      });
      return;
    }
    // A read cut short shows no values: could not compare (not "not shown").
    const cut = couldNotCompare(read);
    if (cut !== undefined) return ctx.skip(cut);
    const differences = valuesNotShown(post.sent ?? r.sample, read.json, r.idField);
    if (differences.length > 0) {
      ctx.fail({
        messageId: 'valuesNotShown',
        message: `the created item does not read back the values sent: ${describeDifferences(differences)}`,
        evidence: [post, read],
        reproduce: { kind: 'shows', at: 1, sent: post.sent ?? r.sample },
      });
    }
  },
});
