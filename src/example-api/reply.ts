// Replies of the example API: the value handlers return, the body styles, and how a reply is written.
import type { ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { ResourceOperation } from './resources.js';

/** What a handler answers, before breaks and rendering. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  /** A JSON value to serialise; undefined sends no body. */
  body?: unknown;
  /** An error: rendered in the configured error style (takes precedence over `body`). */
  error?: { code: string; message: string };
  /** A body sent as-is with its own media type (used by breaks that send non-JSON). */
  raw?: { contentType: string; text: string };
  /** The resource operation that produced the reply (unset for internal collections and routing errors). */
  op?: ResourceOperation;
  /** True when the reply is a 404 for an item id that names no record. */
  unknownId?: boolean;
}

/** Valid ways to shape bodies and headers (the `variant` option). */
export interface RenderStyle {
  errorStyle: 'json' | 'problem';
  /** Media type of JSON answers. */
  contentType: string;
}

/** A successful JSON reply. */
export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers, body };
}

/** An error reply with a stable machine-readable code. */
export function errorReply(
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): Reply {
  return { status, headers, error: { code, message } };
}

/** Serialises a reply into status, headers and body text. */
export function renderReply(
  reply: Reply,
  style: RenderStyle,
): { status: number; headers: Record<string, string>; text: string } {
  const headers: Record<string, string> = { ...reply.headers };
  let text = '';
  if (reply.raw) {
    text = reply.raw.text;
    headers['Content-Type'] = reply.raw.contentType;
  } else if (reply.error) {
    const { body, contentType } = errorBody(reply.status, reply.error, style);
    text = JSON.stringify(body);
    headers['Content-Type'] = contentType;
  } else if (reply.body !== undefined && reply.status !== 204 && reply.status !== 304) {
    text = JSON.stringify(reply.body);
    headers['Content-Type'] = style.contentType;
  }
  headers['Content-Length'] = String(Buffer.byteLength(text));
  headers['Cache-Control'] = 'no-store';
  return { status: reply.status, headers, text };
}

/** The error body in the configured style, with its media type. */
export function errorBody(
  status: number,
  error: { code: string; message: string },
  style: RenderStyle,
): { body: unknown; contentType: string } {
  if (style.errorStyle === 'problem') {
    return {
      body: { type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, detail: error.message },
      contentType: 'application/problem+json; charset=utf-8',
    };
  }
  return { body: { error: { code: error.code, message: error.message } }, contentType: style.contentType };
}

/** Writes a reply to the response (HEAD answers get the headers only, by node:http). */
export function sendReply(res: ServerResponse, reply: Reply, style: RenderStyle): void {
  const { status, headers, text } = renderReply(reply, style);
  res.writeHead(status, headers);
  res.end(text);
}

/** A list body in the configured list style. */
export function listBody(
  items: unknown[],
  style: 'envelope-data' | 'bare' | 'envelope-items' | 'paged',
): unknown {
  switch (style) {
    case 'bare':
      return items;
    case 'envelope-items':
      return { items, total: items.length };
    case 'paged':
      return { items, page: 1, pageSize: items.length, totalItems: items.length };
    case 'envelope-data':
      return { data: items, total: items.length };
  }
}

/** A single-item body in the configured item style. */
export function itemBody(item: unknown, style: 'bare' | 'envelope-data'): unknown {
  return style === 'envelope-data' ? { data: item } : item;
}
