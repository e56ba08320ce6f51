// Which paths of a document are resources: collection/item pairs (trailing slashes kept) and collections whose items a query filter names.
import { isObject } from '../core/shapes.js';
import { dotSegmentIn } from '../core/dot-segments.js';
import {
  asObjects,
  operationOf,
  parametersOf,
  resolveRef,
  responseBodyOf,
  successStatuses,
  type Json,
} from './document.js';
import { listItemSchema, objectShape } from './schema.js';

/** A path of the document the audit does not probe, and why. */
export interface NotProbed {
  path: string;
  reason: string;
}

/** A resource found in the paths: where its collection and items are, and the id's name there. */
export interface FoundResource {
  /** The collection path as declared (`/widgets/` keeps its slash); without one, from the item path. */
  path: string;
  /** The document's collection path item key, when declared. */
  collectionKey?: string;
  /** The document's item path item key (`/widgets/{widgetId}/`); none for a filter-addressed collection. */
  itemKey?: string;
  /** The name of the id in the document: the path parameter, or the filter's query parameter. */
  param: string;
  /** The item URL template with `{id}` (`/widgets/{id}/`, `/widgets?id=eq.{id}`). */
  item: string;
  /** Set when items are addressed by a query filter on the collection path. */
  filter?: { param: string; style: 'postgrest' | 'plain' };
  /** The create answer names the new item in its Location only (no JSON body declared). */
  idFromLocation?: boolean;
}

/** The default item template for a collection path: the path without its trailing slash, plus `/{id}`. */
export function defaultItem(path: string): string {
  return `${path.replace(/\/+$/, '')}/{id}`;
}

/**
 * The resources among the document's paths (`items`: paths with at least one operation), and the
 * paths that are not probed with the reason. A pair `/things` + `/things/{id}` is a resource (a
 * trailing slash on either is kept); so is a collection alone whose operations declare a query
 * parameter naming an item's id (PostgREST's `/things?id=eq.7`, or a plain `/things?id=7`).
 */
export function findResources(
  doc: Json,
  items: Map<string, Json>,
): { found: FoundResource[]; notProbed: NotProbed[] } {
  const found: FoundResource[] = [];
  const used = new Set<string>();
  const trim = (p: string): string => p.replace(/\/+$/, '');
  for (const path of items.keys()) {
    // A dot segment could lead requests out of the base URL: such a path is never probed.
    if (dotSegmentIn(path) !== undefined) continue;
    const segments = trim(path).split('/');
    const last = segments[segments.length - 1];
    const param = /^\{([^{}]+)\}$/.exec(last)?.[1];
    const collection = segments.slice(0, -1).join('/');
    if (param === undefined || collection.includes('{') || collection === '') continue;
    used.add(path);
    const listed = [...items.keys()].find((p) => p !== path && trim(p) === collection);
    if (listed !== undefined) used.add(listed);
    const slash = path.endsWith('/') ? '/' : '';
    const resourcePath = listed ?? `${collection}${slash}`;
    found.push({
      path: resourcePath,
      ...(listed !== undefined ? { collectionKey: listed } : {}),
      itemKey: path,
      param,
      item: `${collection}/{id}${slash}`,
    });
  }
  for (const [path, item] of items) {
    if (used.has(path) || dotSegmentIn(path) !== undefined || path.includes('{') || trim(path) === '')
      continue;
    const filter = filterOf(doc, path, item);
    if (!filter) continue;
    used.add(path);
    const value = filter.style === 'postgrest' ? 'eq.{id}' : '{id}';
    found.push({
      path,
      collectionKey: path,
      param: filter.param,
      item: `${path}?${encodeURIComponent(filter.param)}=${value}`,
      filter: { param: filter.param, style: filter.style },
      ...(filter.idFromLocation ? { idFromLocation: true } : {}),
    });
  }
  const notProbed = [...items.keys()]
    .filter((path) => !used.has(path))
    .map((path) => ({ path, reason: whyNotProbed(path) }));
  return { found, notProbed };
}

/** Fields an id is usually in, most likely first (`<singular>Id`, `<singular>_id` are added). */
const ID_NAMES = ['id', '_id', 'uuid'];

/**
 * The query parameter a collection's GET declares that names one item: a primary key the item
 * schema marks (PostgREST's `<pk/>`), else one named like an id; or the one a documented
 * Location of its POST uses (`/widgets?id=eq.7`). PostgREST's style (`eq.`) when the document is
 * PostgREST's (its `rowFilter.*` parameters, or `select` beside filter-addressed writes).
 */
function filterOf(
  doc: Json,
  path: string,
  item: Json,
): { param: string; style: 'postgrest' | 'plain'; idFromLocation: boolean } | undefined {
  const get = operationOf(item, 'get');
  if (!get) return undefined;
  const queryNames = parametersOf(item, get)
    .filter((p) => p.in === 'query' && typeof p.name === 'string')
    .map((p) => String(p.name));
  const listBody = responseBodyOf(doc, get, successStatuses('200'));
  const { properties } = objectShape(resolveRef(doc, listItemSchema(listBody?.schema)));
  const singular = (path.replace(/\/+$/, '').split('/').pop() ?? '').replace(/s$/, '');
  const primary = Object.entries(properties)
    .filter(([, schema]) => isObject(schema) && /<pk\/>/.test(String(schema.description ?? '')))
    .map(([name]) => name);
  const named = [...ID_NAMES, `${singular}Id`, `${singular}_id`];
  const location = locationFilter(doc, item);
  const param =
    primary.find((name) => queryNames.includes(name)) ??
    named.find((name) => queryNames.includes(name)) ??
    (location && queryNames.includes(location.param) ? location.param : undefined);
  if (param === undefined) return undefined;
  const definitions = isObject(doc.parameters) ? Object.keys(doc.parameters) : [];
  const writesByFilter = ['patch', 'delete'].some((m) => operationOf(item, m) !== undefined);
  const postgrest =
    definitions.some((name) => name.startsWith('rowFilter.')) ||
    (queryNames.includes('select') && writesByFilter) ||
    location?.style === 'postgrest';
  return { param, style: postgrest ? 'postgrest' : 'plain', idFromLocation: location?.bodyless ?? false };
}

/** The query parameter of the Location the POST's 201 documents (its example), and whether 201 has no JSON body. */
function locationFilter(
  doc: Json,
  item: Json,
): { param: string; style: 'postgrest' | 'plain'; bodyless: boolean } | undefined {
  const post = operationOf(item, 'post');
  const responses = post && isObject(post.responses) ? post.responses : {};
  const created = isObject(responses['201']) ? responses['201'] : undefined;
  const headers = created && isObject(created.headers) ? created.headers : {};
  const header = Object.entries(headers).find(([name]) => name.toLowerCase() === 'location')?.[1];
  if (!isObject(header)) return undefined;
  const schema = isObject(header.schema) ? header.schema : header;
  const example = [
    header.example,
    schema.example,
    ...asObjects(Object.values(isObject(header.examples) ? header.examples : {})).map((e) => e.value),
  ].find((v) => typeof v === 'string');
  if (typeof example !== 'string') return undefined;
  const query = example.split('?')[1];
  if (!query) return undefined;
  const [name, value] = query.split('&')[0].split('=');
  if (!name || value === undefined) return undefined;
  const bodyless = post ? !responseBodyOf(doc, post, ['201']) : false;
  return {
    param: decodeURIComponent(name),
    style: value.startsWith('eq.') ? 'postgrest' : 'plain',
    bodyless,
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
  return `no item path (${path.replace(/\/+$/, '')}/{id}) beside it, and no query parameter naming an item's id: not a collection of items`;
}
