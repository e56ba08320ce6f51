// A dereferenced OpenAPI document -> a partial config: resources from collection/item path pairs, and what was left out.
import { OPERATIONS, type Operation } from '../core/types.js';
import { deepEqual, isObject } from '../core/shapes.js';
import { dotSegmentIn } from '../core/dot-segments.js';
import { compileItemSchema } from '../config/item-schema.js';
import {
  operationOf,
  parametersOf,
  pathItems,
  PATH_METHODS,
  requestBodyOf,
  resolveRef,
  responseBodyOf,
  specVersion,
  successStatuses,
  type Body,
  type Json,
  type SpecVersion,
} from './document.js';
import { invalidPayloads, patchPayload, samplePayload, varied } from './payloads.js';
import {
  isObjectSchema,
  listItemSchema,
  objectShape,
  toJsonSchema,
  unwrapItemSchema,
  withRefTargets,
} from './schema.js';
import { derivedBaseUrl, derivedSecurity, type DerivedBaseUrl, type DerivedSecurity } from './servers.js';

/** A path of the document the audit does not probe, and why. */
export interface NotProbed {
  path: string;
  reason: string;
}

/** One resource as the config file would declare it, plus where its payloads came from. */
export interface DerivedResource {
  name: string;
  path: string;
  /** The document's item path (`/widgets/{widgetId}`), for messages. */
  itemPath: string;
  idField?: string;
  operations: Operation[];
  sample?: Record<string, unknown>;
  replace?: Record<string, unknown>;
  update?: Record<string, unknown>;
  invalid?: unknown[];
  /** JSON Schema of one item (already converted from the OpenAPI dialect). */
  schema?: Json;
  idempotencyKey?: boolean;
  /** For comments in a starter config: `example` (written in the document) or `generated`. */
  origin: Partial<Record<'sample' | 'replace' | 'update', 'example' | 'generated' | 'varied'>>;
  /** What the import could not take from the document for this resource. */
  notes: string[];
}

/** Everything derived from one document. The config overrides any of it. */
export interface DerivedConfig {
  version: SpecVersion;
  title?: string;
  baseUrl: DerivedBaseUrl;
  resources: DerivedResource[];
  /** The idempotency header the document's POSTs declare, if any. */
  idempotencyHeader?: string;
  notProbed: NotProbed[];
  security: DerivedSecurity;
  /** Things the user should know (unsupported security, schemas left out...). */
  notes: string[];
}

const IDEMPOTENCY_HEADER = /^idempotency[-_]?key$/i;

/** Derives resources and the rest from a dereferenced, validated document. */
export function deriveConfig(doc: Json, options: { documentUrl?: string } = {}): DerivedConfig {
  const version = specVersion(doc);
  const info = isObject(doc.info) ? doc.info : {};
  const items = new Map(pathItems(doc).filter(([, item]) => PATH_METHODS.some((m) => operationOf(item, m))));
  const notProbed: NotProbed[] = [];
  const pairs: Array<{ collection: string; item: string; param: string }> = [];
  const used = new Set<string>();

  for (const path of items.keys()) {
    // A dot segment could lead requests out of the base URL: such a path is never probed.
    if (dotSegmentIn(path) !== undefined) continue;
    const segments = path.replace(/\/+$/, '').split('/');
    const last = segments[segments.length - 1];
    const param = /^\{([^{}]+)\}$/.exec(last)?.[1];
    const collection = segments.slice(0, -1).join('/');
    if (param === undefined || collection.includes('{') || collection === '') continue;
    pairs.push({ collection, item: path, param });
    used.add(path);
    const listed = [...items.keys()].find((p) => p.replace(/\/+$/, '') === collection);
    if (listed !== undefined) used.add(listed);
  }
  for (const path of items.keys()) {
    if (!used.has(path)) notProbed.push({ path, reason: whyNotProbed(path) });
  }

  const names = uniqueNames(pairs.map((p) => p.collection));
  let idempotencyHeader: string | undefined;
  const resources = pairs.map((pair, index): DerivedResource => {
    const collectionItem =
      [...items.entries()].find(([p]) => p.replace(/\/+$/, '') === pair.collection)?.[1] ?? {};
    const derived = deriveResource(doc, version, names[index], pair, collectionItem, items.get(pair.item)!);
    if (derived.header) idempotencyHeader ??= derived.header;
    return derived.resource;
  });

  const security = derivedSecurity(doc, version);
  const notes = [...security.notes];
  for (const resource of resources)
    for (const note of resource.notes) notes.push(`${resource.name}: ${note}`);
  return {
    version,
    ...(typeof info.title === 'string' ? { title: info.title } : {}),
    baseUrl: derivedBaseUrl(doc, version, options.documentUrl),
    resources,
    ...(idempotencyHeader ? { idempotencyHeader } : {}),
    notProbed,
    security,
    notes,
  };
}

function whyNotProbed(path: string): string {
  const dots = dotSegmentIn(path);
  if (dots !== undefined)
    return `it holds a dot segment (${dots}), which could lead requests out of the base URL: never sent`;
  const segments = path.split('/').filter(Boolean);
  if (segments.length === 0) return 'the root path: not a collection';
  const templated = segments.findIndex((s) => s.includes('{'));
  if (templated >= 0 && templated < segments.length - 1)
    return 'nested under a path parameter: the audit cannot choose a parent id';
  if (templated >= 0) return 'a path parameter mixed with text in one segment';
  return `no item path (${path.replace(/\/+$/, '')}/{id}) beside it: not a collection of items`;
}

