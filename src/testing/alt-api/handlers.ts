// Operations of the alternative API: list, read, create (with idempotency keys), PUT, merge-patch PATCH, DELETE.
import { createHash } from 'node:crypto';
import { errorReply, itemReply, itemUrl, LIST_PARAMS, listReply, type Reply, type Where } from './reply.js';
import { mergePatch, validate, writable, type AltResource } from './resources.js';
import { SEED_TIME, type AltStore, type StoredRecord } from './store.js';

/** What an operation needs besides the store. */
export interface OpRequest {
  method: string;
  r: AltResource;
  /** The item id (decoded), for item URLs. */
  id?: string;
  /** Parsed JSON body (an object, or an array/null only where a break lets it through). */
  body?: unknown;
  /** Raw body text, for idempotency fingerprints. */
  raw: string;
  query: URLSearchParams;
  token: string;
  idempotencyKey?: string;
  where: Where;
}

/** Stored answers of keyed POSTs: the body fingerprint and the reply to replay. */
export type KeyStore = Map<string, { fingerprint: string; reply: Reply }>;

export function runOperation(store: AltStore, keys: KeyStore, req: OpRequest): Reply {
  const { r, where } = req;
  const breaks = where.opts.breaks;
  if (req.id === undefined) {
    if (req.method === 'GET') {
      const known = where.opts.format === 'jsonapi' ? ['page[number]'] : LIST_PARAMS[where.opts.lists];
      const unknown = [...req.query.keys()].filter((k) => !known.includes(k));
      if (where.opts.unknownQuery === 'reject' && unknown.length > 0) {
        return errorReply(where, 400, 'bad_request', { detail: `Unknown query parameter "${unknown[0]}"` });
      }
      // The list-hides-new break serves a stale cache: the seed records only.
      const records = store
        .all(r.name)
        .filter((rec) => !breaks.has('list-hides-new') || rec.createdAt === SEED_TIME);
      return listReply(r, records, where, req.query);
    }
    return create(store, keys, req);
  }
  const rec = store.find(r.name, req.id);
  const gone = rec === undefined || (rec.deletedAt !== undefined && req.method !== 'DELETE');
  if (req.method === 'DELETE') return remove(store, req, rec);
  if (gone) {
    if (req.method === 'PUT' && breaks.has('put-upsert')) {
      const problems = validate(r, asObject(req.body), where.opts.unknownFields);
      if (problems.length > 0) return invalid(req, problems);
      const made = store.insertWithId(r, req.id, writable(r, asObject(req.body)));
      return itemReply(201, r, made, where, { Location: itemUrl(r, made.id, where) });
    }
    return notFound(req, store);
  }
  if (req.method === 'GET') {
    if (breaks.has('view-counter')) rec.views = (rec.views ?? 0) + 1;
    return itemReply(200, r, rec, where);
  }
  if (req.method === 'PUT') {
    const body = asObject(req.body);
    const problems = validate(r, body, where.opts.unknownFields);
    if (problems.length > 0) return invalid(req, problems);
    let fields = writable(r, body);
    if (breaks.has('put-appends')) fields = appendLists(rec.fields, fields);
    store.write(rec, fields);
    return itemReply(200, r, rec, where);
  }
  // PATCH: a JSON merge patch (RFC 7396) of the client fields.
  if (breaks.has('null-patch-ok') && req.body === null) return itemReply(200, r, rec, where);
  const patch = asObject(req.body);
  const merged = asObject(mergePatch(rec.fields, patch));
  const problems = validate(r, merged, where.opts.unknownFields);
  if (problems.length > 0) return invalid(req, problems);
  if (breaks.has('patch-ignored')) return itemReply(200, r, rec, where);
  store.write(rec, writable(r, merged));
  return itemReply(200, r, rec, where);
}

