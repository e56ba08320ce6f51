// JSON:API (jsonapi.org) documents for the alternative API's `format: 'jsonapi'` switch.
import type { ResolvedAlt } from './options.js';
import type { AltResource, Problem } from './resources.js';
import { represent, type StoredRecord } from './store.js';

/** The JSON:API media type (requests labelled application/json are accepted too, as most servers do). */
export const JSON_API = 'application/vnd.api+json';

interface Place {
  origin: string;
  prefix: string;
  opts: ResolvedAlt;
}

function url(r: AltResource, place: Place, id?: string): string {
  return `${place.origin}${place.prefix}/${r.name}${id === undefined ? '' : `/${encodeURIComponent(id)}`}`;
}

/** A resource object: `{type, id, attributes, links}`; server-managed members are attributes too. */
export function resourceObject(r: AltResource, rec: StoredRecord, place: Place): Record<string, unknown> {
  const { [r.idField]: _id, ...attributes } = represent(r, rec, place.opts);
  return { type: r.name, id: rec.id, attributes, links: { self: url(r, place, rec.id) } };
}

/** A single-resource document. */
export function itemDocument(r: AltResource, rec: StoredRecord, place: Place): unknown {
  return { data: resourceObject(r, rec, place), jsonapi: { version: '1.1' } };
}

/** One page of a collection: `?page[number]=N` (from 1), links.next while there are more. */
export function listDocument(
  r: AltResource,
  records: StoredRecord[],
  place: Place,
  query: URLSearchParams,
): unknown {
  const size = place.opts.pageSize;
  const n = Number(query.get('page[number]') ?? 1);
  const page = Number.isInteger(n) && n >= 1 ? n : 1;
  const slice = records.slice((page - 1) * size, page * size);
  const links: Record<string, string> = { self: `${url(r, place)}?page[number]=${page}` };
  if (page * size < records.length) links.next = `${url(r, place)}?page[number]=${page + 1}`;
  return {
    data: slice.map((rec) => resourceObject(r, rec, place)),
    links,
    meta: { total: records.length },
    jsonapi: { version: '1.1' },
  };
}

/** An error document: `{errors: [{status, code, title, detail?, source?}]}`, one entry per problem. */
export function errorDocument(
  status: number,
  code: string,
  title: string,
  detail?: string,
  problems?: Problem[],
): unknown {
  const entries = problems?.length
    ? problems.map((p) => ({
        status: String(status),
        code,
        title,
        detail: p.detail,
        source: { pointer: `/data/attributes${p.pointer}` },
      }))
    : [{ status: String(status), code, title, ...(detail !== undefined ? { detail } : {}) }];
  return { errors: entries };
}

/**
 * The attributes of a request document `{data: {type, id?, attributes}}`, or why it is refused:
 * 400 for a document of the wrong shape, 409 for another resource type (as JSON:API says).
 */
export function attributesOf(
  r: AltResource,
  body: unknown,
  id: string | undefined,
): { attributes: Record<string, unknown> } | { status: 400 | 409; detail: string } {
  const data = isObject(body) ? body.data : undefined;
  if (!isObject(data)) return { status: 400, detail: 'The document needs a "data" object' };
  if (data.type !== r.name) return { status: 409, detail: `"data.type" must be "${r.name}"` };
  if (data.id !== undefined && data.id !== id)
    return { status: 409, detail: '"data.id" does not match the URL' };
  if (!isObject(data.attributes)) return { status: 400, detail: 'The document needs "data.attributes"' };
  return { attributes: data.attributes };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
