// AUTH-FORBIDDEN: the limited token on each operation declared forbidden for it answers 403, and nothing changes.
import { defineCheck } from '../../src/core/check.js';
import { LIMITED_TOKEN } from '../support/auth/credentials.js';
import { runMatrix, type Outcome } from '../support/auth/matrix.js';
import { plainMatrix } from '../support/auth/probes.js';
import { MATRIX_MESSAGES, reportMatrix } from '../support/auth/report.js';

export default defineCheck({
  kind: 'active',
  id: 'forbidden-403',
  rules: ['AUTH-FORBIDDEN'],
  suite: 'auth',
  title: 'An operation the token may not perform answers 403 and has no effect',
  severity: 'error',
  schedule: 'compares-collection',
  // Forbidden reads still run under --read-only; forbidden writes are left out there.
  writes: 'when-allowed',
  messages: MATRIX_MESSAGES,
  description: {
    sends:
      'With the limited token, each operation the config declares forbidden for it, as a permitted caller would send it (valid payload, on the collection or an item the audit created); the state is read with the full token before and after every one.',
    passes:
      'Each answers 403 and the item and collection are unchanged. Skipped without a limitedToken or a forbidden list.',
    why: 'A 403 that still deletes or changes data is the worst case: the client is told nothing happened while it did.',
  },
  async run(ctx) {
    const r = ctx.resource;
    if (!ctx.config.auth.limitedToken)
      return ctx.skip('the config names no limitedToken: there is no token to be refused with');
    if (ctx.config.auth.limitedToken === ctx.config.auth.token)
      return ctx.skip(
        'auth.limitedToken is the same as auth.token: give it a token that lacks some permissions',
      );
    if (r.forbidden.length === 0)
      return ctx.skip(`the config declares no forbidden operations for ${r.name} (resources[].forbidden)`);
    const ops = r.forbidden.filter((op) => r.operations.includes(op));
    if (ops.length === 0)
      return ctx.skip(`${r.name} declares none of its forbidden operations (${r.forbidden.join(', ')})`);
    const probes = plainMatrix(r, ops);
    if (probes.length === 0) return ctx.skip(`${r.name} has no payload for its forbidden operations`);
    const result = await runMatrix(ctx, {
      credentials: [LIMITED_TOKEN],
      probes,
      expected: 403,
      verifyRefused: true,
    });
    if (result.outcomes.length === 0)
      return ctx.skip(
        `--read-only: every forbidden operation of ${r.name} (${ops.join(', ')}) would change state if wrongly allowed`,
      );
    reportMatrix(ctx, result, {
      idField: r.idField,
      expected: 403,
      critical: false,
      hint: forbiddenHint,
      subject: 'with the limited token',
    });
  },
});

function forbiddenHint(o: Outcome): string {
  const status = o.exchange.status;
  if (status === 404 && o.probe.target === 'known')
    return ' (the item exists: a refusal must say 403, not hide as 404)';
  if (status === 401) return ' (the limited token is valid: 401 would send the client to re-authenticate)';
  if (status === 405) return ' (the operation is declared: refusing it to this token is 403)';
  return '';
}
