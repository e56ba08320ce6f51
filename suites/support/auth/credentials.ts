// The credentials the auth checks send: none, each kind of invalid one, and the limited token.
import type { AuthChoice } from '../../../src/core/check.js';
import type { AuditConfig, Secret } from '../../../src/core/types.js';

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

/**
 * Every kind of invalid credential CONVENTIONS.md names. Those derived from the real token are
 * registered as secrets (through `addSecret`) with a shell expression, so reports never show them
 * and curl lines rebuild them from the token's environment variable.
 */
export function invalidCredentials(config: AuditConfig, addSecret: (secret: Secret) => void): Credential[] {
  const out: Credential[] = [
    {
      phrase: 'with a garbage Bearer token',
      auth: bearer('conformance-not-a-real-token-0000'),
      carriesToken: false,
    },
    { phrase: 'with an expired-looking JWT', auth: bearer(EXPIRED_JWT), carriesToken: false },
    { phrase: 'with an empty Bearer credential', auth: { authorization: 'Bearer' }, carriesToken: false },
  ];
  const token = config.auth.token;
  if (!token) return out;
  const envVar = config.secrets.find((s) => s.value === token)?.envVar;
  const ref = envVar ? `\${${envVar}}` : undefined;

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
  );

  // Stripe-style HTTP Basic (the token as user name): a working credential on some services, not Bearer.
  const basic = Buffer.from(`${token}:`).toString('base64');
  addSecret({ value: basic, ...(ref ? { shell: `$(printf '%s:' "${ref}" | base64 | tr -d '\\n')` } : {}) });
  out.push({
    phrase: 'with HTTP Basic credentials holding the token as user name',
    auth: { authorization: `Basic ${basic}` },
    carriesToken: false,
  });

  // The real token with its last character changed: catches servers that compare only a prefix.
  const last = token.endsWith('x') ? 'y' : 'x';
  const altered = token.slice(0, -1) + last;
  addSecret({ value: altered, ...(envVar ? { shell: `\${${envVar}%?}${last}` } : {}) });
  out.push({
    phrase: 'with the valid token with its last character changed',
    auth: bearer(altered),
    carriesToken: false,
  });
  return out;
}

function bearer(token: string): AuthChoice {
  return { authorization: `Bearer ${token}` };
}

/** Why authentication checks do not run when the config declares no token (CONTRACT.md: skipped, never failed). */
export const NO_TOKEN_REASON =
  'no auth.token in the config: the audit sends no credentials at all, so it cannot judge how the API treats missing or invalid ones (set auth.token to a valid token to audit authentication)';
