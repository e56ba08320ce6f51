// Whether an item read back still holds what the audit wrote to it, tolerant of what services add or drop.
import { isObject, PAYLOAD_ENVELOPES, short, unwrapItemLoose, VOLATILE_FIELDS } from './shapes.js';
import { referencedBy } from './values.js';

/** How a read-back compares with the bodies the audit wrote to an item. */
export interface Comparison {
  /** Fields shown with a value the audit never wrote there (`/price: 7 (written: 3)`), at most a few. */
  contradictions: string[];
  /** Scalar fields shown with a value the audit wrote. */
  agreed: number;
}

/**
 * Compares an item's answer with every body the audit wrote to it (its create, then each PUT or
 * PATCH), field by field: a field contradicts when the answer shows it with a value the audit never
 * wrote there. Not contradictions: fields the answer leaves out (write-only fields, list summaries,
 * a service that drops what it does not know), fields it adds, server-managed fields (`ignore` and
 * the usual timestamps, etags and revisions), lists that gained entries, and scalars that differ
 * only in type or letter case ("3" for 3). Only another record can contradict what was written.
 */
export function compareWritten(
  written: unknown[],
  answer: unknown,
  idField: string,
  ignore: Iterable<string> = [],
): Comparison {
  const skip = new Set([...VOLATILE_FIELDS, ...ignore]);
  const seen = unwrapItemLoose(answer, idField) ?? answer;
  // Each body as sent and, when it wraps the item (`{"data": {...}}`), its content too.
  const bodies = written.flatMap((body) => [body, ...unwrapPayload(body)]);
  const out: Comparison = { contradictions: [], agreed: 0 };
  walk(bodies, seen, '', skip, out);
  return out;
}

function walk(sent: unknown[], seen: unknown, path: string, skip: Set<string>, out: Comparison): void {
  if (seen === undefined || sent.length === 0 || out.contradictions.length >= 3) return;
  const objects = sent.filter(isObject);
  if (isObject(seen) && objects.length > 0) {
    const keys = new Set(objects.flatMap((o) => Object.keys(o)));
    for (const key of keys) {
      if (skip.has(key)) continue;
      const values = objects.filter((o) => key in o).map((o) => o[key]);
      walk(values, seen[key], `${path}/${key}`, skip, out);
    }
    return;
  }
  if (sent.some((value) => compatible(value, seen))) {
    if (!isObject(seen) && !Array.isArray(seen)) out.agreed++;
    return;
  }
  // A field the audit set to null (a merge-patch removal) may read back absent or null: handled above.
  const values = [...new Set(sent.map((v) => short(v, 30)))];
  out.contradictions.push(`${path || '/'}: ${short(seen, 40)} (written: ${values.join(' or ')})`);
}

/** One written value against what is shown, loosely (see compareWritten). */
function compatible(sent: unknown, seen: unknown): boolean {
  if (sent === null) return seen === null || seen === undefined;
  if (Array.isArray(sent)) {
    return Array.isArray(seen) && sent.every((entry) => seen.some((other) => compatible(entry, other)));
  }
  if (isObject(sent)) {
    return (
      isObject(seen) && Object.keys(sent).every((k) => seen[k] === undefined || compatible(sent[k], seen[k]))
    );
  }
  if (isObject(seen)) return referencedBy(sent, seen);
  if (Array.isArray(seen) || seen === null) return false;
  return String(sent).trim().toLowerCase() === String(seen).trim().toLowerCase();
}

/**
 * The values an answer shows for the fields a body sent (same nesting), so that what the service
 * made of them (a trimmed string, a normalised date, `3.5` for `"3.50"`) counts as written too.
 * Fields the body did not send are left out: only what the audit wrote is ever compared.
 */
export function shownFor(
  sent: unknown,
  answer: unknown,
  idField: string,
): Record<string, unknown> | undefined {
  const body = unwrapPayload(sent)[0] ?? sent;
  const item = unwrapItemLoose(answer, idField);
  if (!isObject(body) || !item) return undefined;
  const pick = (from: Record<string, unknown>, shape: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(shape)) {
      if (!(key in from)) continue;
      out[key] =
        isObject(value) && isObject(from[key])
          ? pick(from[key] as Record<string, unknown>, value)
          : from[key];
    }
    return out;
  };
  const shown = pick(item, body);
  return Object.keys(shown).length > 0 ? shown : undefined;
}

/**
 * The content of a payload wrapped under an envelope key (beside other members or not), or sent
 * as a one-element list (a batch create of one, which Directus answers with its item), if any.
 */
function unwrapPayload(sent: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(sent) && sent.length === 1 && isObject(sent[0]))
    return [sent[0], ...unwrapPayload(sent[0])];
  if (!isObject(sent)) return [];
  const key = PAYLOAD_ENVELOPES.find((k) => isObject(sent[k]));
  if (key === undefined) return [];
  const inner = sent[key] as Record<string, unknown>;
  // JSON:API: `{"type", "attributes"}` is compared with the item's attributes too.
  return [isObject(inner.attributes) ? { ...inner, ...inner.attributes } : inner];
}
