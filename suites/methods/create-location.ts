// MTH-CREATE (warning): a 201 carries a Location header that leads to the new item.
import { defineCheck } from '../../src/core/check.js';
import { idOf, unwrapItemLoose, unwrapList } from '../../src/core/shapes.js';
import { answered, statusText } from '../../src/core/verdicts.js';

/** jq: the answer holds an array of objects (a list), and no id of its own at the top. */
const LISTS_ITEMS = '[.. | arrays | select(length > 0 and all(.[]; type == "object"))] | length > 0';

export default defineCheck({
  kind: 'active',
  id: 'create-location',
  rules: ['MTH-CREATE'],
  suite: 'methods',
  title: 'A 201 carries a Location header leading to the new item',
  severity: 'warning',
  // Tests an item it creates: when creating one fails, that failure is the root cause.
  dependsOn: ['create-answers-201'],
  schedule: 'own-items',
  writes: 'required',
  messages: {
    noLocation: 'a 201 carries no Location header',
    locationNotUrl: 'the Location header is not a URL',
    locationOtherOrigin: 'the Location header points to another origin',
    locationLeadsToList: 'the Location header leads to a list, not the new item',
    locationLeadsElsewhere: 'the Location header does not lead to the new item',
  },
  description: {
    sends: 'POST of the sample payload; then GET of the URL in its Location header.',
    passes: 'The 201 has a Location header, and GET on it answers 200 with the new item.',
    why: 'RFC 9110 §15.3.2: a 201 identifies the new resource with Location; generic clients follow it instead of guessing URLs.',
  },
  async run(ctx) {
    const r = ctx.resource;
    const created = await ctx.create();
    const post = created.exchange;
    if (post.status !== 201)
      ctx.skip(`the create answered ${statusText(post)} (judged by create-answers-201)`);
    const location = post.headers.location;
    if (!location) {
      ctx.fail({
        messageId: 'noLocation',
        message: `${answered(post)} with no Location header`,
        evidence: [post],
        reproduce: { kind: 'no-header', header: 'Location', at: 0 },
      });
      return;
    }
    let target: URL;
    try {
      target = new URL(location, post.url);
    } catch {
      ctx.fail({
        messageId: 'locationNotUrl',
        message: `the Location header ${JSON.stringify(location)} is not a URL`,
        evidence: [post],
      });
      return;
    }
    if (target.origin !== new URL(post.url).origin) {
      ctx.fail({
        messageId: 'locationOtherOrigin',
        message: `the Location header points to another origin (${target.origin})`,
        evidence: [post],
      });
      return;
    }
    if (!r.operations.includes('read')) return;
    const read = await ctx.send({ method: 'GET', path: target.href });
    const id = idOf(unwrapItemLoose(read.json, r.idField), r.idField);
    // An answer without an id of its own that lists items (the collection) is not the new item.
    const listed =
      id === undefined && (unwrapList(read.json, r.name) ?? []).some((e) => idOf(e, r.idField) !== undefined);
    if (read.status === 200 && listed) {
      ctx.fail({
        messageId: 'locationLeadsToList',
        message: `the Location header ${location} does not lead to the new item: ${answered(read)} with a list of items`,
        evidence: [post, read],
        // What the GET of the Location answered: a list, not the new item.
        reproduce: { kind: 'jq', at: 1, test: LISTS_ITEMS, shows: 'tostring' },
      });
      return;
    }
    if (read.status !== 200 || (id !== undefined && id !== created.id)) {
      ctx.fail({
        messageId: 'locationLeadsElsewhere',
        message: `the Location header ${location} does not lead to the new item: ${answered(read)}${id !== undefined && id !== created.id ? ` with ${r.idField} ${id}, not ${created.id}` : ''}`,
        evidence: [post, read],
      });
    }
  },
});
