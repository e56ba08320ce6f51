// IDEM-KEY: a POST retried with the same idempotency key acts once; reusing the key for another body is refused.
import { randomUUID } from 'node:crypto';
import { defineCheck, type Exchange } from '../../src/core/check.js';
import type { ResourceConfig } from '../../src/core/types.js';
import { deepEqual, idOf, isObject, listIds, unwrapItem, unwrapList } from '../../src/core/shapes.js';
import { answered, is2xx } from '../../src/core/verdicts.js';
import { valuesNotShown } from '../support/shown.js';

export default defineCheck({
  kind: 'active',
  id: 'idempotency-key-once',
  rules: ['IDEM-KEY'],
  suite: 'idempotency',
  title: 'A POST retried with the same idempotency key acts once',
  severity: 'error',
  // Tests an item it creates: when creating one fails, that failure is the root cause.
  dependsOn: ['create-answers-201'],
  schedule: 'compares-collection',
  writes: 'required',
  messages: {
    retryNamedOther: 'a retry with the same key names a different resource',
    createdTwice: 'two POSTs with the same key created two items',
    reuseNotRefused: 'reusing a key with a different body is not refused with a 4xx',
  },
  description: {
    sends:
      'Only for resources declared with idempotencyKey: true. Lists the collection; POSTs the sample with a fresh random key in the configured header (default Idempotency-Key); POSTs the same body with the same key again; lists the collection again; then POSTs a different body (the replace payload, or the sample with one value changed) with the same key. Everything created is deleted at the end.',
    passes:
      'The retry creates nothing new: it names the same resource as the first answer (any 2xx replay passes), or refuses with a 4xx; and the collection gained exactly one item with the sent values (compared by meaning: a number read back as a decimal string of the same value, a date-time in another RFC 3339 spelling of the same instant). Warning: reusing the key with a different body is not refused with a 4xx (409 and 422 are the usual answers).',
    why: 'A client retries a POST whose answer was lost precisely so that it is not done twice; a key that is ignored charges the card twice or files the order twice.',
  },
  async run(ctx) {
    const r = ctx.resource;
    if (!r.idempotencyKey) {
      return ctx.skip(
        `${r.name} does not declare idempotencyKey: true (the conventions require keys only where a service offers them)`,
      );
    }
    ctx.requireOperations('create');
    const header = ctx.config.idempotency.header;
    const canList = r.operations.includes('list');
    const listBefore = canList ? await ctx.send({ method: 'GET', path: r.path }) : undefined;
    const before = listBefore?.status === 200 ? listIds(listBefore.json, r.idField, r.name) : undefined;

    // A bare UUID: the key format services most often require.
    const key = randomUUID();
    // One body for both POSTs: a retry repeats the very request ({{unique}} filled once).
    const body = ctx.payload(r.sample);
    const first = await ctx.create({ body, headers: { [header]: key } });
    const retry = await ctx.send({
      method: 'POST',
      path: r.path,
      json: body,
      headers: { [header]: key },
    });
    const retryId = is2xx(retry) ? idFromAnswer(retry, r) : undefined;
    if (retryId !== undefined && retryId !== first.id) {
      ctx.fail({
        messageId: 'retryNamedOther',
        message: `the retry with the same ${header} answered ${r.idField} ${retryId}, the first ${first.id}: the retry created or named a different resource`,
        evidence: [first.exchange, retry],
        reproduce: { kind: 'ids-differ', at: [0, 1] },
      });
    }

    if (before !== undefined) {
      const listAfter = await ctx.send({ method: 'GET', path: r.path });
      const entries = unwrapList(listAfter.json, r.name) ?? [];
      const known = new Set(before);
      // Only new items that carry the sent values count: another client's items are not ours.
      const ours = entries
        .filter((e) => {
          const id = idOf(e, r.idField);
          return id !== undefined && !known.has(id) && valuesNotShown(body, e, r.idField).length === 0;
        })
        .map((e) => idOf(e, r.idField)!);
      if (ours.length > 1) {
        ctx.fail({
          messageId: 'createdTwice',
          message: `two POSTs with the same ${header} created ${ours.length} items (${r.idField} ${ours.join(', ')}): the key was not honoured`,
          evidence: [listBefore!, first.exchange, retry, listAfter],
          reproduce: {
            kind: 'new-items',
            before: 0,
            after: 3,
            expected: 1,
            idField: r.idField,
            delete: r.name,
          },
        });
        // The retry's item is the audit's even when its answer named the first one: delete it at the
        // end. With more than one extra, some may be another client's: name them instead.
        const extra = ours.filter((id) => id !== first.id);
        if (extra.length === 1) ctx.track(ctx.itemPath(extra[0]), r.name);
        else {
          for (const id of extra) {
            ctx.leftover(
              r.name,
              ctx.itemPath(id),
              `new after a retried POST with the same ${header}, but may be another client's: not deleted`,
            );
          }
        }
      }
    }

    const other = differentBody(r);
    if (other === undefined) return;
    const reuse = await ctx.send({ method: 'POST', path: r.path, json: other, headers: { [header]: key } });
    if (reuse.status === undefined || reuse.status < 400 || reuse.status > 499) {
      ctx.fail({
        messageId: 'reuseNotRefused',
        message: `reusing the ${header} of an earlier POST with a different body: ${answered(reuse)}, expected a 4xx refusal (409 or 422 are usual)`,
        evidence: [first.exchange, reuse],
        severity: 'warning',
      });
    }
  },
});

/** The id a create answer names: the id field of the (unwrapped) item, else the Location's last segment. */
function idFromAnswer(x: Exchange, r: ResourceConfig): string | undefined {
  const id = idOf(unwrapItem(x.json, r.idField), r.idField);
  if (id !== undefined || !x.headers.location) return id;
  try {
    const segments = new URL(x.headers.location, x.url).pathname.split('/').filter(Boolean);
    return segments.length > 0 ? decodeURIComponent(segments[segments.length - 1]) : undefined;
  } catch {
    return undefined;
  }
}

/** A valid body unlike the sample: the replace payload, or the sample with one scalar value changed. */
function differentBody(r: ResourceConfig): unknown {
  if (r.replace !== undefined && !deepEqual(r.replace, r.sample)) return r.replace;
  if (!isObject(r.sample)) return undefined;
  for (const [k, v] of Object.entries(r.sample)) {
    if (typeof v === 'number') return { ...r.sample, [k]: v + 1 };
  }
  for (const [k, v] of Object.entries(r.sample)) {
    if (typeof v === 'string') return { ...r.sample, [k]: `${v} (2)` };
    if (typeof v === 'boolean') return { ...r.sample, [k]: !v };
  }
  return undefined;
}