/** Resource names: the collection's last segment, or more of its path where two would clash. */
function uniqueNames(collections: string[]): string[] {
  const lastOf = (path: string): string => path.split('/').filter(Boolean).pop() ?? 'root';
  return collections.map((path) => {
    const short = lastOf(path);
    const clash = collections.filter((other) => lastOf(other) === short).length > 1;
    return clash ? path.split('/').filter(Boolean).join('-') : short;
  });
}

function deriveResource(
  doc: Json,
  version: SpecVersion,
  name: string,
  pair: { collection: string; item: string; param: string },
  collectionItem: Json,
  itemItem: Json,
): { resource: DerivedResource; header?: string } {
  const ops = {
    list: operationOf(collectionItem, 'get'),
    create: operationOf(collectionItem, 'post'),
    read: operationOf(itemItem, 'get'),
    replace: operationOf(itemItem, 'put'),
    update: operationOf(itemItem, 'patch'),
    delete: operationOf(itemItem, 'delete'),
  };
  const operations = OPERATIONS.filter((op) => ops[op] !== undefined);
  const notes: string[] = [];

  // The item's representation: GET item, else what POST answers, else one element of the list.
  const readBody = ops.read ? responseBodyOf(doc, ops.read, successStatuses('200')) : undefined;
  const createdBody = ops.create ? responseBodyOf(doc, ops.create, successStatuses('201')) : undefined;
  const listBody = ops.list ? responseBodyOf(doc, ops.list, successStatuses('200')) : undefined;
  const responseSchema =
    readBody?.schema ?? createdBody?.schema ?? resolveRef(doc, listItemSchema(listBody?.schema));
  const itemSchema = responseSchema ? unwrapItemSchema(responseSchema, pair.param) : undefined;
  const { properties } = objectShape(itemSchema);
  const idField =
    pair.param in properties ? pair.param : '_id' in properties && !('id' in properties) ? '_id' : undefined;

  const resource: DerivedResource = {
    name,
    path: pair.collection,
    itemPath: pair.item,
    operations,
    origin: {},
    notes,
  };
  if (idField !== undefined && idField !== 'id') resource.idField = idField;
  const id = idField ?? 'id';

  const body = (op: Json | undefined, method: string): Body | undefined => {
    if (!op) return undefined;
    const request = requestBodyOf(doc, op === ops.create ? collectionItem : itemItem, op);
    if (request && !request.body && request.accepts.length > 0)
      notes.push(`${method} takes ${request.accepts.join(', ')}, not JSON: no ${method} payload derived`);
    return request?.body;
  };
  const post = body(ops.create, 'POST');
  const put = body(ops.replace, 'PUT');
  const patch = body(ops.update, 'PATCH');

  const sample = samplePayload(post, doc, id);
  if (sample) {
    resource.sample = sample.value;
    resource.origin.sample = sample.from;
    resource.invalid = invalidPayloads(sample.value, post?.schema, id);
  } else if (ops.create && post)
    notes.push('no JSON object sample could be made for POST: add `sample` in the config');

  if (put) {
    // An example equal to the sample (one schema example shared by POST and PUT) shows no change.
    const written = samplePayload(put, doc, id, true);
    const example = written && !deepEqual(written.value, resource.sample) ? written : undefined;
    const fromSample = resource.sample ? varied(resource.sample, put.schema ?? post?.schema, 1) : undefined;
    const replace = example?.value ?? fromSample ?? samplePayload(put, doc, id)?.value;
    if (replace) {
      resource.replace = replace;
      resource.origin.replace = example ? 'example' : fromSample ? 'varied' : 'generated';
    }
  }
  if (patch && /json-patch/i.test(patch.mediaType)) {
    notes.push('PATCH takes JSON Patch (an array of operations): no update payload derived');
  } else if (patch) {
    const example = samplePayload(patch, doc, id, true);
    const base = resource.sample ?? resource.replace;
    const update = example?.value ?? (base ? patchPayload(base, patch.schema ?? post?.schema) : undefined);
    if (update) {
      resource.update = update;
      resource.origin.update = example ? 'example' : 'varied';
    }
  }

  const schema = itemSchema && isObjectSchema(itemSchema) ? standalone(itemSchema, doc, version) : undefined;
  if (schema) resource.schema = schema;
  else if (itemSchema)
    notes.push('the item schema could not be used for DOC-SCHEMA (unresolvable $ref or not an object)');

  const header = ops.create
    ? parametersOf(collectionItem, ops.create).find(
        (p) => p.in === 'header' && IDEMPOTENCY_HEADER.test(String(p.name)),
      )
    : undefined;
  if (header) resource.idempotencyKey = true;
  return { resource, ...(header ? { header: String(header.name) } : {}) };
}

/** The item schema in JSON Schema form, compiled once here so a broken one is left out, not a failed check. */
function standalone(itemSchema: Json, doc: Json, version: SpecVersion): Json | undefined {
  const converted = withRefTargets(toJsonSchema(itemSchema, version), doc, version);
  if (!converted) return undefined;
  try {
    compileItemSchema(converted);
    return converted;
  } catch {
    return undefined;
  }
}
