// ERR-STATUS's test of a 2xx body (is it an error object?), and existence judged by status and body.
import type { Exchange } from './check.js';
import { isObject } from './shapes.js';
import type { ResourceConfig } from './types.js';
import { byQuery, itemTemplate } from './addressing.js';
import { is2xx } from './verdicts.js';

/** Why a 2xx body is an error object, if it is one: `${what} with an "error" member in the body`. */
export function errorShape(
  body: Record<string, unknown>,
  idField: string,
  what: string,
): { message: string } | undefined {
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

/** True when an answer is a 2xx whose body is an error object (ERR-STATUS's finding). */
export function isErrorIn2xx(x: Pick<Exchange, 'status' | 'json'>, idField: string): boolean {
  return is2xx(x) && isObject(x.json) && errorShape(x.json, idField, '') !== undefined;
}

/**
 * What a read of an item URL proves about the item, judged by status AND body:
 * - `exists`: a 2xx whose body is not an error object;
 * - `error-body`: a 2xx whose body is an error object: no item (the API signals its "not found"
 *   in the body: ERR-STATUS's finding), so nothing is proven to exist;
 * - `absent`: 404 or 410 (or, for a resource addressed by a query filter, a 2xx empty array);
 * - `unknown`: no answer, or any other status (401, 500...): nothing is proven either way.
 */
export type Existence = 'exists' | 'error-body' | 'absent' | 'unknown';

/** See `Existence`. */
export function existence(
  x: Pick<Exchange, 'status' | 'json'>,
  of: string | Pick<ResourceConfig, 'idField' | 'item' | 'path'>,
): Existence {
  const s = x.status;
  const idField = typeof of === 'string' ? of : of.idField;
  if (s === undefined) return 'unknown';
  if (s === 404 || s === 410) return 'absent';
  if (s < 200 || s > 299) return 'unknown';
  // An item addressed by a query filter reads as a list: an empty one is no item (given the resource).
  if (typeof of !== 'string' && byQuery(itemTemplate(of)) && Array.isArray(x.json) && x.json.length === 0)
    return 'absent';
  return isErrorIn2xx(x, idField) ? 'error-body' : 'exists';
}

/**
 * How reports name an item whose read-back after its DELETE is a 2xx error object (cleanup,
 * MTH-DELETE): it is deleted, and the odd answer is ERR-STATUS's finding.
 */
export function deletedWithErrorBody(status: number): string {
  return `deleted, but the API answers ${status} with an error body: see ERR-STATUS`;
}
