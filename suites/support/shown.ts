// Which values of a sent payload a later read does not show, for payloads sent bare or in an envelope.
import { unwrapItemLoose, wrappedPayload } from '../../src/core/shapes.js';
import { valueDifferences, type ValueDifference } from '../../src/core/values.js';

/**
 * Where the read answer `body` does not show the values of `sent`, compared by meaning
 * (`valueDifferences`: `3` is `"3.00"`, a date-time in another RFC 3339 spelling is the same
 * instant). The payload is compared with the item inside the answer's envelope, with the whole
 * answer, and (when the payload itself is wrapped, as JSON:API's `{"data": {"type", "attributes"}}`
 * is) its content with the item: a payload read back as `{"data": {"type", "id", "attributes",
 * "links"}}`, or listed as `{"type", "id", "attributes"}`, shows its values. Empty when any
 * comparison finds them all; else the differences of the comparison that matched the payload's
 * structure best (fewest whole members gone, then fewest differences), for the message.
 */
export function valuesNotShown(sent: unknown, body: unknown, idField: string): ValueDifference[] {
  const item = unwrapItemLoose(body, idField);
  const tries = [valueDifferences(sent, item), valueDifferences(sent, body)];
  const wrapped = wrappedPayload(sent);
  if (wrapped !== undefined) tries.push(valueDifferences(wrapped.inner, item, wrapped.key));
  if (tries.some((t) => t.length === 0)) return [];
  const topGone = (t: ValueDifference[]): number => t.filter((d) => d.gone && !/[.[]/.test(d.path)).length;
  return tries.reduce((best, t) =>
    topGone(t) < topGone(best) || (topGone(t) === topGone(best) && t.length < best.length) ? t : best,
  );
}
