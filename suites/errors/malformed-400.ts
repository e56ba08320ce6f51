// ERR-MALFORMED: malformed POST/PUT/PATCH bodies are answered 400 and change nothing (422: warning).
import {
  defineCheck,
  SkipSignal,
  type CheckContext,
  type Exchange,
  type ResourceCheckContext,
} from '../../src/core/check.js';
import type { Severity } from '../../src/core/types.js';
import { deepEqual, idOf, isObject, short, unwrapList, wrappedPayload } from '../../src/core/shapes.js';
import type { Snapshot, StateDiff, StateWatch } from '../../src/core/state.js';
import { sameValue } from '../../src/core/values.js';
import { NOT_A_STRING } from '../../src/core/payloads.js';
import { is2xx, requestLine, statusText } from '../../src/core/verdicts.js';

/** One malformed (or, when `lenient`, merely unusual) body. */
interface Probe {
  label: string;
  body: string;
  /** The JSON value sent, to recognise an item it created. */
  value?: unknown;
  /** Unknown extra fields: any 2xx or 4xx passes; only a failure (5xx) fails. */
  lenient?: boolean;
}

type Kind = 'accepted' | 'crashed' | 'unprocessable' | 'other';

/** Field names probed with an unknown member: unlikely to exist in any service. */
const UNKNOWN_FIELD = 'conformanceUnknownField';
/** Labels listed in one message before "and N more". */
const SHOWN = 6;

export default defineCheck({
  kind: 'active',
  id: 'malformed-400',
  rules: ['ERR-MALFORMED'],
  suite: 'errors',
  title: 'Malformed request bodies are answered 400 and change nothing',
  severity: 'error',
  // Tests an item it creates: when creating one fails, that failure is the root cause.
  dependsOn: ['create-answers-201'],
  schedule: 'compares-collection',
  writes: 'required',
  messages: {
    malformedAccepted: 'a malformed request is accepted (2xx)',
    malformedCrashed: 'a malformed request makes the server fail (5xx or no answer)',
    answered422: 'a malformed request is answered 422 instead of 400 (warning)',
    not400: 'a malformed request is answered another status than 400',
    collectionChanged: 'a refused malformed request changed the collection',
    itemChanged: 'a refused malformed request changed an item',
  },
  description: {
    sends:
      'POST to the collection, PUT and PATCH to an item it created (as declared), each with: unparseable JSON; an empty body; a JSON array, string, number and null instead of an object; every declared invalid payload to POST, and to PUT all but those that are a valid body with fields left out, perhaps beside fields neither a valid body nor the item schema names (PUT is a change, not necessarily a whole replacement: such a PUT, like a PATCH, may be a valid partial change; a payload with a value of its own in a known field, {"quantity": 0}, still goes to PUT; payloads in an envelope, {"data": {...}}, are judged inside it); for each field of the payload, a value of another JSON type (an object for a string, a non-numeric string for a number or boolean, a string for a list or object, so that no common lenient coercion makes it valid); and the payload with an unknown extra field. The probes of a method go out together, the collection (and, for PUT/PATCH, the item) read before and after them; when that state changed, the refused ones are sent again one at a time (PUT and PATCH to a fresh item), the state read around each, so a change is pinned on the probe that made it.',
    passes:
      'Each malformed body is answered 400 and the collection (and item) is unchanged, server-managed fields such as updatedAt aside. 422 instead of 400 is a warning. 2xx (bad data stored) and 5xx (client input crashed the server) are the worst answers. For the unknown extra field any 2xx or 4xx passes (services may ignore or reject unknown fields); only a 5xx fails. Anything a malformed POST created is deleted at the end when its answer names it; an item that appeared after a refused POST is deleted only when it carries the values sent. On a shared live service another client creating items at the same moment would also show as a change: rerun to confirm.',
    why: 'Clients rely on a 400 to say "fix your request"; a malformed body that is stored corrupts data for every reader, and one that crashes the server turns a client bug into an outage.',
  },
  async run(ctx) {
    const r = ctx.resource;
    const methods: Array<{
      method: 'POST' | 'PUT' | 'PATCH';
      payload: unknown;
      /** Which declared invalid payloads it is sent. */
      sends: (invalid: unknown) => boolean;
    }> = [];
    if (r.operations.includes('create'))
      methods.push({ method: 'POST', payload: r.sample, sends: () => true });
    if (r.operations.includes('replace')) {
      const payload = r.replace ?? r.sample;
      const valid = [r.sample, r.replace, r.update];
      const named = new Set(propertiesOf(r.schema));
      methods.push({
        method: 'PUT',
        payload,
        sends: (invalid) => !mayBePartialChange(invalid, payload, valid, named),
      });
    }
    if (r.operations.includes('update'))
      methods.push({ method: 'PATCH', payload: r.update ?? r.sample, sends: () => false });
    if (methods.length === 0) return ctx.skip(`${r.name} declares none of create, replace and update`);
    // Creates there name no id: no item of the check's own, so only the POST probes run.
    if (ctx.unnamedCreate() && methods[0].method === 'POST') methods.splice(1);

    const needsItem = methods.some((m) => m.method !== 'POST');
    const target = needsItem ? await ctx.create() : undefined;
    // A read cut short leaves the state unknown (nothing is compared across it), and the check
    // ends skipped with the reason once the probes are judged.
    let cut: string | undefined;

    for (const { method, payload, sends } of methods) {
      // Where the probes go: the check's item, or a fresh one while they run again one by one.
      let item = target;
      const path = (): string => (method === 'POST' ? r.path : item!.path);
      // The collection, and for PUT/PATCH the item they go to, compared around the probes.
      const watch = (): StateWatch => ({ items: method === 'POST' || !item ? [] : [item.path] });
      const outcomes = new Map<Kind, Array<{ probe: Probe; x: Exchange }>>();
      // The probes go out together; the unknown extra field alone after them: a service that ignores
      // it writes (creates an item, changes the item), which is no finding but would have the batch
      // run again one by one. Its POST never goes where the audit could not name the item it makes.
      const probes = probesFor(payload, r.invalid, sends);
      const creating = (p: Probe): boolean => p.lenient === true && method === 'POST';
      const groups = [probes.filter((p) => !p.lenient), probes.filter((p) => p.lenient)];
      let from: Snapshot | undefined;
      for (const group of groups) {
        const steps = group.filter((p) => !(creating(p) && ctx.unnamedCreate()));
        if (steps.length === 0) continue;
        const batch = await ctx.state.batch(steps, {
          watch,
          from,
          send: (probe) => sendProbe(ctx, method, path(), probe, creating(probe)),
          compares: (_probe, x) => x !== undefined,
          // Only a refused probe's change is a finding: an accepted one fails anyway, and is not
          // sent twice (a service that stores malformed input would keep both).
          rerun: (_probe, x) => x !== undefined && !is2xx(x),
          fresh: async () => {
            if (method !== 'POST' && target) item = await ctx.create();
          },
        });
        // Back to the check's item (what the batch did to it stays, as when one by one).
        from = batch.together ? undefined : batch.last;
        item = target;
        // An item the batch made before the probes ran again one by one is the audit's too.
        if (batch.together?.collection && method === 'POST')
          adopt(ctx, batch.together.collection.after, batch.together.collection.added, steps);
        for (const { step: probe, result: x, diff } of batch.steps) {
          if (x === undefined) continue;
          const kind = judge(x, probe);
          if (kind) outcomes.set(kind, [...(outcomes.get(kind) ?? []), { probe, x }]);
          if (diff === undefined) continue;
          cut ??= diff.incomparable;
          if (diff.incomparable === undefined) judgeChange(ctx, method, probe, x, is2xx(x), diff);
        }
      }
      report(ctx, outcomes);
    }
    if (cut !== undefined) ctx.skip(cut);
  },
});

