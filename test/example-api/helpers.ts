// Test helpers for the example API: start an instance on 127.0.0.1:0 and send requests with fetch.
import { createExampleApi, type ExampleApi, type ExampleApiOptions } from '../../src/example-api/index.js';

/** A started example API. */
export interface Running {
  api: ExampleApi;
  origin: string;
  baseUrl: string;
}

/** Creates and starts an example API on a free loopback port. */
export async function start(options?: ExampleApiOptions): Promise<Running> {
  const api = createExampleApi(options);
  const { origin, baseUrl } = await api.listen();
  return { api, origin, baseUrl };
}

/** What a client sees of one answer. */
export interface Seen {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed body, undefined when empty or not JSON. */
  json: any;
  contentType: string;
}

export interface CallOptions {
  /** Bearer token (default: the full token); null sends no Authorization header. */
  token?: string | null;
  /** Sets the Authorization header verbatim (overrides `token`). */
  authorization?: string;
  /** A JSON body (sent with Content-Type application/json unless `contentType` says otherwise). */
  json?: unknown;
  /** A raw body. */
  body?: string;
  /** Content-Type to send; null sends none. */
  contentType?: string | null;
  headers?: Record<string, string>;
}

/** Sends one request to `baseUrl + path` (or to an absolute URL). */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Seen> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? 'demo-full-token' : options.token;
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  else if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | undefined = options.body;
  if (options.json !== undefined) body = JSON.stringify(options.json);
  const hasBody = body !== undefined || options.contentType !== undefined;
  if (hasBody && options.contentType !== null)
    headers['content-type'] = options.contentType ?? 'application/json';
  // fetch adds a text/plain Content-Type to string bodies; a Uint8Array body carries none.
  const payload = body === undefined ? undefined : new TextEncoder().encode(body);
  const url = path.startsWith('http') ? path : baseUrl + path;
  const res = await fetch(url, { method, headers, body: payload });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status: res.status,
    headers: res.headers,
    text,
    json,
    contentType: res.headers.get('content-type') ?? '',
  };
}

/** Shorthand for a request with the full token. */
export const FULL = 'demo-full-token';
/** The default limited (read-only) token. */
export const LIMITED = 'demo-limited-token';
