// Reading the common valid JSON shapes: bare or enveloped items and lists, volatile fields, deep equality.
// (Sent values are compared with values read back in values.ts, by meaning.)

/** Keys under which services commonly wrap a single item (read answers here; OpenAPI item schemas in src/openapi). */
export const ITEM_ENVELOPES: readonly string[] = ['data', 'item', 'result', 'resource', 'record', 'object'];
/** Keys under which services commonly wrap a list. */
const LIST_ENVELOPES = [
  'data',
  'items',
  'results',
  'records',
  'content',
  'entries',
  'rows',
  'list',
  'values',
  'elements',
  'hits',
  'nodes',
  'edges',
];

/** Server-managed fields that may change on every write (left out of PUT/DELETE comparisons). */
export const VOLATILE_FIELDS = [
  'createdAt',
  'updatedAt',
  'modifiedAt',
  'lastModified',
  'lastModifiedAt',
  'created_at',
  'updated_at',
  'modified_at',
  'last_modified',
  'created',
  'updated',
  'modified',
  'timestamp',
  'etag',
  'eTag',
  'ETag',
  '_etag',
  'version',
  'revision',
  'rev',
  '_rev',
  '_version',
  '__v',
  'lockVersion',
  'lock_version',
  'sequence',
  'seq',
  'dateCreated',
  'dateModified',
  'dateUpdated',
  'creationTime',
  'updateTime',
  'lastUpdated',
  'last_updated',
];

/** Keys a request payload is commonly wrapped under (Strapi's and JSON:API's `{"data": {...}}`). */
export const PAYLOAD_ENVELOPES: readonly string[] = ['data', 'item', 'resource', 'record', 'object'];

/** The object a payload wraps under a single envelope key (`{"data": {...}}`), if it is wrapped so. */
export function wrappedPayload(sent: unknown): { key: string; inner: Record<string, unknown> } | undefined {
  if (!isObject(sent)) return undefined;
  const keys = Object.keys(sent);
  if (keys.length !== 1 || !PAYLOAD_ENVELOPES.includes(keys[0])) return undefined;
  const inner = sent[keys[0]];
  return isObject(inner) ? { key: keys[0], inner } : undefined;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The item inside a response body: the body itself when it carries the id field (or, with no id
 * known, looks like an item), else the object under a common envelope key, or the one element of
 * a one-element array.
 */
export function unwrapItem(body: unknown, idField: string): Record<string, unknown> | undefined {
  // A one-element array (filter-addressed APIs answer items so) holds the item like an envelope.
  if (Array.isArray(body) && body.length === 1) return unwrapItem(body[0], idField);
  if (!isObject(body)) return undefined;
  if (idField in body) return body;
  for (const key of ITEM_ENVELOPES) {
    const inner = body[key];
    if (isObject(inner) && idField in inner) return inner;
    // Directus answers a create sent as a one-element list so: {"data": [{"id": 38, ...}]}.
    if (Array.isArray(inner) && inner.length === 1 && isObject(inner[0]) && idField in inner[0])
      return inner[0];
  }
  // A named wrapper such as { "widget": { ... } }, also with siblings ({ "widget": {...}, "meta": {...} }):
  // the one member that holds the id field is the item.
  const holders = Object.values(body).filter((v) => isObject(v) && idField in v);
  if (holders.length === 1) return holders[0] as Record<string, unknown>;
  return undefined;
}

/** Like unwrapItem, but falls back to the envelope's content or the body when no id is present. */
export function unwrapItemLoose(body: unknown, idField: string): Record<string, unknown> | undefined {
  const strict = unwrapItem(body, idField);
  if (strict) return strict;
  if (Array.isArray(body) && body.length === 1) return unwrapItemLoose(body[0], idField);
  if (!isObject(body)) return undefined;
  for (const key of ITEM_ENVELOPES) if (isObject(body[key])) return body[key] as Record<string, unknown>;
  return body;
}

/** The array of items in a list response: a bare array, or the array under an envelope key. */
export function unwrapList(body: unknown, resourceName?: string): unknown[] | undefined {
  if (Array.isArray(body)) return body;
  if (!isObject(body)) return undefined;
  const keys = resourceName ? [...LIST_ENVELOPES, resourceName] : LIST_ENVELOPES;
  for (const key of keys) {
    const inner = body[key];
    if (Array.isArray(inner)) return inner;
    // GraphQL-ish { data: { items: [...] } } or { _embedded: { widgets: [...] } }
    if (isObject(inner)) {
      const nested = unwrapList(inner, resourceName);
      if (nested) return nested;
    }
  }
  if (isObject(body._embedded)) return unwrapList(body._embedded, resourceName);
  const arrays = Object.values(body).filter(Array.isArray);
  return arrays.length === 1 ? arrays[0] : undefined;
}

/** An id as a string (ids may be numbers or strings); undefined when absent or not scalar. */
export function idOf(item: unknown, idField: string): string | undefined {
  if (!isObject(item)) return undefined;
  const id = item[idField];
  if (typeof id === 'string' && id.length > 0) return id;
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  return undefined;
}

/** Ids of the items in a list body. */
export function listIds(body: unknown, idField: string, resourceName?: string): string[] | undefined {
  const list = unwrapList(body, resourceName);
  if (!list) return undefined;
  return list.map((item) => idOf(item, idField)).filter((id): id is string => id !== undefined);
}

/** Deep structural equality of JSON values (object key order ignored). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return (
      ka.length === kb.length &&
      ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]))
    );
  }
  return false;
}

/** A copy of a JSON value with the named fields removed at every depth. */
export function withoutFields(value: unknown, fields: Iterable<string>): unknown {
  // Called for every element of every list compared: no new set when given one, no entry pairs.
  const drop: ReadonlySet<string> = fields instanceof Set ? fields : new Set(fields);
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (isObject(v)) {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v)) if (!drop.has(k)) out[k] = walk(v[k]);
      return out;
    }
    return v;
  };
  return walk(value);
}

