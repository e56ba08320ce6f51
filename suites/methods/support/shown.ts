// Which values of a sent payload a later read does not show, for payloads sent bare or in an envelope.
import { isObject, missingValues, unwrapItemLoose } from '../../../src/core/shapes.js';

/** Keys a request payload is commonly wrapped under (JSON:API `data`, Rails-style single keys aside). */
const PAYLOAD_ENVELOPES = ['data', 'item', 'resource', 'record', 'object'];

/**
 * Fields of `sent` whose values the read answer `body` does not show. The payload is compared
 * with the item inside the answer's envelope, with the whole answer, and (when the payload itself
 * is wrapped, as JSON:API's `{"data": {"type", "attributes"}}` is) its content with the item: a
 * payload read back as `{"data": {"type", "id", "attributes", "links"}}`, or listed as
 * `{"type", "id", "attributes"}`, shows its values. Empty when any comparison finds them all.
 */
export function valuesNotShown(sent: unknown, body: unknown, idField: string): string[] {
  const item = unwrapItemLoose(body, idField);
  const missing = missingValues(sent, item);
  if (missing.length === 0) return missing;
  if (missingValues(sent, body).length === 0) return [];
  const inner = unwrapPayload(sent);
  if (inner !== undefined && missingValues(inner, item).length === 0) return [];
  return missing;
}

/** The object a payload wraps under a single envelope key, if it is wrapped so. */
function unwrapPayload(sent: unknown): Record<string, unknown> | undefined {
  if (!isObject(sent)) return undefined;
  const keys = Object.keys(sent);
  if (keys.length !== 1 || !PAYLOAD_ENVELOPES.includes(keys[0])) return undefined;
  const inner = sent[keys[0]];
  return isObject(inner) ? inner : undefined;
}
