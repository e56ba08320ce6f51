// Helpers for example-API middleware that breaks a rule by calling the API itself (e.g. a GET that also writes).
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Header marking a middleware's own calls, so the middleware lets them through to the API. */
const INNER = 'x-fixture-inner';

/** True for a request a middleware sent to its own server (never intercept those). */
export function isInner(req: IncomingMessage): boolean {
  return req.headers[INNER] === '1';
}

export interface SelfAnswer {
  status: number;
  json: unknown;
  headers: Record<string, string>;
}

/** Sends a request to the same example API with the caller's credentials, past the middleware. */
export async function selfRequest(
  req: IncomingMessage,
  method: string,
  path: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<SelfAnswer> {
  const headers: Record<string, string> = { ...extraHeaders, [INNER]: '1' };
  if (req.headers.authorization) headers.authorization = req.headers.authorization;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`http://${req.headers.host}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, headers: Object.fromEntries(res.headers) };
}

/** Answers a JSON body (or none when `body` is undefined). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): void {
  if (body === undefined) {
    res.writeHead(status, headers).end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** Replays a self answer to the client (status, Location, JSON body). */
export function replay(res: ServerResponse, answer: SelfAnswer, body: unknown = answer.json): void {
  const headers: Record<string, string> = {};
  if (answer.headers.location) headers.location = answer.headers.location;
  sendJson(res, answer.status, body, headers);
}

/** The request path without the query string. */
export function pathOf(req: IncomingMessage): string {
  return (req.url ?? '').split('?')[0];
}

/** Parses a request body as JSON (undefined when it is not JSON). */
export function jsonOf(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
