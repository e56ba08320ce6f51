// AUTH-CHALLENGE: every 401 carries WWW-Authenticate naming the configured scheme (Bearer by default, RFC 6750 §3).
import { defineCheck, NOT_JUDGED } from '../../src/core/check.js';
import { BEARER_PLACEMENT, type AuditConfig } from '../../src/core/types.js';
import { escapeRegExp } from '../../src/core/regexp.js';
import { answered } from '../../src/core/verdicts.js';

export default defineCheck({
  kind: 'observer',
  id: 'bearer-challenge',
  reproduce: { kind: 'no-header', header: 'WWW-Authenticate', at: 0, not: '(^|,)[[:space:]]*bearer' },
  rules: ['AUTH-CHALLENGE'],
  suite: 'auth',
  title: 'A 401 carries a challenge for the configured scheme (Bearer by default) in WWW-Authenticate',
  severity: 'warning',
  messages: {
    noChallenge: 'a 401 carries no WWW-Authenticate header',
    wrongScheme: 'a 401 WWW-Authenticate names no challenge of the configured scheme',
  },
  description: {
    sends: 'Nothing of its own: it judges every 401 the audit receives (the auth checks cause plenty).',
    passes:
      'Every 401 has a WWW-Authenticate header with a challenge for the scheme the config uses (Bearer by default; the auth.prefix such as Token, or Basic for auth.basic), with or without parameters (realm, error, scope...), alone or beside other challenges. Skipped where no 401 was answered (e.g. no token configured, so the auth checks did not run), and where the credential has no challenge convention (an API key in another header, a query parameter, a cookie, a bare token).',
    why: 'The challenge tells a client which scheme to use and why its token failed (RFC 6750 §3, RFC 7235 §4.1); without it, clients must guess.',
  },
  nothingToJudge: 'no 401 was answered, so there was no challenge to judge',
  skipReason: (_resource, config) => noConvention(config),
  inspect(x, config) {
    if (x.status !== 401) return NOT_JUDGED;
    const scheme = challengeScheme(config);
    if (scheme === undefined) return NOT_JUDGED;
    const header = x.headers['www-authenticate'];
    if (header === undefined || header.trim() === '')
      return { messageId: 'noChallenge', message: `${answered(x)} without a WWW-Authenticate header` };
    if (!namesScheme(header, scheme))
      return {
        messageId: 'wrongScheme',
        message: `${answered(x)} with WWW-Authenticate ${JSON.stringify(header)}, which names no ${scheme} challenge`,
      };
    return undefined;
  },
});

/** The scheme a 401 must challenge with: the Authorization header's prefix; undefined when there is no convention. */
function challengeScheme(config: AuditConfig): string | undefined {
  const p = config.auth.placement ?? BEARER_PLACEMENT;
  if (p.in !== 'header' || p.name.toLowerCase() !== 'authorization' || p.prefix === '') return undefined;
  return p.prefix;
}

/** Why the rule cannot be judged for the configured credential, if it cannot. */
function noConvention(config: AuditConfig): string | undefined {
  if (challengeScheme(config) !== undefined) return undefined;
  const p = config.auth.placement ?? BEARER_PLACEMENT;
  const where =
    p.in === 'header'
      ? p.name.toLowerCase() === 'authorization'
        ? 'a bare token (no scheme) in Authorization'
        : `an API key in ${p.name}`
      : p.in === 'query'
        ? `an API key in the query parameter ${p.name}`
        : `a credential in the cookie ${p.name}`;
  return `no challenge convention for ${where}: WWW-Authenticate names a scheme of the Authorization header`;
}

/** True when one of the challenges (quoted parameter values aside) has the given auth-scheme. */
export function namesScheme(header: string, scheme: string): boolean {
  const unquoted = header.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const name = escapeRegExp(scheme);
  return new RegExp(`(?:^|,)\\s*${name}(?=\\s|,|$)`, 'i').test(unquoted);
}

/** True when one of the challenges (quoted parameter values aside) has the auth-scheme Bearer. */
export function namesBearer(header: string): boolean {
  return namesScheme(header, 'Bearer');
}
