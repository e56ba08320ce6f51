// GEN-JSON: every response that carries a body carries JSON.
import { defineCheck, NOT_JUDGED } from '../../src/core/check.js';
import { answered } from '../../src/core/verdicts.js';

export default defineCheck({
  kind: 'observer',
  id: 'json-responses',
  reproduce: { kind: 'not-json', at: 0 },
  rules: ['GEN-JSON'],
  suite: 'general',
  title: 'Responses with a body carry JSON',
  severity: 'error',
  messages: {
    notJsonType: 'a response with a body is labelled with a media type that is not JSON',
    bodyNotJson: 'a response labelled JSON carries a body that is not JSON',
  },
  description: {
    sends: 'Nothing of its own: it judges every response the audit receives.',
    passes:
      'Every non-empty body (except on 204, 304, HEAD and redirects) has a JSON media type (application/json, with or without charset, or any +json type) and parses as UTF-8 JSON, nested at most 512 levels deep; a compressed body (Content-Encoding gzip, deflate or br) is judged decoded. Skipped on a resource where no response carried a body.',
    why: 'Clients parse every body as JSON; an HTML error page or a mislabelled body turns a clear error into a parser crash.',
  },
  nothingToJudge: 'no response carried a body to judge',
  inspect(x) {
    // A cut body, or one in a coding the audit cannot decode, cannot be judged.
    if (x.status === undefined || x.text === '' || x.truncated || x.undecoded) return NOT_JUDGED;
    if (x.method === 'HEAD' || x.status === 204 || x.status === 304 || (x.status >= 100 && x.status < 200))
      return NOT_JUDGED;
    if (x.status >= 300 && x.status < 400) return NOT_JUDGED;
    const jsonType = x.mediaType === 'application/json' || x.mediaType.endsWith('+json');
    if (!jsonType) {
      return {
        messageId: 'notJsonType',
        message: `${answered(x)} with Content-Type ${x.headers['content-type'] ? JSON.stringify(x.headers['content-type']) : '(none)'}, not JSON`,
      };
    }
    if (!x.isJson) {
      const problem =
        x.jsonProblem ??
        (x.evidence.notes?.some((n) => n.includes('not valid UTF-8'))
          ? 'is not valid UTF-8'
          : 'does not parse as JSON');
      return {
        messageId: 'bodyNotJson',
        message: `${answered(x)} labelled ${x.mediaType} but the body ${problem}`,
      };
    }
    return undefined;
  },
});
