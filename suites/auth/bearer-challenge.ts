// AUTH-CHALLENGE: every 401 carries WWW-Authenticate naming the Bearer scheme (RFC 6750 §3).
import { defineCheck, NOT_JUDGED } from '../../src/core/check.js';
import { answered } from '../../src/core/verdicts.js';

export default defineCheck({
  kind: 'observer',
  id: 'bearer-challenge',
  rules: ['AUTH-CHALLENGE'],
  suite: 'auth',
  title: 'A 401 carries a Bearer challenge in WWW-Authenticate',
  severity: 'warning',
  description: {
    sends: 'Nothing of its own: it judges every 401 the audit receives (the auth checks cause plenty).',
    passes:
      'Every 401 has a WWW-Authenticate header with a Bearer challenge, with or without parameters (realm, error, scope...), alone or beside other challenges. Skipped where no 401 was answered (e.g. no token configured, so the auth checks did not run).',
    why: 'The challenge tells a client which scheme to use and why its token failed (RFC 6750 §3); without it, clients must guess.',
  },
  nothingToJudge: 'no 401 was answered, so there was no challenge to judge',
  inspect(x) {
    if (x.status !== 401) return NOT_JUDGED;
    const header = x.headers['www-authenticate'];
    if (header === undefined || header.trim() === '')
      return { message: `${answered(x)} without a WWW-Authenticate header` };
    if (!namesBearer(header))
      return {
        message: `${answered(x)} with WWW-Authenticate ${JSON.stringify(header)}, which names no Bearer challenge`,
      };
    return undefined;
  },
});

/** True when one of the challenges (quoted parameter values aside) has the auth-scheme Bearer. */
export function namesBearer(header: string): boolean {
  const unquoted = header.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return /(?:^|,)\s*bearer(?=\s|,|$)/i.test(unquoted);
}
