// ERR-SERVER: no request the audit sends makes the server fail (5xx, or no usable answer).
import { credentialWords, defineCheck, NOT_JUDGED, type Exchange } from '../../src/core/check.js';
import { answered } from '../../src/core/verdicts.js';
import { faultOf } from '../../src/core/transport-errors.js';

export default defineCheck({
  kind: 'observer',
  id: 'no-server-errors',
  rules: ['ERR-SERVER'],
  suite: 'errors',
  title: 'Client input never makes the server fail (no 5xx)',
  severity: 'error',
  messages: {
    serverError: 'a request is answered 5xx',
    noCompleteAnswer: 'a request gets no complete, valid HTTP answer',
    requestsHung: 'requests of one kind got no answer in time, so the rest of that kind were not sent',
  },
  description: {
    sends:
      'Nothing of its own: it judges every answer to every request the other checks send, malformed ones included.',
    passes:
      'No answer is 5xx, and no request is left without a complete, valid HTTP answer (reset, stalled, cut short, or refused by the HTTP parser: an invalid status line, headers over the parser limit, a NUL byte in a header, conflicting Transfer-Encoding and Content-Length). A kind of request (method, URL shape, kind of body) that got no answer twice in a row is not sent again: one finding names every request of that kind left unsent, with the evidence of the first time-out. Skipped where no request got an answer to judge.',
    why: "A 5xx says the fault is the server's: whatever a client sends, the server must answer with a 4xx that says what is wrong, not crash.",
  },
  nothingToJudge: 'no request got a complete answer or a failure of the server to judge',
  inspect(x) {
    if (x.status !== undefined && x.status >= 500 && x.status <= 599) {
      // A 5xx met inside the rate-limit burst needs the requests before it: its script sends the burst.
      const count = x.burst;
      return {
        messageId: 'serverError',
        message: answered(x),
        ...(count !== undefined ? { reproduce: { kind: 'burst', count, judge: 'server-error' } } : {}),
      };
    }
    // Transport failures that mean the server broke (a time-out, a reset, an answer the HTTP parser
    // refused), not the audit's cap or interruption.
    if (x.status === undefined && x.error && faultOf(x.error) === 'service') {
      // The invalid-HTTP message says so itself ("no valid HTTP answer: the parser refused it…").
      const what = x.error.code === 'E_INVALID_HTTP' ? '' : 'no complete answer: ';
      return {
        messageId: 'noCompleteAnswer',
        message: `${x.method} ${x.url}${sentWith(x)} got ${what}${x.error.message}`,
      };
    }
    // No answer for a reason of the audit's own (its size cap, an interruption): not the server's doing.
    if (x.status === undefined) return NOT_JUDGED;
    return undefined;
  },
  summaryNoun: { one: 'kind of request hung', many: 'kinds of request hung' },
  summarise(_groups, _config, { hung }) {
    return hung.map((h) => {
      const more = h.notSentCount - h.notSent.length;
      const named = h.notSent.join(', ') + (more > 0 ? ` and ${more} more` : '');
      return {
        messageId: 'requestsHung',
        message: `${h.kind}${h.credentials.length > 0 ? ` and ${h.credentials.join(' or ')}` : ''}: ${h.timeouts} requests in a row got no answer within the deadline, so ${h.notSentCount === 1 ? 'the 1 other request of that kind was' : `the ${h.notSentCount} others of that kind were`} not sent (${named}); the evidence is the first time-out`,
        evidence: [h.evidence],
        ...(h.resource !== undefined ? { resource: h.resource } : {}),
      };
    });
  },
});

/** " with unparseable JSON and no credential": what tells a developer which kind of request failed. */
function sentWith(x: Pick<Exchange, 'bodyKind' | 'credential'>): string {
  const parts = [x.bodyKind, x.credential !== undefined ? credentialWords(x.credential) : undefined];
  const known = parts.filter((p): p is string => p !== undefined);
  return known.length > 0 ? ` with ${known.join(' and ')}` : '';
}
