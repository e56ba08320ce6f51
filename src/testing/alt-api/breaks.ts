// Rule breaks of the alternative API that act around authentication and routing.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { errorReply, type Reply, type Where } from './reply.js';
import type { AltResource } from './resources.js';
import type { AltStore } from './store.js';

/**
 * Answers a request without credentials before authentication, as the auth-after-validation
 * and auth-after-existence breaks do; undefined when no break applies.
 */
export function beforeAuthentication(
  req: IncomingMessage,
  url: URL,
  raw: Buffer | 'too-large',
  where: Where,
  store: AltStore,
  resources: AltResource[],
): Reply | undefined {
  const breaks = where.opts.breaks;
  if (req.headers.authorization !== undefined) return undefined;
  const method = (req.method ?? 'GET').toUpperCase();
  if (
    breaks.has('auth-after-validation') &&
    ['POST', 'PUT', 'PATCH'].includes(method) &&
    raw !== 'too-large'
  ) {
    try {
      JSON.parse(raw.toString('utf8'));
    } catch {
      return errorReply(where, 400, 'bad_request', { detail: 'The body is not valid JSON' });
    }
  }
  if (breaks.has('auth-after-existence') && url.pathname.startsWith(`${where.prefix}/`)) {
    const [name, id, ...rest] = url.pathname.slice(where.prefix.length + 1).split('/');
    const r = resources.find((res) => res.name === name);
    if (r && id && rest.length === 0 && !store.find(r.name, decodeURIComponent(id))) {
      return errorReply(where, 404, 'not_found', { detail: `No ${r.objectName} with ${r.idField} ${id}` });
    }
  }
  return undefined;
}

/** The answer to an unknown path or collection: a 404 in the API's style, or what a break puts there. */
export function unknownPath(url: URL, where: Where): Reply {
  const breaks = where.opts.breaks;
  if (breaks.has('unknown-collection-200'))
    return { status: 200, headers: {}, body: { items: [], next: null } };
  if (breaks.has('html-404')) {
    return {
      status: 404,
      headers: {},
      type: 'text/html; charset=utf-8',
      text: `<html><body><h1>404 Not Found</h1><p>${url.pathname}</p></body></html>`,
    };
  }
  if (breaks.has('gateway-error-shape')) {
    return {
      status: 404,
      headers: {},
      type: 'application/json',
      body: { message: 'no Route matched with those values' },
    };
  }
  return errorReply(where, 404, 'not_found', { detail: `Nothing at ${url.pathname}` });
}

/** Sockets that carried the full token once (the remembers-connection break trusts them afterwards). */
export type Remembered = WeakSet<Socket>;

/** True when a JWT-shaped token is taken as valid (the any-jwt-accepted break). */
export function acceptsAnyJwt(where: Where, token: string): boolean {
  return where.opts.breaks.has('any-jwt-accepted') && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}
