// Middleware that makes the example API break (or keep) one authentication rule one way, for the auth and stateless tests.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Middleware } from '../../src/example-api/index.js';

export const FULL = 'demo-full-token';
export const LIMITED = 'demo-limited-token';

/** Lets every request `when` accepts through as if it carried the full token. */
export function actAsFull(when: (req: IncomingMessage, body: Buffer) => boolean): Middleware {
  return (req, _res, body) => {
    if (when(req, body)) req.headers.authorization = `Bearer ${FULL}`;
    return false;
  };
}

/** Answers every request `when` accepts with this status and a JSON error body. */
export function answer(status: number, when: (req: IncomingMessage, body: Buffer) => boolean): Middleware {
  return (req, res, body) => {
    if (!when(req, body)) return false;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'refused', message: `answered ${status} by the fixture` } }));
    return true;
  };
}

/** Rewrites the status (and headers) of whatever the API answers to requests `when` accepts. */
export function rewriteReply(
  when: (req: IncomingMessage) => boolean,
  rewrite: (status: number, headers: Record<string, string>) => number,
): Middleware {
  return (req, res) => {
    if (!when(req)) return false;
    const writeHead = res.writeHead.bind(res) as (
      status: number,
      headers?: Record<string, string>,
    ) => ServerResponse;
    (res as { writeHead: unknown }).writeHead = (status: number, headers: Record<string, string> = {}) => {
      const copy = { ...headers };
      return writeHead(rewrite(status, copy), copy);
    };
    return false;
  };
}

/** Several middlewares in order; the first that answers wins. */
export function chain(...steps: Middleware[]): Middleware {
  return async (req, res, body) => {
    for (const step of steps) if (await step(req, res, body)) return true;
    return false;
  };
}

export const noAuth = (req: IncomingMessage): boolean => !req.headers.authorization;
export const auth = (req: IncomingMessage): string => req.headers.authorization ?? '';
export const isWrite = (req: IncomingMessage): boolean =>
  !['GET', 'HEAD', 'OPTIONS'].includes(req.method ?? 'GET');
/** A request to one item of a declared collection (not the internal webhooks). */
export const isItem = (req: IncomingMessage): boolean =>
  /^\/v1\/(widgets|orders)\/[^/]+$/.test(req.url ?? '');
export const isJson = (body: Buffer): boolean => {
  try {
    JSON.parse(body.toString('utf8'));
    return true;
  } catch {
    return false;
  }
};

/** Drops `name` from a header object whatever its case; returns the removed value. */
export function dropHeader(headers: Record<string, string>, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  if (key === undefined) return undefined;
  const value = headers[key];
  delete headers[key];
  return value;
}

/**
 * Adds `meta.requestId`, new on every answer, beside the `data` of enveloped bodies: metadata of
 * the answer, not of the resource, so no comparison of state may count it as a change.
 */
export const stampEnvelopes: Middleware = (_req, res) => {
  const writeHead = res.writeHead.bind(res) as (
    status: number,
    headers?: Record<string, string>,
  ) => ServerResponse;
  const end = res.end.bind(res) as (chunk?: string | Buffer) => ServerResponse;
  (res as { writeHead: unknown }).writeHead = (status: number, headers: Record<string, string> = {}) => {
    const copy = { ...headers };
    dropHeader(copy, 'content-length');
    return writeHead(status, copy);
  };
  (res as { end: unknown }).end = (chunk?: string | Buffer) => {
    try {
      const body = JSON.parse(String(chunk)) as Record<string, unknown>;
      if (body && typeof body === 'object' && 'data' in body) {
        return end(JSON.stringify({ ...body, meta: { requestId: Math.random().toString(36).slice(2) } }));
      }
    } catch {
      // Not JSON: left as it is.
    }
    return end(chunk);
  };
  return false;
};
