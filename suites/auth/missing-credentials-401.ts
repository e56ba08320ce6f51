// AUTH-MISSING: every declared operation without credentials answers 401, before existence or validity are judged.
import { defineCheck } from '../../src/core/check.js';
import { NO_CREDENTIALS, NO_TOKEN_REASON } from './support/credentials.js';
import { runMatrix } from './support/matrix.js';
import { fullMatrix } from './support/probes.js';
import { authenticationHint, reportMatrix } from './support/report.js';

export default defineCheck({
  kind: 'active',
  id: 'missing-credentials-401',
  rules: ['AUTH-MISSING'],
  suite: 'auth',
  title: 'A request without credentials answers 401',
  severity: 'error',
  scope: 'resource',
  // Runs in part under --read-only: unknown ids and the collection, with requests no server can act on.
  mutates: false,
  description: {
    sends:
      'Every declared operation with no Authorization header: on the collection, on an item the audit created and on an id never issued, with the valid payload and with malformed JSON. Writes that could act go one at a time, the state read with the full token before and after. Under --read-only: reads, DELETE of an unknown id and malformed bodies only.',
    passes:
      'Every request answers 401, even for an unknown id (authentication comes before existence) or a malformed body (before validation). A 2xx is critical, and the failure says what the request changed.',
    why: 'A client without credentials must learn that it has to authenticate; a 404, 400 or 403 tells it something else, and a 2xx means anyone can read or change the data.',
  },
  async run(ctx) {
    const r = ctx.resource!;
    // Without a token nothing is authenticated, so a refusal cannot be told from the API's normal answer.
    if (!ctx.config.auth.token) return ctx.skip(NO_TOKEN_REASON);
    const result = await runMatrix(ctx, r, {
      credentials: [NO_CREDENTIALS],
      probes: fullMatrix(r),
      expected: 401,
      verifyRefused: false,
    });
    if (result.outcomes.length === 0) return ctx.skip(`${r.name} declares no operation to probe`);
    reportMatrix(ctx, result, {
      expected: 401,
      critical: true,
      hint: authenticationHint,
      subject: 'without credentials',
    });
  },
});
