// The credentials the auth checks send: none, each kind of invalid one, and the limited token.
import type { AuthChoice } from '../../../src/core/check.js';
import {
  BEARER_PLACEMENT,
  type AuditConfig,
  type CredentialPlacement,
  type Secret,
} from '../../../src/core/types.js';

/** One credential the matrix sends, and how messages name it. */
export interface Credential {
  /** How a message says it was sent: "without credentials", "with a garbage Bearer token"... */
  phrase: string;
  auth: AuthChoice;
  /**
   * True when the header holds a working token (a wrong scheme around the real token, or the
   * limited token): under --read-only such a credential is only sent on GETs.
   */
  carriesToken: boolean;
}

export const NO_CREDENTIALS: Credential = {
  phrase: 'without credentials',
  auth: 'none',
  carriesToken: false,
};

export const LIMITED_TOKEN: Credential = {
  phrase: 'with the limited token',
  auth: 'limited',
  carriesToken: true,
};

/** A JWT whose `exp` is in 2001: any server that checks expiry (or signatures) refuses it. */
const EXPIRED_JWT = [
  { alg: 'HS256', typ: 'JWT' },
  { sub: 'conformance-audit', iat: 1_000_000_000, exp: 1_000_000_060 },
]
  .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
  .concat('c2lnbmF0dXJlLW9mLWFuLWV4cGlyZWQtdG9rZW4tZnJvbS1jb25mb3JtYW5jZQ')
  .join('.');

/** A value that no server issued as a credential. */
const GARBAGE = 'conformance-not-a-real-token-0000';

/** Context of the scheme-specific variants: the token and how a curl line rebuilds it. */
interface Derive {
  token: string;
  /** A shell expression for the token (`${API_TOKEN}`, or the login that obtains it), if any. */
  ref?: string;
  addSecret: (secret: Secret) => void;
}

/**
 * Every kind of invalid credential CONVENTIONS.md names, built for the configured scheme (see
 * `CredentialPlacement`). Those derived from the real token are registered as secrets (through
 * `addSecret`) with a shell expression, so reports never show them and curl lines rebuild them
 * from the token's environment variable (or the login that obtains it).
 */
export function invalidCredentials(config: AuditConfig, addSecret: (secret: Secret) => void): Credential[] {
  const placement = config.auth.placement ?? BEARER_PLACEMENT;
  const token = config.auth.token;
  const known = config.secrets.find((s) => s.value === token);
  const ref = known?.envVar ? `\${${known.envVar}}` : known?.shell;
  const derive = token ? { token, ...(ref ? { ref } : {}), addSecret } : undefined;
  if (placement.in === 'header' && placement.basic) return basicVariants(derive);
  if (
    placement.in === 'header' &&
    placement.name.toLowerCase() === 'authorization' &&
    placement.prefix === 'Bearer'
  )
    return bearerVariants(derive);
  return placedVariants(placement, derive);
}

/** The Bearer variants (the default scheme). */
function bearerVariants(d: Derive | undefined): Credential[] {
  const out: Credential[] = [
    { phrase: 'with a garbage Bearer token', auth: bearer(GARBAGE), carriesToken: false },
    { phrase: 'with an expired-looking JWT', auth: bearer(EXPIRED_JWT), carriesToken: false },
    { phrase: 'with an empty Bearer credential', auth: { authorization: 'Bearer' }, carriesToken: false },
  ];
  if (!d) return out;
  const { token } = d;
  out.push(
    {
      phrase: 'with the token under the Basic scheme',
      auth: { authorization: `Basic ${token}` },
      carriesToken: true,
    },
    {
      phrase: 'with the token under the Token scheme',
      auth: { authorization: `Token ${token}` },
      carriesToken: true,
    },
    tokenAsBasicUser(d),
    {
      phrase: 'with the valid token with its last character changed',
      auth: bearer(altered(d)),
      carriesToken: false,
    },
  );
  return out;
}

/** Stripe-style HTTP Basic (the token as user name): a working credential on some services, not this scheme. */
function tokenAsBasicUser(d: Derive): Credential {
  const basic = Buffer.from(`${d.token}:`).toString('base64');
  d.addSecret({
    value: basic,
    ...(d.ref ? { shell: `$(printf '%s:' "${d.ref}" | base64 | tr -d '\\n')` } : {}),
  });
  return {
    phrase: 'with HTTP Basic credentials holding the token as user name',
    auth: { authorization: `Basic ${basic}` },
    carriesToken: false,
  };
}

