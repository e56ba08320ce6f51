// Authentication: Bearer tokens (or another scheme), judged before anything else, with a challenge on every 401.
import type { IncomingMessage } from 'node:http';
import { errorReply, type Reply } from './reply.js';

/**
 * Where the example API looks for the credential (default: `Authorization: Bearer <token>`): a
 * header with a prefix (none: the bare token), a query parameter, a cookie, or HTTP Basic (the
 * tokens are then `user:password`). Only Authorization schemes send a challenge with their 401.
 */
export type AuthScheme =
  | { in: 'header'; name: string; prefix: string }
  | { in: 'query'; name: string }
  | { in: 'cookie'; name: string }
  | { in: 'basic' };

/** Authenticates a request under the configured scheme (Bearer when none is configured). */
export function authenticateRequest(
  req: IncomingMessage,
  tokens: { full: string; limited: string },
  scheme: AuthScheme | undefined,
): AuthResult {
  if (scheme === undefined) return authenticate(req.headers.authorization, tokens);
  const given = credentialIn(req, scheme);
  const challenge =
    scheme.in === 'basic'
      ? 'Basic realm="example"'
      : scheme.in === 'header' && scheme.name.toLowerCase() === 'authorization' && scheme.prefix !== ''
        ? `${scheme.prefix} realm="example"`
        : undefined;
  const refuse = (message: string): AuthResult => ({
    ok: false,
    reply: errorReply(401, 'unauthorized', message, challenge ? { 'WWW-Authenticate': challenge } : {}),
  });
  if (given === undefined || given === '') return refuse('Missing credentials');
  if (given === tokens.full) return { ok: true, token: given, role: 'full' };
  if (given === tokens.limited) return { ok: true, token: given, role: 'limited' };
  return refuse('Invalid credentials');
}

/** The credential as the scheme carries it, its prefix or encoding removed; undefined when absent or malformed. */
function credentialIn(req: IncomingMessage, scheme: AuthScheme): string | undefined {
  if (scheme.in === 'query') {
    const url = new URL(req.url ?? '/', 'http://localhost');
    return url.searchParams.get(scheme.name) ?? undefined;
  }
  if (scheme.in === 'cookie') {
    for (const part of (req.headers.cookie ?? '').split(';')) {
      const at = part.indexOf('=');
      if (at > 0 && part.slice(0, at).trim() === scheme.name) return part.slice(at + 1).trim();
    }
    return undefined;
  }
  const name = scheme.in === 'basic' ? 'authorization' : scheme.name.toLowerCase();
  const raw = req.headers[name];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (value === undefined) return undefined;
  const prefix = scheme.in === 'basic' ? 'Basic' : scheme.prefix;
  if (prefix === '') return value;
  const match = /^(\S+)\s+(\S+)$/.exec(value);
  if (!match || match[1].toLowerCase() !== prefix.toLowerCase()) return undefined;
  if (scheme.in !== 'basic') return match[2];
  const decoded = Buffer.from(match[2], 'base64').toString('utf8');
  return Buffer.from(decoded, 'utf8').toString('base64') === match[2] ? decoded : undefined;
}

/** What an authenticated token may do: `full` everything, `limited` only reads. */
export type Role = 'full' | 'limited';

/** The outcome of authentication: the caller's token and role, or the 401 to answer. */
export type AuthResult = { ok: true; token: string; role: Role } | { ok: false; reply: Reply };

/**
 * Judges an `Authorization` header value. Missing, empty, non-Bearer, empty-Bearer and unknown
 * credentials all answer 401 with a Bearer challenge (RFC 6750 §3); `error="invalid_token"` is
 * added only when a Bearer token was actually given.
 */
export function authenticate(
  header: string | undefined,
  tokens: { full: string; limited: string },
): AuthResult {
  const value = (header ?? '').trim();
  if (value === '') return unauthorized('Missing Authorization header', false);
  const space = value.search(/\s/);
  const scheme = space < 0 ? value : value.slice(0, space);
  const credential = space < 0 ? '' : value.slice(space).trim();
  if (scheme.toLowerCase() !== 'bearer')
    return unauthorized('Authorization must use the Bearer scheme', false);
  if (credential === '') return unauthorized('Empty bearer token', false);
  if (credential === tokens.full) return { ok: true, token: credential, role: 'full' };
  if (credential === tokens.limited) return { ok: true, token: credential, role: 'limited' };
  return unauthorized('Invalid or expired token', true);
}

function unauthorized(message: string, tokenGiven: boolean): AuthResult {
  const challenge = 'Bearer realm="example"' + (tokenGiven ? ', error="invalid_token"' : '');
  return { ok: false, reply: errorReply(401, 'unauthorized', message, { 'WWW-Authenticate': challenge }) };
}
