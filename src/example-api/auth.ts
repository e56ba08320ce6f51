// Authentication: Bearer tokens, judged before anything else, with an RFC 6750 challenge on every 401.
import { errorReply, type Reply } from './reply.js';

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
