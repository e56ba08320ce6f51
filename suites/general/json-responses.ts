// GEN-JSON: every response that carries a body carries JSON.
import { defineCheck, NOT_JUDGED } from '../../src/core/check.js';
import { answered } from '../../src/core/verdicts.js';

export default defineCheck({
  kind: 'observer',
  id: 'json-responses',
  rules: ['GEN-JSON'],
  suite: 'general',
  title: 'Responses with a body carry JSON',
  severity: 'error',
  description: {
    sends: 'Nothing of its own: it judges every response the audit receives.',
    passes:
      'Every non-empty body (except on 204, 304, HEAD and redirects) has a JSON media type (application/json, with or without charset, or any +json type) and parses as UTF-8 JSON. Skipped on a resource where no response carried a body.',
    why: 'Clients parse every body as JSON; an HTML error page or a mislabelled body turns a clear error into a parser crash.',
  },
  nothingToJudge: 'no response carried a body to judge',
  inspect(x) {
    if (x.status === undefined || x.text === '' || x.truncated) return NOT_JUDGED;
    if (x.method === 'HEAD' || x.status === 204 || x.status === 304 || (x.status >= 100 && x.status < 200))
      return NOT_JUDGED;
    if (x.status >= 300 && x.status < 400) return NOT_JUDGED;
    const jsonType = x.mediaType === 'application/json' || x.mediaType.endsWith('+json');
    if (!jsonType) {
      return {
        message: `${answered(x)} with Content-Type ${x.headers['content-type'] ? JSON.stringify(x.headers['content-type']) : '(none)'}, not JSON`,
      };
    }
    if (!x.isJson) {
      const utf8 = x.evidence.notes?.some((n) => n.includes('not valid UTF-8'));
      return {
        message: `${answered(x)} labelled ${x.mediaType} but the body ${utf8 ? 'is not valid UTF-8' : 'does not parse as JSON'}`,
      };
    }
    return undefined;
  },
});
