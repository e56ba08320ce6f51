// MTH-CHANGE: PUT and PATCH on an item answer 200 and the change is visible to a later GET.
import { defineCheck, type Created, type ResourceCheckContext } from '../../src/core/check.js';
import { valuesNotShown } from '../support/shown.js';
import { describeDifferences } from '../../src/core/values.js';
import { answered, couldNotCompare, requestLine } from '../../src/core/verdicts.js';
import { notOfferedHint } from '../support/offered.js';
import { refusalText } from '../support/refusal.js';

export default defineCheck({
  kind: 'active',
  id: 'change-visible',
  rules: ['MTH-CHANGE'],
  suite: 'methods',
  title: 'PUT and PATCH answer 200 and the change is visible',
  severity: 'error',
  // Tests an item it creates: when creating one fails, that failure is the root cause.
  dependsOn: ['create-answers-201'],
  schedule: 'own-items',
  writes: 'required',
  messages: {
    not200: 'a PUT or PATCH does not answer 200',
    readAfterNot200: 'the item does not read back (200) after a PUT or PATCH',
    changeNotVisible: 'a later GET does not show the values a PUT or PATCH sent',
  },
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
    ctx.fail({
      messageId: 'not200',
      message: `${answered(sent)}${refusalText(sent)}, expected 200${whyNot200(sent.status)}${notOfferedHint(sent)}`,
      evidence: [sent],
    });
    if (sent.status === undefined || sent.status >= 300) return;
  }
  if (!r.operations.includes('read')) return;
  const read = await ctx.send({ method: 'GET', path: created.path });
  if (read.status !== 200) {
    ctx.fail({
      messageId: 'readAfterNot200',
      message: `after ${method}, ${answered(read)}, expected 200`,
      evidence: [sent, read],
    });
    return;
  }
  // A read cut short shows no values: could not compare (not "not shown").
  const cut = couldNotCompare(read);
  if (cut !== undefined) return ctx.skip(cut);
  const differences = valuesNotShown(sent.sent ?? body, read.json, r.idField);
  if (differences.length > 0) {
    ctx.fail({
      messageId: 'changeNotVisible',
      message: `${requestLine(sent)} answered ${sent.status} but a later ${requestLine(read)} does not show the values sent: ${describeDifferences(differences)}`,
      evidence: [sent, read],
      reproduce: { kind: 'shows', at: 1, sent: sent.sent ?? body },
    });
  }
}

/**
 * Why another success status fails: the source says a successful change answers 200 (§4, rule 4),
 * so a 2xx that is not 200 is a deviation, not a valid alternative; said so the reader of a 204
 * does not take it for a false alarm.
 */
function whyNot200(status: number | undefined): string {
  if (status === undefined || status < 200 || status > 299) return '';
  const rule =
    ': the conventions answer a successful change with 200 (§4: "A successful read or change answers 200")';
  if (status === 204)
    return `${rule}, and 204 sends no body back, so the client does not see what was stored`;
  if (status === 202) return `${rule}, and 202 says the change was only accepted, not made`;
  return rule;
}
