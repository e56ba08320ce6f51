// ERR-STATUS: failure is signalled by the status code, never by a 2xx carrying an error object.
import { defineCheck, NOT_JUDGED, type Finding } from '../../src/core/check.js';
import { isObject } from '../../src/core/shapes.js';
import { answered } from '../../src/core/verdicts.js';

export default defineCheck({
  kind: 'observer',
  id: 'no-error-in-2xx',
  rules: ['ERR-STATUS'],
  suite: 'errors',
  title: 'No 2xx answer carries an error object',
  severity: 'error',
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
    const idField = config.resources.find((r) => r.name === x.resource)?.idField ?? 'id';
    return errorShape(x.json, idField, answered(x));
  },
});

/** Why a 2xx body is an error object, if it is one. */
export function errorShape(
  body: Record<string, unknown>,
  idField: string,
  what: string,
): Finding | undefined {
  const nonEmpty = (v: unknown): boolean =>
    v !== undefined &&
    v !== null &&
    v !== false &&
    v !== '' &&
    !(Array.isArray(v) && v.length === 0) &&
    !(isObject(v) && Object.keys(v).length === 0);
  const errorCode = (v: unknown): boolean => {
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{3}$/.test(v) ? Number(v) : NaN;
    return n >= 400 && n <= 599;
  };
  // A representation of the resource may legitimately hold "status", "error", "success"... data.
  const representation = isRepresentation(body, idField);
  if (nonEmpty(body.error) && !representation)
    return { message: `${what} with an "error" member in the body` };
  if (nonEmpty(body.errors) && !representation)
    return { message: `${what} with a non-empty "errors" member in the body` };
  if (body.success === false && !representation)
    return { message: `${what} with "success": false in the body` };
  if (body.ok === false && !representation) return { message: `${what} with "ok": false in the body` };
  if (
    !representation &&
    typeof body.status === 'string' &&
    /^(error|fail|failed|failure)$/i.test(body.status)
  ) {
    return { message: `${what} with "status": ${JSON.stringify(body.status)} in the body` };
  }
  for (const key of ['code', 'status', 'statusCode', 'status_code', 'httpStatus']) {
    if (!representation && errorCode(body[key]))
      return { message: `${what} with "${key}": ${JSON.stringify(body[key])} in the body` };
  }
  return undefined;
}

/** Members error objects are made of; "status" is left out, since `{id, status}` is a common representation. */
const ERROR_MEMBERS = new Set([
  'error',
  'errors',
  'success',
  'ok',
  'code',
  'message',
  'detail',
  'details',
  'statusCode',
  'status_code',
  'httpStatus',
]);

/**
 * A representation of the resource: it carries a value in the id field and some member that is not
 * an error member (a rollout record `{id, title, success: false}`). A body holding only the id
 * and error members (`{id, success: false, message}`) is an error that echoes the id.
 */
function isRepresentation(body: Record<string, unknown>, idField: string): boolean {
  if (body[idField] === undefined || body[idField] === null) return false;
  return Object.keys(body).some((k) => k !== idField && !ERROR_MEMBERS.has(k));
}