/** Differences between two JSON values as JSON-pointer-ish paths, for messages (at most `limit`). */
export function diffPaths(a: unknown, b: unknown, limit = 5, path = ''): string[] {
  if (deepEqual(a, b)) return [];
  if (isObject(a) && isObject(b)) {
    const out: string[] = [];
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (out.length >= limit) break;
      const at = `${path}/${k}`;
      // A member on one side only is said in words: "undefined" is no value a reader can use.
      if (!Object.hasOwn(b, k)) out.push(`${at}: ${short(a[k])}, then gone`);
      else if (!Object.hasOwn(a, k)) out.push(`${at}: absent, then ${short(b[k])}`);
      else out.push(...diffPaths(a[k], b[k], limit - out.length, at));
    }
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    const out: string[] = [];
    for (let i = 0; i < a.length && out.length < limit; i++)
      out.push(...diffPaths(a[i], b[i], limit - out.length, `${path}/${i}`));
    return out;
  }
  return [`${path || '/'}: ${short(a)} → ${short(b)}`];
}

/** A short JSON rendering for messages ("nothing" for a missing value, never the word undefined). */
export function short(value: unknown, max = 60): string {
  const text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value));
  // A copy: messages last the whole run, and a slice would keep the whole rendering alive.
  return text.length > max ? `${ownCopy(text.slice(0, max - 1))}…` : text;
}

/**
 * A string of its own with the same characters. V8 makes a slice of a long string a view that
 * keeps the whole string alive: an excerpt of a 9 MB body kept in a report would keep 9 MB.
 */
export function ownCopy(text: string): string {
  // JSON escapes every character it must (lone surrogates included), so this round trip is exact.
  return JSON.parse(JSON.stringify(text)) as string;
}
