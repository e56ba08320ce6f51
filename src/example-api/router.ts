// Request dispatch in the order the conventions need: authentication, rate limit, routing, method, permission.
import type { IncomingMessage } from 'node:http';
import { authenticateRequest } from './auth.js';
import { rateLimitedReply } from './ratelimit.js';
import { runOperation, type App } from './handlers.js';
import { errorReply, type Reply } from './reply.js';
import type { ResourceOperation } from './resources.js';
import type { Collection } from './store.js';
import type { ResourceEvent } from './webhooks.js';

/** The body as read by the server: its bytes, or `too-large` when it passed the cap. */
export type RequestBody = Buffer | 'too-large';

/**
 * Answers one request. Authentication comes first (an unauthenticated request to an unknown
 * path is a 401, not a 404), then the rate limit (only authenticated requests count), the body
 * cap, routing, the method, the limited token's permission, and finally the operation.
 */
export function dispatch(
  app: App,
  req: IncomingMessage,
  body: RequestBody,
  origin: string,
  events: ResourceEvent[],
): Reply {
  const auth = authenticateRequest(req, app.opts.tokens, app.opts.authScheme);
  if (!auth.ok) return auth.reply;
  const scope = app.opts.rateLimit ? app.opts.rateLimit.scope : undefined;
  const key =
    scope === 'endpoint' ? `${auth.token} ${req.method} ${(req.url ?? '').split('?')[0]}` : auth.token;
  const rate = app.limiter?.hit(key);
  let reply: Reply;
  if (rate && !rate.allowed) reply = rateLimitedReply();
  else if (body === 'too-large') {
    reply = errorReply(
      413,
      'payload_too_large',
      `Request bodies are limited to ${app.opts.maxBodyBytes} bytes`,
    );
  } else reply = route(app, req, body, auth.token, auth.role === 'limited', origin, events);
  return rate ? { ...reply, headers: { ...reply.headers, ...rate.headers } } : reply;
}

function route(
  app: App,
  req: IncomingMessage,
  body: Buffer,
  token: string,
  readOnly: boolean,
  origin: string,
  events: ResourceEvent[],
): Reply {
  const segments = pathSegments(req.url ?? '/');
  const prefix = app.opts.versionPrefix.split('/').filter((s) => s !== '');
  const matches = segments !== undefined && prefix.every((p, i) => segments[i] === p);
  const rest = matches ? segments.slice(prefix.length) : [];
  if (rest.length < 1 || rest.length > 2) return notFound('No such path');
  const coll = rest[0] === 'webhooks' ? app.webhooks : app.collections.get(rest[0]);
  if (!coll) return notFound(`No collection "${rest[0]}"`);

  const isItem = rest.length === 2;
  const method = (req.method ?? 'GET').toUpperCase();
  const allow = allowedMethods(coll, isItem);
  if (method === 'OPTIONS') return { status: 204, headers: { Allow: allow.join(', ') } };
  const op = operationOf(method, isItem);
  if (!op || !coll.operations.includes(op)) {
    return errorReply(405, 'method_not_allowed', `${method} is not allowed here`, {
      Allow: allow.join(', '),
    });
  }
  if (readOnly && op !== 'list' && op !== 'read') {
    return errorReply(403, 'forbidden', 'This token may only read');
  }
  return runOperation(app, coll, { op, id: rest[1], headers: req.headers, body, token, origin, events });
}

function notFound(message: string): Reply {
  return errorReply(404, 'not_found', message);
}

/**
 * Decoded path segments of a request target (origin-form or absolute-form), without a trailing
 * empty segment; undefined when the target cannot be parsed or decoded.
 */
export function pathSegments(target: string): string[] | undefined {
  try {
    const url = target.startsWith('/') ? new URL(`http://localhost${target}`) : new URL(target);
    const segments = url.pathname.split('/').slice(1);
    if (segments.length > 0 && segments[segments.length - 1] === '') segments.pop();
    return segments.map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}

const METHOD_OPS: Record<string, [ResourceOperation | undefined, ResourceOperation | undefined]> = {
  // method: [on a collection, on an item]
  GET: ['list', 'read'],
  HEAD: ['list', 'read'],
  POST: ['create', undefined],
  PUT: [undefined, 'replace'],
  PATCH: [undefined, 'update'],
  DELETE: [undefined, 'delete'],
};

function operationOf(method: string, isItem: boolean): ResourceOperation | undefined {
  const ops = Object.hasOwn(METHOD_OPS, method) ? METHOD_OPS[method] : undefined;
  return ops?.[isItem ? 1 : 0];
}

/** The `Allow` header of a collection or item URL. */
function allowedMethods(coll: Collection, isItem: boolean): string[] {
  const methods = Object.keys(METHOD_OPS).filter((m) => {
    const op = operationOf(m, isItem);
    return op !== undefined && coll.operations.includes(op);
  });
  return [...methods, 'OPTIONS'];
}