/** Sends one probe; undefined when the unknown-field POST may not go out (creates there are stopped). */
async function sendProbe(
  ctx: ResourceCheckContext,
  method: string,
  path: string,
  probe: Probe,
  creates: boolean,
): Promise<Exchange | undefined> {
  try {
    return await ctx.send({ method, path, body: probe.body, contentType: 'application/json', creates });
  } catch (err) {
    if (creates && err instanceof SkipSignal) return undefined;
    throw err;
  }
}

/**
 * Fails a refused probe that changed the collection (an item appeared or vanished) or the item it
 * went to. A POST that left a new item carrying its values is the audit's: registered for deletion.
 */
function judgeChange(
  ctx: ResourceCheckContext,
  method: string,
  probe: Probe,
  x: Exchange,
  accepted: boolean,
  diff: StateDiff,
): void {
  const r = ctx.resource;
  const list = diff.collection;
  if (list) {
    // An accepted POST is registered for deletion by the engine when its answer names the item;
    // adopting by content also catches answers that name none.
    const left = method === 'POST' ? adopt(ctx, list.after, list.added, [probe]) : [];
    if (!accepted && (list.added.length > 0 || list.vanished.length > 0)) {
      ctx.fail({
        messageId: 'collectionChanged',
        message: `${requestLine(x)} with ${probe.label} answered ${statusText(x)} but changed the collection: ${describeChange(r.idField, list.added, list.vanished)}${left.length > 0 ? ` (${r.idField} ${left.join(', ')} carries no value the audit sent, so it was not deleted: check it by hand)` : ''}`,
        evidence: [list.before, x, list.after],
      });
    }
  }
  for (const change of diff.items) {
    if (accepted) continue;
    ctx.fail({
      messageId: 'itemChanged',
      message: `${requestLine(x)} with ${probe.label} answered ${statusText(x)} but changed the item: ${change.kind === 'members' ? change.paths.join(', ') : `${requestLine(change.after)} answered ${statusText(change.after)} (was ${statusText(change.before)})`}`,
      evidence: [change.before, x, change.after],
    });
  }
}

