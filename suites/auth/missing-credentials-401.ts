// AUTH-MISSING: every declared operation without credentials answers 401, before existence or validity are judged.
import { defineCheck } from '../../src/core/check.js';
import { NO_CREDENTIALS } from '../support/auth/credentials.js';
import { expectUnauthenticated } from '../support/auth/authentication.js';
import { MATRIX_MESSAGES } from '../support/auth/report.js';

export default defineCheck({
  kind: 'active',
  id: 'missing-credentials-401',
  rules: ['AUTH-MISSING'],
  suite: 'auth',
  title: 'A request without credentials answers 401',
  severity: 'error',
  schedule: 'compares-collection',
  // Runs in part under --read-only: unknown ids and the collection, with requests no server can act on.
  writes: 'when-allowed',
  messages: MATRIX_MESSAGES,
  description: {
    sends:
      'Every declared operation with no Authorization header: on the collection, on an item the audit created and on an id never issued, with the valid payload and with malformed JSON. Writes that could act go together, the state read with the full token before and after (and, when it changed, again one at a time, so each change is pinned on its request). Under --read-only: reads, DELETE of an unknown id and malformed bodies only.',
    passes:
      'Every request answers 401, even for an unknown id (authentication comes before existence) or a malformed body (before validation). A 2xx is critical, and the failure says what the request changed.',
    why: 'A client without credentials must learn that it has to authenticate; a 404, 400 or 403 tells it something else, and a 2xx means anyone can read or change the data.',
  },
  run: (ctx) => expectUnauthenticated(ctx, () => [NO_CREDENTIALS], 'without credentials'),
});
