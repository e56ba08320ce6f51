// ERR-NOT-FOUND: an id that was never issued, and an unknown collection, answer 404.
import { defineCheck, type Exchange } from '../../src/core/check.js';
import { byQuery, itemTemplate } from '../../src/core/addressing.js';
import type { ResourceConfig } from '../../src/core/types.js';
import { answered, is2xx } from '../../src/core/verdicts.js';
import { notOfferedHint } from '../support/offered.js';

export default defineCheck({
  kind: 'active',
  id: 'not-found-404',
  rules: ['ERR-NOT-FOUND'],
  suite: 'errors',
  title: 'A resource that does not exist answers 404',
  severity: 'error',
  schedule: 'own-items',
  writes: 'when-allowed',
  messages: {
    unknownIdNot404: 'an id that was never issued does not answer 404',
    unknownCollectionNot404: 'a collection that does not exist does not answer 404',
  },
  description: {
    sends:
      'GET, PUT, PATCH and DELETE (as declared) on an id that was never issued, shaped like real ids and first proven absent; GET on an unknown collection. All with valid credentials.',
    passes:
      'Each answers 404, where a known item answers 2xx at the same item URL shape (otherwise the unknown-id probes are skipped: a URL shape the service does not serve proves nothing). A DELETE of a never-issued id may also answer 2xx (an idempotent DELETE cannot tell it from a repeat). Under --read-only only the GETs are sent.',
    why: 'Clients tell "gone" from "broken" by the 404; a 200 with an empty body or a 400/500 makes them retry, cache garbage or report the wrong error.',
  },
  async run(ctx) {
    const r = ctx.resource;
    // An unknown id answering 404 proves nothing where every item URL of that shape answers 404.
    const unserved = await ctx.itemUrlServed();
    const probes: Array<{ method: string; json?: unknown; allow2xx?: boolean }> = [];
    if (r.operations.includes('read')) probes.push({ method: 'GET' });
    if (!ctx.readOnly) {
      if (r.operations.includes('replace')) probes.push({ method: 'PUT', json: r.replace ?? r.sample ?? {} });
      if (r.operations.includes('update')) probes.push({ method: 'PATCH', json: r.update ?? r.sample ?? {} });
      if (r.operations.includes('delete')) probes.push({ method: 'DELETE', allow2xx: true });
    }
    const path = unserved === undefined ? ctx.itemPath(await ctx.unknownId()) : '';
    for (const probe of unserved === undefined ? probes : []) {
      const x = await ctx.send({ method: probe.method, path, json: probe.json });
      // A PUT or PATCH that created the item leaves data behind: have the ledger remove it.
      if (is2xx(x) && probe.method !== 'GET' && probe.method !== 'DELETE') ctx.track(path, r.name);
      if (x.status === 404 || (probe.allow2xx && is2xx(x))) continue;
      ctx.fail({
        messageId: 'unknownIdNot404',
        message: `${answered(x)}${shownBody(x)} for an id that was never issued, expected 404${probe.allow2xx ? ' (or 2xx)' : ''}${filterNote(x, r)}${notOfferedHint(x)}`,
        evidence: [x],
      });
    }
    const unknown = await ctx.send({ method: 'GET', path: unknownCollection(r.path) });
    if (unknown.status !== 404) {
      ctx.fail({
        messageId: 'unknownCollectionNot404',
        message: `${answered(unknown)} for a collection that does not exist, expected 404`,
        evidence: [unknown],
      });
    }
    if (unserved !== undefined) ctx.skip(`the unknown-id probes were not judged: ${unserved}`);
  },
});

/** A sibling collection path that no service declares: /widgets -> /widgetsnonexistent4821 (/widgets/ -> /widgetsnonexistent4821/). */
function unknownCollection(path: string): string {
  const slash = /\/+$/.exec(path)?.[0] ?? '';
  return `${path.slice(0, path.length - slash.length)}nonexistent${Math.floor(Math.random() * 9000) + 1000}${slash}`;
}

/** Bodies short enough to quote in the message ([], {}, null, a short error): what the answer said. */
const QUOTED_BODY = 60;

/** " with the body []": a short body quoted, so the message shows what the answer said; '' otherwise. */
function shownBody(x: Exchange): string {
  const text = x.text.trim();
  if (text === '' || text.length > QUOTED_BODY || x.truncated) return '';
  return ` with the body ${text}`;
}

/**
 * Why an empty list fails where the item URL is a query filter (`/widgets?id=eq.{id}`): a filter
 * that matches nothing answers `[]`, but ERR-NOT-FOUND asks for 404 for what does not exist.
 */
function filterNote(x: Exchange, r: ResourceConfig): string {
  if (!byQuery(itemTemplate(r)) || !Array.isArray(x.json) || x.json.length > 0) return '';
  return ' (the item URL is a query filter, which answers an empty list when nothing matches; the conventions ask for 404 for a resource that does not exist)';
}
