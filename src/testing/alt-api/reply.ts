// Answers of the alternative API: items, the four list styles, problem+json or flat errors.
import { randomUUID } from 'node:crypto';
import type { ResolvedAlt } from './options.js';
import type { AltResource, Problem } from './resources.js';
import { etagOf, represent, type StoredRecord } from './store.js';
import { errorDocument, itemDocument, JSON_API, listDocument } from './jsonapi.js';

/** One answer before it is written. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  /** JSON body; undefined for none. */
  body?: unknown;
  /** Media type of the body (default: the API's JSON type). */
  type?: string;
  /** A body that is not JSON (breaks only), sent as is. */
  text?: string;
}

/** Where the request came from: what answers need to build URLs. */
export interface Where {
  /** `http://127.0.0.1:1234` */
  origin: string;
  /** `/v2` or `/api/v2` */
  prefix: string;
  opts: ResolvedAlt;
}

/** Media type of non-error JSON answers. */
export function jsonType(opts: ResolvedAlt): string {
  if (opts.contentType) return opts.contentType;
  if (opts.format === 'jsonapi') return JSON_API;
  return opts.lists === 'hal' ? 'application/hal+json' : 'application/json; charset=utf-8';
}

/** Query parameters each list style understands (the unknownQuery switch refuses the others). */
export const LIST_PARAMS: Record<ResolvedAlt['lists'], string[]> = {
  cursor: ['cursor'],
  drf: ['page'],
  stripe: ['starting_after'],
  hal: ['page'],
};

/** A record as an answer shows it (Stripe-style `object`, HAL `_links` where that style is chosen). */
export function view(r: AltResource, rec: StoredRecord, where: Where): Record<string, unknown> {
  const item = represent(r, rec, where.opts);
  if (where.opts.lists === 'stripe') return { object: r.objectName, ...item };
  if (where.opts.lists === 'hal') {
    return { ...item, _links: { self: { href: itemUrl(r, rec.id, where) } } };
  }
  return item;
}

export function itemUrl(r: AltResource, id: string, where: Where): string {
  return `${where.origin}${where.prefix}/${r.name}/${encodeURIComponent(id)}`;
}

/** An item answer, wrapped as the options say, with ETag and Last-Modified. */
export function itemReply(
  status: number,
  r: AltResource,
  rec: StoredRecord,
  where: Where,
  headers: Record<string, string> = {},
): Reply {
  const item = view(r, rec, where);
  const body =
    where.opts.format === 'jsonapi'
      ? itemDocument(r, rec, where)
      : where.opts.items === 'data'
        ? { data: item, meta: { request_id: randomUUID() } }
        : where.opts.items === 'named'
          ? { [r.objectName]: item, meta: { request_id: randomUUID() } }
          : item;
  return {
    status,
    headers: {
      ETag: etagOf(rec),
      'Last-Modified': new Date(rec.updatedAt).toUTCString(),
      ...headers,
    },
    body,
  };
}