/** What is wrong with the answer to a probe, or undefined when it passes. */
function judge(x: Exchange, probe: Probe): Kind | undefined {
  const s = x.status;
  if (s === undefined || s >= 500) return 'crashed';
  if (probe.lenient) return undefined;
  if (s === 400) return undefined;
  if (s >= 200 && s < 300) return 'accepted';
  if (s === 422) return 'unprocessable';
  return 'other';
}

/** The message id of each kind of wrong answer. */
const MALFORMED_IDS = {
  accepted: 'malformedAccepted',
  crashed: 'malformedCrashed',
  unprocessable: 'answered422',
  other: 'not400',
} as const;

/** One failure per kind of wrong answer, listing the bodies that got it. */
function report(ctx: CheckContext, outcomes: Map<Kind, Array<{ probe: Probe; x: Exchange }>>): void {
  const texts: Record<Kind, { why: string; severity: Severity }> = {
    accepted: {
      why: 'expected 400: the service accepted malformed input as if it were valid, so bad data may now be stored',
      severity: 'error',
    },
    crashed: {
      why: 'expected 400: a server error (5xx) means a client mistake crashed the service instead of being refused',
      severity: 'error',
    },
    unprocessable: { why: '400 is expected; 422 is a common alternative (warning)', severity: 'warning' },
    other: { why: 'expected 400, the status for a request the client got wrong', severity: 'error' },
  };
  for (const [kind, list] of outcomes) {
    const statuses = [...new Set(list.map(({ x }) => statusText(x)))];
    const labels = list.map(({ probe, x }) =>
      statuses.length > 1 ? `${probe.label} (${statusText(x)})` : probe.label,
    );
    const shown =
      labels.slice(0, SHOWN).join(', ') +
      (labels.length > SHOWN ? `, and ${labels.length - SHOWN} more` : '');
    ctx.fail({
      messageId: MALFORMED_IDS[kind],
      message: `${requestLine(list[0].x)} answered ${statuses.join('/')} to ${shown}; ${texts[kind].why}`,
      evidence: list.slice(0, 3).map(({ x }) => x),
      severity: texts[kind].severity,
    });
  }
}

/**
 * The malformed bodies for one method, derived from its payload and the declared invalid ones
 * (those `sends` keeps, each labelled with its place in the declared list).
 */
export function probesFor(
  payload: unknown,
  invalid: readonly unknown[],
  sends: (invalid: unknown) => boolean = () => true,
): Probe[] {
  const text = JSON.stringify(payload ?? {});
  const probes: Probe[] = [
    { label: 'unparseable JSON', body: `${text.slice(0, -1)},` },
    { label: 'an empty body', body: '' },
    { label: 'a JSON array', body: JSON.stringify([payload ?? {}]) },
    { label: 'a JSON string', body: '"conformance"' },
    { label: 'a JSON number', body: '42' },
    { label: 'JSON null', body: 'null' },
  ];
  for (const [i, value] of invalid.entries()) {
    if (!sends(value)) continue;
    probes.push({
      label: `invalid payload ${i + 1} ${short(value, 40)}`,
      body: JSON.stringify(value),
      value,
    });
  }
  if (isObject(payload)) {
    for (const [field, value] of Object.entries(payload)) {
      const wrong = wrongType(value);
      if (wrong === undefined) continue;
      const body = { ...payload, [field]: wrong };
      probes.push({ label: `"${field}": ${JSON.stringify(wrong)}`, body: JSON.stringify(body), value: body });
    }
    // A payload in an envelope ({"data": {...}}, Strapi's): each of its fields too, inside it; in a
    // JSON:API document ({"data": {"type", "attributes"}}) those of its attributes (a wrong "type"
    // is rightly 409 there).
    const wrapped = wrappedPayload(payload);
    if (wrapped) {
      const { key, inner } = wrapped;
      const attributes = isObject(inner.attributes) ? inner.attributes : undefined;
      const fields = attributes ?? inner;
      for (const [field, value] of Object.entries(fields)) {
        const wrong = wrongType(value);
        // Without attributes, a string "type" beside them still marks a JSON:API resource object.
        const jsonApiKey = typeof inner.type === 'string' && (field === 'type' || field === 'id');
        if (wrong === undefined || (!attributes && jsonApiKey)) continue;
        const body = {
          [key]: attributes
            ? { ...inner, attributes: { ...attributes, [field]: wrong } }
            : { ...inner, [field]: wrong },
        };
        const at = attributes ? `${key}.attributes.${field}` : `${key}.${field}`;
        probes.push({ label: `"${at}": ${JSON.stringify(wrong)}`, body: JSON.stringify(body), value: body });
      }
    }
    const extra = { ...payload, [UNKNOWN_FIELD]: 'x' };
    probes.push({
      label: `an unknown field "${UNKNOWN_FIELD}"`,
      body: JSON.stringify(extra),
      value: extra,
      lenient: true,
    });
  }
  return probes;
}

