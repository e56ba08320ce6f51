// A dereferenced OpenAPI document -> a partial config: resources from collection/item path pairs, and what was left out.
import { OPERATIONS, type Operation } from '../core/types.js';
import { deepEqual, isObject } from '../core/shapes.js';
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
  objectBranch,
  objectShape,
  toJsonSchema,
  unwrapItemSchema,
  withRefTargets,
} from './schema.js';
import { defaultItem, findResources, type FoundResource, type NotProbed } from './paths.js';
import {
  placeParams,
  requestParams,
  type MissingParam,
  type RequestParam,
  type ResourceRequestFields,
} from './requests.js';
import { derivedSecurity, takesCredentials, type DerivedSecurity } from './security.js';
import { derivedBaseUrl, type DerivedBaseUrl } from './servers.js';

export type { NotProbed } from './paths.js';

/** One resource as the config file would declare it, plus where its payloads came from. */
export interface DerivedResource {
  name: string;
  path: string;
  /** The document's item path (`/widgets/{widgetId}`, or the filter `/widgets?id=eq.{id}`), for messages. */
  itemPath: string;
  /** The item URL template, when it is not the default `<path>/{id}` (`/widgets/{id}/`, `/widgets?id=eq.{id}`). */
  item?: string;
  /** `location` when the create answer names the new item only in its Location header. */
  createdIdFrom?: string;
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
  /** Headers and query parameters its requests must carry (see `placeParams`). */
  headers?: Record<string, string>;
  query?: Record<string, string>;
  requests?: ResourceRequestFields['requests'];
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
  /** Headers and query parameters every request must carry. */
  headers?: Record<string, string>;
  query?: Record<string, string>;
  /** Required parameters the document gives no value for: the user must fill them. */
  missing: MissingParam[];
  /** Things the user should know (unsupported security, schemas left out...). */
  notes: string[];
}

const IDEMPOTENCY_HEADER = /^idempotency[-_]?key$/i;

/** Derives resources and the rest from a dereferenced, validated document. */
export function deriveConfig(doc: Json, options: { documentUrl?: string } = {}): DerivedConfig {
  const version = specVersion(doc);
  const info = isObject(doc.info) ? doc.info : {};
  const items = new Map(pathItems(doc).filter(([, item]) => PATH_METHODS.some((m) => operationOf(item, m))));
  const { found, notProbed } = findResources(doc, items);

  const names = uniqueNames(found.map((f) => f.path.replace(/\/+$/, '')));
  let idempotencyHeader: string | undefined;
  const chosen = derivedSecurity(doc, version);
  const params: Array<Partial<Record<Operation, RequestParam[]>>> = [];
  const probed: Json[] = [];
  const resources = found.map((pair, index): DerivedResource => {
    const collectionItem =
      (pair.collectionKey !== undefined ? items.get(pair.collectionKey) : undefined) ?? {};
    const itemItem = pair.itemKey !== undefined ? items.get(pair.itemKey)! : collectionItem;
    const derived = deriveResource(doc, version, names[index], pair, collectionItem, itemItem, chosen);
    if (derived.header) idempotencyHeader ??= derived.header;
    params.push(derived.params);
    probed.push(...derived.probed);
    return derived.resource;
  });
  // A run without the credential meets only 401s when every operation it sends takes one.
  const speaks = chosen.kind === 'bearer' || chosen.kind === 'apiKey' || chosen.kind === 'basic';
  const required = speaks && probed.length > 0 && probed.every((op) => takesCredentials(op, doc));
  const security: DerivedSecurity = required ? { ...chosen, required } : chosen;
  const placed = placeParams(resources.map((r, i) => ({ ...r, params: params[i] })));
  resources.forEach((r, i) => Object.assign(r, placed.perResource[i]));

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
    ...placed.top,
    missing: placed.missing,
    notes,
  };
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
  pair: FoundResource,
  collectionItem: Json,
  itemItem: Json,
  security: DerivedSecurity,
): {
  resource: DerivedResource;
  header?: string;
  params: Partial<Record<Operation, RequestParam[]>>;
  /** The operations the audit sends, for `security.required`. */
  probed: Json[];
} {
  const notes: string[] = [];
  // A filter-addressed item is read and written through the collection path's own operations,
  // those that declare the filter parameter.
  const filtered = (method: string): Json | undefined => {
    const op = operationOf(itemItem, method);
    if (!op || !pair.filter) return op;
    const declares = parametersOf(itemItem, op).some(
      (p) => p.in === 'query' && p.name === pair.filter!.param,
    );
    if (!declares)
      notes.push(
        `${method.toUpperCase()} ${pair.path} does not declare the filter ${pair.filter.param}: not audited as an item operation`,
      );
    return declares ? op : undefined;
  };
  const ops = {
    list: operationOf(collectionItem, 'get'),
    create: operationOf(collectionItem, 'post'),
    read: filtered('get'),
    replace: filtered('put'),
    update: filtered('patch'),
    delete: filtered('delete'),
  };
  const operations = OPERATIONS.filter((op) => ops[op] !== undefined);

  // The item's representation: GET item, else what POST answers, else one element of the list.
  // (A filter's read is the list itself: its element is the item.)
  const readBody =
    ops.read && !pair.filter ? responseBodyOf(doc, ops.read, successStatuses('200')) : undefined;
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
    path: pair.path,
    itemPath: pair.itemKey ?? pair.item,
    operations,
    origin: {},
    notes,
  };
  if (pair.item !== defaultItem(pair.path)) resource.item = pair.item;
  if (pair.idFromLocation) resource.createdIdFrom = 'location';
  if (idField !== undefined && idField !== 'id') resource.idField = idField;
  const id = idField ?? 'id';

  const body = (op: Json | undefined, method: string): Body | undefined => {
    if (!op) return undefined;
    const request = requestBodyOf(doc, op === ops.create ? collectionItem : itemItem, op);
    if (request && !request.body && request.accepts.length > 0)
      notes.push(`${method} takes ${request.accepts.join(', ')}, not JSON: no ${method} payload derived`);
    const found = request?.body;
    // One item or a list of them (oneOf): the payloads are of the one item.
    const branch = objectBranch(found?.schema);
    return found && branch && branch !== found.schema ? { ...found, schema: branch } : found;
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

  const skip = (p: Json): boolean =>
    (pair.filter !== undefined && p.in === 'query' && p.name === pair.filter.param) ||
    (p.in === 'header' && IDEMPOTENCY_HEADER.test(String(p.name))) ||
    security.credentialParams.has(`${String(p.in)}:${String(p.name).toLowerCase()}`);
  const params: Partial<Record<Operation, RequestParam[]>> = {};
  for (const op of operations) {
    const holder = op === 'list' || op === 'create' ? collectionItem : itemItem;
    params[op] = requestParams(holder, ops[op]!, skip, op !== 'list' && op !== 'read');
  }
  const probed = Object.values(ops).filter((op): op is Json => op !== undefined);
  return { resource, params, probed, ...(header ? { header: String(header.name) } : {}) };
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
