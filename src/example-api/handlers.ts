// The six operations on a collection (list, read, create, replace, update, delete), with their break points.
import type { IncomingHttpHeaders } from 'node:http';
import type { RateLimiter } from './ratelimit.js';
import type { Breaks } from './breaks.js';
import { fingerprintOf, type IdempotencyStore } from './idempotency.js';
import type { ResolvedOptions } from './options.js';
import { errorReply, itemBody, jsonReply, listBody, type Reply } from './reply.js';
import { singularOf, validateBody, type ResourceOperation, type ValidationMode } from './resources.js';
import type { Clock, Collection, Item } from './store.js';
import type { ResourceEvent, WebhookDispatcher } from './webhooks.js';

/** Everything a request handler can reach. */
export interface App {
  opts: ResolvedOptions;
  clock: Clock;
  /** Resource collections by name (not including `webhooks`). */
  collections: Map<string, Collection>;
  webhooks: Collection;
  idempotency: IdempotencyStore;
  limiter: RateLimiter | undefined;
  dispatcher: WebhookDispatcher;
}

/** One routed, authenticated, permitted request. */
export interface OperationRequest {
  op: ResourceOperation;
  /** The raw id path segment (item operations). */
  id?: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  token: string;
  /** `http://host:port` the client used, for absolute Location headers. */
  origin: string;
  /** Events to deliver once the client has its answer. */
  events: ResourceEvent[];
}

const NO_BREAKS: Breaks = {};

/** Runs one operation on a collection and answers the reply (breaks on looks are applied later). */
export function runOperation(app: App, coll: Collection, req: OperationRequest): Reply {
  const breaks = coll.internal ? NO_BREAKS : app.opts.breaks;
  const reply = operate(app, coll, req, breaks);
  return coll.internal ? { ...reply, op: undefined, unknownId: undefined } : reply;
}

function operate(app: App, coll: Collection, req: OperationRequest, breaks: Breaks): Reply {
  const { variant } = app.opts;
  if (req.op === 'list') return { ...jsonReply(200, listBody(coll.list(), variant.listStyle)), op: 'list' };
  if (req.op === 'create') return create(app, coll, req, breaks);
  // break: serverError — every PATCH fails before doing anything (the 500 comes from the catch-all).
  if (req.op === 'update' && breaks.serverError) throw new Error('serverError break: PATCH always fails');

  const key = coll.keyOf(req.id ?? '');
  const item = key === undefined ? undefined : coll.get(key);
  if (!item || key === undefined) {
    if (
      req.op === 'delete' &&
      key !== undefined &&
      coll.wasDeleted(key) &&
      variant.repeatDeleteStatus === 204
    ) {
      return jsonReply(204, undefined);
    }
    return {
      ...errorReply(404, 'not_found', `No ${singularOf(coll.def)} with id "${req.id}"`),
      op: req.op,
      unknownId: true,
    };
  }

  if (req.op === 'read') return { ...jsonReply(200, itemBody(item, variant.itemStyle)), op: 'read' };
  if (req.op === 'delete') return remove(app, coll, key, item, req, breaks);

  const parsed = readJsonBody(req.headers, req.body);
  if (!parsed.ok) return parsed.reply;
  const mode: ValidationMode = req.op === 'replace' ? 'full' : parsed.mergePatch ? 'merge-patch' : 'partial';
  const valid = validateBody(coll.def, parsed.value, mode, app.opts.unknownFields);
  if (!valid.ok) return errorReply(400, 'invalid_body', valid.message);
  const next = req.op === 'replace' ? coll.replaced(item, valid.value) : coll.merged(item, valid.value);
  const problem = coll.def.check?.(next);
  if (problem) return errorReply(400, 'invalid_body', problem);
  // break: changeNotApplied — answer the new representation but keep the old one.
  if (!breaks.changeNotApplied) {
    coll.put(next);
    emit(coll, req, 'updated', next);
  }
  return { ...jsonReply(200, itemBody(next, variant.itemStyle)), op: req.op };
}