/** The real token with its last character changed (a secret): catches servers that compare only a prefix. */
function altered(d: Derive): string {
  const last = d.token.endsWith('x') ? 'y' : 'x';
  const value = d.token.slice(0, -1) + last;
  const shell = d.ref?.startsWith('${')
    ? `\${${d.ref.slice(2, -1)}%?}${last}`
    : d.ref
      ? `$(t="${d.ref}"; printf '%s' "\${t%?}${last}")`
      : undefined;
  d.addSecret({ value, ...(shell ? { shell } : {}) });
  return value;
}

/** A token in another header (with or without a prefix), a query parameter or a cookie. */
function placedVariants(p: CredentialPlacement, d: Derive | undefined): Credential[] {
  const prefix = p.in === 'header' && p.prefix !== '' ? `${p.prefix} ` : '';
  const where =
    p.in === 'header'
      ? `in ${p.name}`
      : p.in === 'query'
        ? `in the query parameter ${p.name}`
        : `in the cookie ${p.name}`;
  // "the Bearer token", "the token" (never "the Token token"), or "the key" where no scheme names it.
  const kind =
    p.in === 'header' && prefix !== '' ? (/^token$/i.test(p.prefix) ? 'token' : `${p.prefix} token`) : 'key';
  const placed = (value: string): AuthChoice => ({ credential: `${prefix}${value}` });
  const out: Credential[] = [
    { phrase: `with a garbage ${kind} ${where}`, auth: placed(GARBAGE), carriesToken: false },
    {
      phrase: `with an empty ${where.slice(3)}`,
      auth: { credential: prefix.trim() },
      carriesToken: false,
    },
  ];
  if (!d) return out;
  if (JWT_SHAPE.test(d.token))
    out.push({
      phrase: `with an expired-looking JWT ${where}`,
      auth: placed(EXPIRED_JWT),
      carriesToken: false,
    });
  out.push({
    phrase: `with the ${kind} ${where} with its last character changed`,
    auth: placed(altered(d)),
    carriesToken: false,
  });
  if (p.in !== 'header') return out;
  // The wrong scheme around the real token, in the same header.
  for (const scheme of ['Bearer', 'Basic', 'Token'].filter((s) => s !== p.prefix).slice(0, 2))
    out.push({
      phrase: `with the ${kind} under the ${scheme} scheme ${where}`,
      auth: { credential: `${scheme} ${d.token}` },
      carriesToken: true,
    });
  if (p.name.toLowerCase() === 'authorization') out.push(tokenAsBasicUser(d));
  return out;
}

/** HTTP Basic: a made-up user, an empty credential, the password changed, no password, the credential as a Bearer token. */
function basicVariants(d: Derive | undefined): Credential[] {
  const garbage = Buffer.from('conformance-audit:not-a-real-password-0000').toString('base64');
  const out: Credential[] = [
    {
      phrase: 'with made-up HTTP Basic credentials',
      auth: { authorization: `Basic ${garbage}` },
      carriesToken: false,
    },
    { phrase: 'with an empty Basic credential', auth: { authorization: 'Basic' }, carriesToken: false },
  ];
  if (!d) return out;
  const decoded = Buffer.from(d.token, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const user = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  const wrong = `${password.slice(0, -1)}${password.endsWith('x') ? 'y' : 'x'}`;
  for (const [phrase, pass] of [
    ['with the password with its last character changed', wrong],
    ['with the user name and no password', ''],
  ] as const) {
    const value = Buffer.from(`${user}:${pass}`).toString('base64');
    if (pass !== '') d.addSecret({ value: pass });
    d.addSecret({ value });
    out.push({ phrase, auth: { authorization: `Basic ${value}` }, carriesToken: false });
  }
  out.push({
    phrase: 'with the Basic credential under the Bearer scheme',
    auth: { authorization: `Bearer ${d.token}` },
    carriesToken: true,
  });
  return out;
}

/** Three base64url parts: a JWT (its expired-looking twin is then a meaningful variant). */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

function bearer(token: string): AuthChoice {
  return { authorization: `Bearer ${token}` };
}

/** Why authentication checks do not run when the config declares no token (CONTRACT.md: skipped, never failed). */
export const NO_TOKEN_REASON =
  'no auth.token in the config: the audit sends no credentials at all, so it cannot judge how the API treats missing or invalid ones (set auth.token to a valid token to audit authentication)';
