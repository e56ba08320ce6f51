// MTH-CHANGE: PUT and PATCH on an item answer 200 and the change is visible to a later GET.
import { defineCheck, type Created, type ResourceCheckContext } from '../../src/core/check.js';
import { valuesNotShown } from '../support/shown.js';
import { describeDifferences } from '../../src/core/values.js';
import { answered, couldNotCompare } from '../../src/core/verdicts.js';

export default defineCheck({
  kind: 'active',
  id: 'change-visible',
  rules: ['MTH-CHANGE'],
  suite: 'methods',
  title: 'PUT and PATCH answer 200 and the change is visible',
  severity: 'error',
  schedule: 'own-items',
  writes: 'required',
  description: {
    sends:
      'Creates an item, PUTs the replacement payload and GETs it; PATCHes the update payload and GETs it.',
    passes:
      'Each change answers 200, and the following GET shows every field value that was sent, compared by meaning: a number may read back as a decimal string of the same value ("3.00"), a date-time in another RFC 3339 spelling of the same instant, a date as midnight UTC of that day; a rounded number is a changed value.',
    why: "A change that answers success but is not stored silently loses the client's data; 204 or 202 breaks clients that expect the changed representation.",
  },
  async run(ctx) {
    const r = ctx.resource;
    const canPut = r.operations.includes('replace') && r.replace !== undefined;
    const canPatch = r.operations.includes('update') && r.update !== undefined;
    if (!canPut && !canPatch)
      ctx.skip(`${r.name} declares no replace (with a payload) or update (with an update payload)`);
    const created = await ctx.create();
    if (canPut) await change(ctx, created, 'PUT', r.replace);
    if (canPatch) await change(ctx, created, 'PATCH', r.update);
  },
});

async function change(
  ctx: ResourceCheckContext,
  created: Created,
  method: 'PUT' | 'PATCH',
  body: unknown,
): Promise<void> {
  const r = ctx.resource;
  const sent = await ctx.send({ method, path: created.path, json: body });
  if (sent.status !== 200) {
    ctx.fail({ message: `${answered(sent)}, expected 200`, evidence: [sent] });
    if (sent.status === undefined || sent.status >= 300) return;
  }
  if (!r.operations.includes('read')) return;
  const read = await ctx.send({ method: 'GET', path: created.path });
  if (read.status !== 200) {
    ctx.fail({ message: `after ${method}, ${answered(read)}, expected 200`, evidence: [sent, read] });
    return;
  }
  // A read cut short shows no values: could not compare (not "not shown").
  const cut = couldNotCompare(read);
  if (cut !== undefined) return ctx.skip(cut);
  const differences = valuesNotShown(sent.sent ?? body, read.json, r.idField);
  if (differences.length > 0) {
    ctx.fail({
      message: `${method} answered ${sent.status} but a later GET does not show the values sent: ${describeDifferences(differences)}`,
      evidence: [sent, read],
      reproduce: { kind: 'shows', at: 1, sent: sent.sent ?? body },
    });
  }
}
