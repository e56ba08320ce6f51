// The shared run of AUTH-MISSING and AUTH-INVALID: every declared operation with credentials that must get 401.
import type { ResourceCheckContext } from '../../../src/core/check.js';
import { NO_TOKEN_REASON, type Credential } from './credentials.js';
import { runMatrix } from './matrix.js';
import { fullMatrix } from './probes.js';
import { authenticationHint, reportMatrix } from './report.js';

/** Sends the full matrix with each credential and reports every answer that is not 401. */
export async function expectUnauthenticated(
  ctx: ResourceCheckContext,
  credentials: () => Credential[],
  subject: string,
): Promise<void> {
  const r = ctx.resource;
  // Without a token nothing is authenticated, so a refusal cannot be told from the API's normal answer.
  if (!ctx.config.auth.token) return ctx.skip(NO_TOKEN_REASON);
  const result = await runMatrix(ctx, {
    credentials: credentials(),
    probes: fullMatrix(r),
    expected: 401,
    verifyRefused: false,
  });
  if (result.outcomes.length === 0) return ctx.skip(`${r.name} declares no operation to probe`);
  reportMatrix(ctx, result, {
    idField: r.idField,
    expected: 401,
    critical: true,
    hint: authenticationHint,
    subject,
  });
  if (result.notJudged) ctx.skip(`the item-URL probes were not judged: ${result.notJudged}`);
}