function create(store: AltStore, keys: KeyStore, req: OpRequest): Reply {
  const { r, where } = req;
  const breaks = where.opts.breaks;
  if (Array.isArray(req.body) && breaks.has('array-batch-create')) {
    const made = req.body.map((entry) => store.insert(r, writable(r, asObject(entry))));
    return { status: 201, headers: {}, body: { created: made.length } };
  }
  const keyId = req.idempotencyKey ? `${req.token} ${r.name} ${req.idempotencyKey}` : undefined;
  const fingerprint = createHash('sha256').update(req.raw).digest('hex');
  const earlier = keyId ? keys.get(keyId) : undefined;
  if (earlier && earlier.fingerprint !== fingerprint && !breaks.has('key-reuse-replays')) {
    return errorReply(where, 422, 'idempotency_key_reused', {
      detail: `${where.opts.idempotencyHeader} was already used with a different payload`,
    });
  }
  if (earlier && !breaks.has('key-replays-but-creates')) {
    return { ...earlier.reply, headers: { ...earlier.reply.headers, 'Idempotent-Replayed': 'true' } };
  }
  const body = asObject(req.body);
  const problems = validate(r, body, where.opts.unknownFields);
  if (problems.length > 0) return invalid(req, problems);
  let fields = writable(r, body);
  if (breaks.has('create-drops-optional')) {
    fields = Object.fromEntries(Object.entries(fields).filter(([k]) => r.fields[k].required));
  }
  const rec = store.insert(r, fields);
  if (earlier)
    return { ...earlier.reply, headers: { ...earlier.reply.headers, 'Idempotent-Replayed': 'true' } };
  const location = breaks.has('location-collection')
    ? `${where.origin}${where.prefix}/${r.name}`
    : itemUrl(r, rec.id, where);
  const status = breaks.has('create-202') ? 202 : 201;
  const reply: Reply =
    where.opts.createBody === 'location-only'
      ? { status, headers: { Location: location } }
      : where.opts.createBody === 'id-only'
        ? { status, headers: { Location: location }, body: { [r.idField]: rec.id } }
        : itemReply(status, r, rec, where, { Location: location });
  if (keyId) keys.set(keyId, { fingerprint, reply });
  return reply;
}

function remove(store: AltStore, req: OpRequest, rec: StoredRecord | undefined): Reply {
  const { r, where } = req;
  const breaks = where.opts.breaks;
  const answer = (id: string): Reply =>
    where.opts.deleteStatus === 204
      ? { status: 204, headers: {} }
      : where.opts.format === 'jsonapi'
        ? { status: 200, headers: {}, body: { meta: { deleted: true } } }
        : { status: 200, headers: {}, body: { deleted: true, [r.idField]: id } };
  if (rec === undefined || rec.deletedAt !== undefined) {
    const before = store.deleted.get(r.name)?.has(req.id!) || rec?.deletedAt !== undefined;
    if (before && breaks.has('repeat-delete-500')) throw new Error('row already deleted');
    if (before && where.opts.repeatDelete === 'same') return answer(req.id!);
    return notFound(req, store);
  }
  if (breaks.has('soft-delete-listed')) {
    rec.deletedAt = new Date().toISOString();
    return answer(rec.id);
  }
  if (breaks.has('delete-neighbour')) {
    const all = store.all(r.name);
    const next = all[all.indexOf(rec) + 1];
    if (next) store.remove(r.name, next.id);
  }
  store.remove(r.name, rec.id);
  return answer(rec.id);
}

/** 404, or 410 Gone for an id that existed and was deleted when the deletedStatus switch says so. */
function notFound(req: OpRequest, store: AltStore): Reply {
  if (req.where.opts.deletedStatus === 410 && store.deleted.get(req.r.name)?.has(req.id!)) {
    return errorReply(req.where, 410, 'gone', { instance: `${req.where.prefix}/${req.r.name}/${req.id}` });
  }
  return errorReply(req.where, 404, 'not_found', {
    detail: `No ${req.r.objectName} with ${req.r.idField} ${req.id}`,
    instance: `${req.where.prefix}/${req.r.name}/${req.id ?? ''}`,
  });
}

/** A validation failure: 400 with the problems (or, broken, a 200 that says "error"). */
function invalid(req: OpRequest, problems: Array<{ pointer: string; detail: string }>): Reply {
  const { where } = req;
  if (where.opts.breaks.has('wrong-type-500') && problems.some((p) => /must be (a|an|true)/.test(p.detail))) {
    throw new Error(`cannot coerce ${problems[0].pointer}`);
  }
  if (where.opts.breaks.has('validation-200')) {
    return { status: 200, headers: {}, body: { status: 'error', message: problems[0].detail, problems } };
  }
  return errorReply(where, 400, 'validation_failed', {
    detail: `${problems.length} field${problems.length > 1 ? 's are' : ' is'} invalid`,
    errors: problems,
  });
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** The put-appends break: list fields keep their old entries and gain the sent ones. */
function appendLists(old: Record<string, unknown>, sent: Record<string, unknown>): Record<string, unknown> {
  const out = { ...sent };
  for (const [k, v] of Object.entries(sent)) {
    if (Array.isArray(v) && Array.isArray(old[k])) out[k] = [...(old[k] as unknown[]), ...v];
  }
  return out;
}