/**
 * Whether a declared invalid payload may be a valid PUT: the conventions make PUT a change, not
 * necessarily a whole replacement (Rails, for one, routes PUT to the same partial update as PATCH),
 * so a valid body with fields left out (a required one missing: invalid for a POST) may be a
 * change a service rightly accepts. That is a payload that leaves out a field of the valid PUT
 * body while every value it carries is one a valid body (`valid`: the sample, replace and update
 * payloads) holds in that field, or is in a field that neither a valid body nor the item schema
 * names (`named`; an unknown field, which a service may ignore). Payloads and bodies in an
 * envelope (`{"data": {...}}`, a JSON:API document's attributes) are judged inside it. A payload
 * with a value of its own ({"quantity": 0}) still goes to PUT.
 */
export function mayBePartialChange(
  invalid: unknown,
  body: unknown,
  valid: readonly unknown[] = [body],
  named: ReadonlySet<string> = new Set(),
): boolean {
  const wrapped = wrappedPayload(body);
  if (wrapped) {
    // In the envelope both share, or a bare payload beside the valid bodies' contents.
    const inner = wrappedPayload(invalid);
    if (inner && inner.key !== wrapped.key) return false;
    const contents = valid.map((v) => wrappedPayload(v)?.inner ?? v);
    return mayBePartialChange(inner ? inner.inner : invalid, wrapped.inner, contents, named);
  }
  if (!isObject(invalid) || !isObject(body)) return false;
  // JSON:API: {"type", "attributes"}, the fields in the attributes.
  if (isObject(body.attributes) && isObject(invalid.attributes)) {
    const attributes = valid.map((v) => (isObject(v) && isObject(v.attributes) ? v.attributes : v));
    return mayBePartialChange(invalid.attributes, body.attributes, attributes, named);
  }
  if (Object.keys(body).every((field) => field in invalid)) return false;
  const bodies = valid.filter(isObject);
  return Object.entries(invalid).every(([field, value]) => {
    const holding = bodies.filter((b) => field in b);
    if (holding.length === 0) return !named.has(field);
    return holding.some((b) => deepEqual(b[field], value));
  });
}

/** The properties an item schema names (top level, and those of its allOf parts). */
function propertiesOf(schema: unknown): string[] {
  if (!isObject(schema)) return [];
  const own = isObject(schema.properties) ? Object.keys(schema.properties) : [];
  const parts = Array.isArray(schema.allOf) ? schema.allOf.flatMap(propertiesOf) : [];
  return [...own, ...parts];
}

/** A value of another JSON type that no common lenient parser coerces into the original type. */
function wrongType(value: unknown): unknown {
  if (typeof value === 'string') return NOT_A_STRING;
  if (typeof value === 'number') return 'not a number';
  if (typeof value === 'boolean') return 'not a boolean';
  if (Array.isArray(value)) return 'not a list';
  if (isObject(value)) return 'not an object';
  return undefined; // null: the field's real type is unknown
}

/**
 * Registers for deletion new items that carry the values of one of the probes (they are the
 * audit's); answers the ids it left alone because nothing proves the audit made them. No more new
 * items than probes are adopted: past that, one may be another client's with the same values.
 */
function adopt(ctx: ResourceCheckContext, listed: Exchange, added: string[], probes: Probe[]): string[] {
  const r = ctx.resource;
  if (added.length === 0 || added.length > probes.length) return added;
  const entries = unwrapList(listed.json, r.name) ?? [];
  const left: string[] = [];
  for (const id of added) {
    const entry = entries.find((e) => idOf(e, r.idField) === id);
    const ours = entry !== undefined && probes.some((p) => isObject(p.value) && sameValue(p.value, entry));
    if (ours) ctx.track(ctx.itemPath(id), r.name);
    else left.push(id);
  }
  return left;
}

function describeChange(idField: string, added: string[], vanished: string[]): string {
  const parts = [];
  if (added.length > 0) parts.push(`${idField} ${added.slice(0, 5).join(', ')} appeared`);
  if (vanished.length > 0) parts.push(`${idField} ${vanished.slice(0, 5).join(', ')} vanished`);
  return parts.join(', ');
}
