// MTH-JSON-BODY: a payload not labelled as JSON (text/plain, or no Content-Type) is refused, not accepted or crashed on.
import { defineCheck } from '../../src/core/check.js';
import { answered, is2xx } from '../../src/core/verdicts.js';

export default defineCheck({
  kind: 'active',
  id: 'json-body-required',
  rules: ['MTH-JSON-BODY'],
  suite: 'methods',
  title: 'Request payloads must be sent as JSON',
  severity: 'error',
  schedule: 'own-items',
  writes: 'required',
  messages: {
    nonJsonAccepted: 'a payload not sent as JSON is accepted',
    nonJsonCrashed: 'a payload not sent as JSON makes the server fail (5xx)',
  },
  description: {
    sends:
      'POSTs the sample payload (valid JSON text) twice to the collection: once with Content-Type: text/plain, once with no Content-Type at all.',
    passes:
      'Each is refused with a 4xx: 415 or 400 as the conventions name them, and any other refusal (422, 406...) too, since the rule fails only a server that accepts the payload (2xx) or fails on it (5xx or no answer). Anything accepted by mistake is deleted at the end.',
    why: 'A server that accepts any media type parses bodies it was never told are JSON: form posts and text from browsers (which need no CORS preflight) then act as API calls, and clients learn to send the wrong header.',
  },
  async run(ctx) {
    const r = ctx.resource;
    ctx.requireOperations('create');
    if (r.sample === undefined) return ctx.skip(`${r.name} has no sample payload to send`);
    const text = JSON.stringify(r.sample);
    const contentTypes = ['text/plain', null];
    // The two POSTs do not depend on each other: they go out together.
    const answers = await ctx.together(contentTypes, (contentType) =>
      ctx.send({ method: 'POST', path: r.path, body: text, contentType }),
    );
    for (const [i, contentType] of contentTypes.entries()) {
      const x = answers[i];
      const label = contentType === null ? 'with no Content-Type' : `with Content-Type: ${contentType}`;
      if (is2xx(x)) {
        ctx.fail({
          messageId: 'nonJsonAccepted',
          message: `the sample payload ${label}: ${answered(x)}, expected 415 or 400: the server accepted a body that was not sent as JSON`,
          evidence: [x],
        });
      } else if (x.status === undefined || x.status >= 500) {
        ctx.fail({
          messageId: 'nonJsonCrashed',
          message: `the sample payload ${label}: ${answered(x)}, expected 415 or 400: the server failed instead of refusing it`,
          evidence: [x],
        });
      }
    }
  },
});
