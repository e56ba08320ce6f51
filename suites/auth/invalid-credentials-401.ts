// AUTH-INVALID: each kind of invalid credential answers 401 on every declared operation.
import { defineCheck } from '../../src/core/check.js';
import { invalidCredentials } from '../support/auth/credentials.js';
import { expectUnauthenticated } from '../support/auth/authentication.js';
import { MATRIX_MESSAGES } from '../support/auth/report.js';

export default defineCheck({
  kind: 'active',
  id: 'invalid-credentials-401',
  rules: ['AUTH-INVALID'],
  suite: 'auth',
  title: 'A request with an invalid credential answers 401',
  severity: 'error',
  schedule: 'compares-collection',
  // Runs in part under --read-only: unknown ids and the collection, with requests no server can act on.
  writes: 'when-allowed',
  messages: MATRIX_MESSAGES,
  description: {
    sends:
      'Every declared operation (collection, an item the audit created, an id never issued; valid payload and malformed JSON) with each invalid credential: a garbage Bearer token, an expired-looking JWT, an empty Bearer, the token under the Basic and Token schemes, HTTP Basic with the token as user name, and the token with its last character changed. Writes that could act go together, the state read with the full token around them (and, when it changed, again one at a time, so each change is pinned on its request).',
    passes:
      'Every request answers 401. Credentials derived from the token never appear in reports; curl lines rebuild them from its variable.',
    why: 'A server that accepts a wrong scheme, a stale JWT or a token that merely resembles the real one can be entered without the secret.',
  },
  run: (ctx) =>
    expectUnauthenticated(
      ctx,
      () => invalidCredentials(ctx.config, (secret) => ctx.addSecret(secret)),
      'with an invalid credential',
    ),
});