function create(app: App, coll: Collection, req: OperationRequest, breaks: Breaks): Reply {
  const { variant } = app.opts;
  const parsed = readJsonBody(req.headers, req.body);
  if (!parsed.ok) return parsed.reply;
  const valid = validateBody(coll.def, parsed.value, 'full', app.opts.unknownFields);
  if (!valid.ok) return errorReply(400, 'invalid_body', valid.message);
  const problem = coll.def.check?.(valid.value);
  if (problem) return errorReply(400, 'invalid_body', problem);

  const key = coll.internal ? undefined : headerValue(req.headers, app.opts.idempotencyHeader);
  const fingerprint = key ? fingerprintOf('POST', coll.name, parsed.value, parsed.text) : '';
  if (key) {
    const seen = app.idempotency.lookup(req.token, key, fingerprint);
    if (seen.kind === 'replay') return seen.reply;
    if (seen.kind === 'conflict') {
      return errorReply(
        409,
        'idempotency_conflict',
        'This idempotency key was already used with another request',
      );
    }
  }

  const item = coll.build(valid.value);
  // break: createNotReadable — answer as if created, store nothing.
  if (!breaks.createNotReadable) {
    coll.put(item);
    emit(coll, req, 'created', item);
  }
  const headers: Record<string, string> = {};
  const path = `${app.opts.versionPrefix}/${coll.name}/${encodeURIComponent(String(item.id))}`;
  if (variant.locationStyle === 'path') headers.Location = path;
  if (variant.locationStyle === 'absolute') headers.Location = req.origin + path;
  const reply: Reply = { ...jsonReply(201, itemBody(item, variant.itemStyle), headers), op: 'create' };
  if (key) app.idempotency.remember(req.token, key, fingerprint, reply);
  return reply;
}

function remove(
  app: App,
  coll: Collection,
  key: string,
  item: Item,
  req: OperationRequest,
  breaks: Breaks,
): Reply {
  // break: deleteNoop — answer success, remove nothing.
  if (!breaks.deleteNoop) {
    coll.remove(key);
    emit(coll, req, 'deleted', item);
  }
  // break: deleteOthers — also remove the oldest other record, silently.
  if (breaks.deleteOthers) {
    const other = coll.list().find((i) => String(i.id) !== key);
    if (other) coll.remove(String(other.id));
  }
  if (app.opts.variant.deleteStatus === 200) {
    return { ...jsonReply(200, itemBody(item, app.opts.variant.itemStyle)), op: 'delete' };
  }
  return { ...jsonReply(204, undefined), op: 'delete' };
}

function emit(
  coll: Collection,
  req: OperationRequest,
  action: 'created' | 'updated' | 'deleted',
  item: Item,
): void {
  if (!coll.internal)
    req.events.push({ type: `${singularOf(coll.def)}.${action}`, data: structuredClone(item) });
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const raw = headers[name];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return value ? value : undefined;
}

/** A request body read as a JSON object, or the 415/400 to answer. */
type JsonBody =
  | { ok: true; value: Record<string, unknown>; text: string; mergePatch: boolean }
  | { ok: false; reply: Reply };

/** Media type of a Content-Type value, lower-cased without parameters ('' when absent). */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/** True for `application/json` and any `type/subtype+json`. */
export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(mediaType);
}

function readJsonBody(headers: IncomingHttpHeaders, body: Buffer): JsonBody {
  const mediaType = mediaTypeOf(headers['content-type']);
  if (!isJsonMediaType(mediaType)) {
    const why = mediaType ? `Content-Type ${mediaType} is not supported` : 'Content-Type is missing';
    return { ok: false, reply: errorReply(415, 'unsupported_media_type', `${why}: send application/json`) };
  }
  const text = body.toString('utf8');
  if (text.trim() === '')
    return { ok: false, reply: errorReply(400, 'invalid_json', 'The request body is empty') };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reply: errorReply(400, 'invalid_json', 'The request body is not valid JSON') };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, reply: errorReply(400, 'invalid_body', 'The request body must be a JSON object') };
  }
  return {
    ok: true,
    value: value as Record<string, unknown>,
    text,
    mergePatch: mediaType === 'application/merge-patch+json',
  };
}