/** One page of a collection in the chosen list style; `query` holds the paging parameters. */
export function listReply(
  r: AltResource,
  records: StoredRecord[],
  where: Where,
  query: URLSearchParams,
): Reply {
  const size = where.opts.pageSize;
  const base = `${where.origin}${where.prefix}/${r.name}`;
  if (where.opts.format === 'jsonapi') {
    return { status: 200, headers: {}, body: listDocument(r, records, where, query) };
  }
  const views = (recs: StoredRecord[]): unknown[] =>
    recs.map((rec) => (where.opts.listFields === 'summary' ? summary(r, rec, where) : view(r, rec, where)));
  switch (where.opts.lists) {
    case 'cursor': {
      // Cursor paging: the items after the record named by ?cursor=<id>.
      const cursor = query.get('cursor');
      const start = cursor ? records.findIndex((rec) => rec.id === cursor) + 1 : 0;
      const page = records.slice(start, start + size);
      const more = start + size < records.length;
      const next = more ? `${base}?cursor=${encodeURIComponent(page[page.length - 1].id)}` : null;
      return { status: 200, headers: {}, body: { items: views(page), next } };
    }
    case 'drf': {
      const page = pageNumber(query.get('page'), 1);
      const slice = records.slice((page - 1) * size, page * size);
      const next = page * size < records.length ? `${base}?page=${page + 1}` : null;
      const previous = page > 1 ? `${base}?page=${page - 1}` : null;
      return {
        status: 200,
        headers: {},
        body: { count: records.length, next, previous, results: views(slice) },
      };
    }
    case 'stripe': {
      // Newest first; ?starting_after=<id> continues after that record.
      const newest = [...records].reverse();
      const after = query.get('starting_after');
      const start = after ? newest.findIndex((rec) => rec.id === after) + 1 : 0;
      const page = newest.slice(start, start + size);
      return {
        status: 200,
        headers: {},
        body: {
          object: 'list',
          data: views(page),
          has_more: start + size < newest.length,
          url: `${where.prefix}/${r.name}`,
        },
      };
    }
    case 'hal': {
      const number = pageNumber(query.get('page'), 0);
      const slice = records.slice(number * size, (number + 1) * size);
      const totalPages = Math.max(1, Math.ceil(records.length / size));
      const links: Record<string, { href: string }> = { self: { href: `${base}?page=${number}` } };
      if (number + 1 < totalPages) links.next = { href: `${base}?page=${number + 1}` };
      return {
        status: 200,
        headers: {},
        body: {
          _embedded: { [r.name]: views(slice) },
          _links: links,
          page: { size, totalElements: records.length, totalPages, number },
        },
      };
    }
  }
}

/** A list entry that is not the whole item: its id, its first field, and where the item is. */
function summary(r: AltResource, rec: StoredRecord, where: Where): Record<string, unknown> {
  const first = Object.keys(r.fields)[0];
  return { [r.idField]: rec.id, [first]: rec.fields[first], href: itemUrl(r, rec.id, where) };
}

function pageNumber(text: string | null, first: number): number {
  const n = Number(text ?? first);
  return Number.isInteger(n) && n >= first ? n : first;
}

/** Problem types by code; the titles are fixed, the detail says what happened (when there is more to say). */
const TITLES: Record<string, string> = {
  unauthorized: 'Authentication required',
  invalid_token: 'Invalid access token',
  forbidden: 'Not permitted',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  unsupported_media_type: 'Unsupported media type',
  bad_request: 'Malformed request',
  validation_failed: 'Validation failed',
  too_many_requests: 'Too many requests',
  payload_too_large: 'Payload too large',
  idempotency_key_reused: 'Idempotency key reused',
  gone: 'Gone',
  conflict: 'Conflict',
  internal: 'Internal error',
};

/** An error answer in the chosen style; `detail` and `errors` appear only when given. */
export function errorReply(
  where: Where,
  status: number,
  code: string,
  options: { detail?: string; errors?: Problem[]; instance?: string; headers?: Record<string, string> } = {},
): Reply {
  const title = TITLES[code] ?? code;
  if (where.opts.format === 'jsonapi') {
    return {
      status,
      headers: options.headers ?? {},
      type: JSON_API,
      body: errorDocument(status, code, title, options.detail, options.errors),
    };
  }
  if (where.opts.errors === 'problem') {
    return {
      status,
      headers: options.headers ?? {},
      type: 'application/problem+json',
      body: {
        type: `https://alt.example/problems/${code.replace(/_/g, '-')}`,
        title,
        status,
        ...(options.detail !== undefined ? { detail: options.detail } : {}),
        ...(options.instance !== undefined ? { instance: options.instance } : {}),
        ...(options.errors ? { errors: options.errors } : {}),
      },
    };
  }
  return {
    status,
    headers: options.headers ?? {},
    type: 'application/json; charset=utf-8',
    body: {
      code,
      message: options.detail ?? title,
      request_id: randomUUID(),
      ...(options.errors
        ? { errors: options.errors.map((e) => ({ field: e.pointer, issue: e.detail })) }
        : {}),
    },
  };
}
