// ERR-STATUS: failure is signalled by the status code, never by a 2xx carrying an error object.
import { defineCheck, NOT_JUDGED } from '../../src/core/check.js';
import { errorShape } from '../../src/core/error-body.js';
import { isObject } from '../../src/core/shapes.js';
import { answered } from '../../src/core/verdicts.js';
import { named } from '../../src/core/named.js';

export default defineCheck({
  kind: 'observer',
  id: 'no-error-in-2xx',
  rules: ['ERR-STATUS'],
  suite: 'errors',
  title: 'No 2xx answer carries an error object',
  severity: 'error',
  messages: {
    errorIn2xx: 'a 2xx answer carries an error object',
  },
  description: {
    sends: 'Nothing of its own: it judges the body of every 2xx answer the audit receives.',
    passes:
      'No 2xx body is an error object: a top-level non-empty "error"/"errors", "success": false, "ok": false, "status": "error"/"fail", or a "code"/"status" holding a 4xx/5xx number. Bodies that are representations of the resource (they carry its id field and some member besides error members, e.g. a rollout record with "success": false) are not judged; a body with only the id and error members is. Skipped on a resource that got no 2xx answer.',
    why: 'Clients, proxies, caches and monitors read the status code; a 200 that means "failed" is counted as a success by all of them.',
  },
  nothingToJudge: 'no 2xx answer was received',
  inspect(x, config) {
    if (x.status === undefined || x.status < 200 || x.status > 299) return NOT_JUDGED;
    // A list, a bare value or an empty body is judged too: none of them is an error object.
    if (!isObject(x.json)) return undefined;
    const idField = named(config.resources, x.resource)?.idField ?? 'id';
    const found = errorShape(x.json, idField, answered(x));
    return found && { messageId: 'errorIn2xx', ...found };
  },
});
