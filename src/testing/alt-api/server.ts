// The alternative API's node:http server: authentication, rate limit, routing, media types, then the operation.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FixtureServer } from '../fixture-server.js';
import { resolveAlt, type AltApiOptions, type ResolvedAlt } from './options.js';
import { altResources, type AltResource } from './resources.js';
import { AltStore } from './store.js';
import { errorReply, jsonType, type Reply, type Where } from './reply.js';
import { runOperation, type KeyStore } from './handlers.js';
import { attributesOf } from './jsonapi.js';
import { acceptsAnyJwt, beforeAuthentication, unknownPath, type Remembered } from './breaks.js';
import { hit, rateHeaders, tooMany, type Windows } from './ratelimit.js';

/** A running alternative API. */
export interface AltServer extends FixtureServer {
  options: ResolvedAlt;
  resources: AltResource[];
}

const MAX_BODY = 1024 * 1024;
/** The parent resource of nested collections. */
export const PARENT = '/accounts/acc_main';
const REALM = 'alt-api';

/** Starts the alternative API on 127.0.0.1, any free port. */
export async function startAltApi(options: AltApiOptions = {}): Promise<AltServer> {
  const opts = resolveAlt(options);
  const resources = altResources();
  const store = new AltStore(resources, opts, opts.seeded);
  const keys: KeyStore = new Map();
  const windows: Windows = new Map();
  const sessions = new Set<string>();
  const remembered: Remembered = new WeakSet();
  /** Buckets the limit-never-lifts break keeps refusing, until when. */
  const stuck = new Map<string, number>();
  const sockets = new Set<Socket>();
  let origin = '';
  /** Where the collections are: the version prefix, and the parent resource when nested. */
  const collectionsAt = `${opts.prefix}${opts.nested ? PARENT : ''}`;

  const handle = (req: IncomingMessage, raw: Buffer | 'too-large'): Reply => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toUpperCase();
    const where: Where = { origin, prefix: collectionsAt, opts };

    // 0. Optionally, a limit per client address that counts even unauthenticated requests.
    if (opts.limitBeforeAuth) {
      const early = hit(
        windows,
        `${req.socket.remoteAddress} ${url.pathname}`,
        opts.rateLimitPerSecond * 2,
        opts.now(),
      );
      if (early.count > opts.rateLimitPerSecond * 2) return tooMany(where, early.resetAt);
    }
    const early = beforeAuthentication(req, url, raw, where, store, resources);
    if (early) return early;
    // 1. Authentication, before anything about the path or the body.
    const who = authenticate(req, where, sessions, remembered);
    if (who.kind === 'full' && who.via === 'header') remembered.add(req.socket);
    if (who.kind === 'missing') {
      if (opts.breaks.has('unauthenticated-404')) return errorReply(where, 404, 'not_found');
      if (opts.breaks.has('missing-token-403')) return errorReply(where, 403, 'forbidden');
      return errorReply(where, 401, 'unauthorized', { headers: challenge(opts, '') });
    }
    if (who.kind === 'invalid') {
      return errorReply(where, 401, 'invalid_token', {
        detail: 'The access token is malformed, expired or revoked',
        headers: challenge(opts, ', error="invalid_token", error_description="The access token is invalid"'),
      });
    }

    // 2. Rate limit per token and path.
    const bucket = opts.rateLimitScope === 'token' ? who.token : `${who.token} ${url.pathname}`;
    const limit = hit(windows, bucket, opts.rateLimitPerSecond, opts.now());
    if (opts.breaks.has('limit-never-lifts')) {
      // Every excess (stuck or not) starts the 10 s again: a script's burst after the audit meets it too.
      if (limit.count > opts.rateLimitPerSecond) stuck.set(bucket, opts.now() + 10_000);
      if ((stuck.get(bucket) ?? 0) > opts.now()) limit.count = opts.rateLimitPerSecond + 1;
    }
    const limitHeaders = opts.breaks.has('no-retry-headers') ? {} : rateHeaders(opts, limit, false);
    const withLimit = (reply: Reply): Reply => ({ ...reply, headers: { ...limitHeaders, ...reply.headers } });
    if (limit.count > opts.rateLimitPerSecond) {
      if (opts.breaks.has('limit-503')) {
        return errorReply(where, 503, 'too_many_requests', { headers: { 'Retry-After': '1' } });
      }
      return tooMany(where, limit.resetAt, limit.count);
    }
    const sessionCookie: Record<string, string> =
      opts.breaks.has('session-cookie') && who.kind === 'full' && who.via === 'header'
        ? { 'Set-Cookie': `sid=${newSession(sessions)}; Path=/; HttpOnly` }
        : {};
    return withLimit(withHeaders(route(req, url, method, raw, who, where), sessionCookie));
  };

  const route = (
    req: IncomingMessage,
    url: URL,
    method: string,
    raw: Buffer | 'too-large',
    who: { kind: 'full' | 'limited'; token: string },
    where: Where,
  ): Reply => {
    // 3. The path: <prefix>/<collection>[/<id>].
    const prefix = opts.breaks.has('any-version')
      ? (/^(\/api)?\/v\d+(?=\/)/.exec(url.pathname)?.[0] ?? opts.prefix)
      : collectionsAt;
    if (!url.pathname.startsWith(`${prefix}/`)) return unknownPath(url, where);
    const segments = url.pathname
      .slice(prefix.length + 1)
      .split('/')
      .filter((s, i, all) => s !== '' || i < all.length - 1);
    const r = resources.find((res) => res.name === segments[0]);
    if (!r || segments.length > 2 || segments.some((s) => s === '')) return unknownPath(url, where);
    let id: string | undefined;
    try {
      id = segments[1] === undefined ? undefined : decodeURIComponent(segments[1]);
    } catch {
      return errorReply(where, 404, 'not_found');
    }
    // 4. The method.
    const noPut = r.name === 'settings' && opts.settingsOps === 'no-put';
    const readOnly = r.name === 'updates' && opts.updatesOps === 'read-only';
    const allowed = (
      id === undefined
        ? ['GET', 'HEAD', 'POST', 'OPTIONS']
        : ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']
    ).filter((m) => !(noPut && m === 'PUT') && !(readOnly && !['GET', 'HEAD', 'OPTIONS'].includes(m)));
    if (method === 'OPTIONS') return { status: 204, headers: { Allow: allowed.join(', ') } };
    if (!allowed.includes(method)) {
      return errorReply(where, 405, 'method_not_allowed', { headers: { Allow: allowed.join(', ') } });
    }
    const op = method === 'HEAD' ? 'GET' : method;
    // 5. Permission: the limited token reads only.
    const write = op !== 'GET';
    const mayWrite = opts.limitedMay === 'write-but-not-delete' && op !== 'DELETE';
    if (write && who.kind === 'limited' && !mayWrite) {
      if (opts.breaks.has('forbidden-still-acts') && op === 'DELETE' && id !== undefined) {
        runOperation(store, keys, {
          method: op,
          r,
          id,
          raw: '',
          query: url.searchParams,
          token: who.token,
          where,
        });
      }
      if (opts.breaks.has('limited-401')) return errorReply(where, 401, 'unauthorized');
      return errorReply(where, 403, 'forbidden', { detail: 'This token may only read' });
    }
    if (id !== undefined && opts.breaks.has('malformed-id-400') && !r.idShape.test(id)) {
      return errorReply(where, 400, 'bad_request', { detail: `"${id}" is not a valid ${r.idField}` });
    }
    // 6. The body of a write: JSON only, an object.
    let body: unknown;
    let text = '';
    if (op === 'POST' || op === 'PUT' || op === 'PATCH') {
      if (raw === 'too-large') return errorReply(where, 413, 'payload_too_large');
      text = raw.toString('utf8');
      const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      const isJson = type === 'application/json' || type.endsWith('+json');
      if (text !== '' && !isJson && !opts.breaks.has('accept-text-plain')) {
        return errorReply(where, 415, 'unsupported_media_type', {
          detail: `Send application/json${op === 'PATCH' ? ' or application/merge-patch+json' : ''}`,
          headers: { 'Accept-Patch': 'application/merge-patch+json, application/json' },
        });
      }
      if (text.trim() === '')
        return errorReply(where, 400, 'bad_request', { detail: 'A JSON body is required' });
      try {
        body = JSON.parse(text);
      } catch {
        return errorReply(where, 400, 'bad_request', { detail: 'The body is not valid JSON' });
      }
      const batch = op === 'POST' && Array.isArray(body) && opts.breaks.has('array-batch-create');
      const nullPatch = op === 'PATCH' && body === null && opts.breaks.has('null-patch-ok');
      if ((typeof body !== 'object' || body === null || Array.isArray(body)) && !batch && !nullPatch) {
        return errorReply(where, 400, 'bad_request', { detail: 'The body must be a JSON object' });
      }
      if (opts.format === 'jsonapi' && !batch && !nullPatch) {
        const doc = attributesOf(r, body, op === 'POST' ? undefined : id);
        if ('status' in doc)
          return errorReply(where, doc.status, doc.status === 409 ? 'conflict' : 'bad_request', {
            detail: doc.detail,
          });
        body = doc.attributes;
      }
    }
    const header = opts.idempotencyHeader.toLowerCase();
    const key = req.headers[header];
    const reply = runOperation(store, keys, {
      method: op,
      r,
      id,
      body,
      raw: text,
      query: url.searchParams,
      token: who.token,
      idempotencyKey: typeof key === 'string' ? key : undefined,
      where,
    });
    return method === 'HEAD' ? { ...reply, body: undefined } : reply;
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      let reply: Reply;
      try {
        reply = handle(req, tooLarge ? 'too-large' : Buffer.concat(chunks));
      } catch (err) {
        reply = errorReply({ origin, prefix: collectionsAt, opts }, 500, 'internal', {
          detail: (err as Error).message,
        });
      }
      if (opts.latencyMs > 0) setTimeout(() => write(res, reply, opts), opts.latencyMs);
      else write(res, reply, opts);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: origin + opts.prefix,
    tokens: opts.tokens,
    options: opts,
    resources,
    snapshot: () => store.snapshot(),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The WWW-Authenticate of a 401 (`extra`: the error parameters of an invalid token). */
function challenge(opts: ResolvedAlt, extra: string): Record<string, string> {
  if (opts.breaks.has('no-challenge')) return {};
  const bearer = `Bearer realm="${REALM}"${extra}`;
  // Two challenges go out as two header lines (see write()).
  return { 'WWW-Authenticate': opts.challenges === 'bearer' ? bearer : `Basic realm="${REALM}"\n${bearer}` };
}

type Who =
  | { kind: 'missing' }
  | { kind: 'invalid' }
  | { kind: 'full' | 'limited'; token: string; via: 'header' | 'cookie' | 'connection' };

/** Bearer tokens only (scheme case-insensitive); the session-cookie break also takes a session id. */
function authenticate(
  req: IncomingMessage,
  where: Where,
  sessions: Set<string>,
  remembered: Remembered,
): Who {
  const opts = where.opts;
  const header = req.headers.authorization;
  if (header === undefined) {
    const sid = /(?:^|;\s*)sid=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    if (sid && sessions.has(sid)) return { kind: 'full', token: opts.tokens.full, via: 'cookie' };
    if (opts.breaks.has('remembers-connection') && remembered.has(req.socket)) {
      return { kind: 'full', token: opts.tokens.full, via: 'connection' };
    }
    return { kind: 'missing' };
  }
  if (opts.breaks.has('basic-accepted') && /^basic +/i.test(header)) {
    if (same(header.replace(/^basic +/i, ''), opts.tokens.full)) {
      return { kind: 'full', token: opts.tokens.full, via: 'header' };
    }
  }
  const match = /^bearer +(\S+)\s*$/i.exec(header);
  if (!match) return { kind: 'invalid' };
  if (same(match[1], opts.tokens.full)) return { kind: 'full', token: match[1], via: 'header' };
  if (same(match[1], opts.tokens.limited)) return { kind: 'limited', token: match[1], via: 'header' };
  if (acceptsAnyJwt(where, match[1])) return { kind: 'full', token: opts.tokens.full, via: 'header' };
  return { kind: 'invalid' };
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function newSession(sessions: Set<string>): string {
  const sid = randomBytes(12).toString('hex');
  sessions.add(sid);
  return sid;
}

function withHeaders(reply: Reply, headers: Record<string, string>): Reply {
  return { ...reply, headers: { ...reply.headers, ...headers } };
}

function write(res: ServerResponse, reply: Reply, opts: ResolvedAlt): void {
  const headers: Record<string, string | string[]> = { 'X-Request-Id': randomUUID(), ...reply.headers };
  if (opts.closeConnections) headers.Connection = 'close';
  // Its own clock (node's Date header would read the real one), skewed when asked.
  headers.Date = new Date(opts.now() + opts.clockSkewMs).toUTCString();
  const challenges = reply.headers['WWW-Authenticate'];
  if (challenges?.includes('\n')) headers['WWW-Authenticate'] = challenges.split('\n');
  if (opts.affinityCookie) {
    const own = reply.headers['Set-Cookie'];
    headers['Set-Cookie'] = [...(own ? [own] : []), 'lb_node=alt-node-1; Path=/; HttpOnly'];
  }
  if ((reply.body !== undefined || reply.text !== undefined) && reply.status !== 204) {
    const text = reply.text ?? JSON.stringify(reply.body);
    headers['Content-Type'] = reply.type ?? jsonType(opts);
    headers['Content-Length'] = String(Buffer.byteLength(text));
    res.writeHead(reply.status, headers);
    res.end(text);
    return;
  }
  res.writeHead(reply.status, headers);
  res.end();
}
