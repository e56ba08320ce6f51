// Payload templates: {{id}} (the item's id) and {{unique}} (a fresh value per request) in the config's payloads.
import { randomUUID } from 'node:crypto';
import { isObject } from './shapes.js';

const MARK = /\{\{(id|unique)\}\}/;
const MARKS = /\{\{(id|unique)\}\}/g;

/** True when a JSON value holds `{{id}}` or `{{unique}}` in some string. */
export function hasTemplate(value: unknown): boolean {
  if (typeof value === 'string') return MARK.test(value);
  if (Array.isArray(value)) return value.some(hasTemplate);
  if (isObject(value)) return Object.values(value).some(hasTemplate);
  return false;
}

/** Every `{{word}}` in a JSON value's strings that is not a template (`{{id}}`, `{{unique}}`), once each. */
export function unknownTemplates(value: unknown): string[] {
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      // Exactly what MARKS fills: `{{ id }}`, with spaces, is no template either.
      for (const m of v.matchAll(/\{\{[^{}]*\}\}/g)) if (!MARK.test(m[0])) found.add(m[0]);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (isObject(v)) Object.values(v).forEach(walk);
  };
  walk(value);
  return [...found];
}

/**
 * What a user should know about the payloads of `resources`: each `{{word}}` in a `sample`,
 * `replace`, `update` or `invalid` that is no template (a typo such as `{{uniq}}`, or text meant
 * literally): it is sent as written.
 */
export function templateNotes(
  resources: ReadonlyArray<{
    name: string;
    sample?: unknown;
    replace?: unknown;
    update?: unknown;
    invalid?: unknown[];
  }>,
): string[] {
  return resources.flatMap((r) =>
    (['sample', 'replace', 'update', 'invalid'] as const).flatMap((field) =>
      unknownTemplates(r[field]).map(
        (word) =>
          `resource ${r.name}, ${field}: ${word} is not a payload template ({{id}}, {{unique}}); it is sent as written`,
      ),
    ),
  );
}

/**
 * A webhook subscription body with every "{{receiverUrl}}" replaced by `url`, at any depth: the
 * audit's round and a reproduction script's must send the same body.
 */
export function withReceiverUrl(body: unknown, url: string): unknown {
  if (typeof body === 'string') return body.split('{{receiverUrl}}').join(url);
  if (Array.isArray(body)) return body.map((v) => withReceiverUrl(v, url));
  if (isObject(body)) {
    return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, withReceiverUrl(v, url)]));
  }
  return body;
}

/** A fresh value for `{{unique}}`: short, letters and digits only (fits emails, slugs, names). */
export function uniqueValue(): string {
  return `c${Date.now().toString(36)}${randomUUID().replace(/-/g, '').slice(0, 8)}`;
}

/**
 * A payload with its templates filled: `{{unique}}` with `unique` (one value for the whole
 * request), `{{id}}` with the item's id. A string that is exactly `"{{id}}"` takes the id as
 * given (a number stays a number); inside a longer string it is its text. Without an id, `{{id}}`
 * stays as written.
 */
export function renderPayload(value: unknown, fill: { id?: string | number; unique: string }): unknown {
  if (typeof value === 'string') {
    if (value === '{{id}}' && fill.id !== undefined) return fill.id;
    return value.replace(MARKS, (whole, name: string) =>
      name === 'unique' ? fill.unique : fill.id === undefined ? whole : String(fill.id),
    );
  }
  if (Array.isArray(value)) return value.map((v) => renderPayload(v, fill));
  if (isObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderPayload(v, fill)]));
  return value;
}

/** The same for a raw JSON text (malformed probes built from a payload): values are JSON-escaped. */
export function renderText(text: string, fill: { id?: string | number; unique: string }): string {
  return text.replace(MARKS, (whole, name: string) => {
    if (name === 'unique') return fill.unique;
    return fill.id === undefined ? whole : JSON.stringify(String(fill.id)).slice(1, -1);
  });
}

/**
 * A value no common lenient parser takes for a string: Django REST framework, pydantic and Rails
 * take a number (12345 becomes "12345") and some a boolean, none an object. The malformed probes
 * of ERR-MALFORMED and the invalid bodies `init` derives from a schema send it for a string field.
 */
export const NOT_A_STRING: Readonly<Record<string, string>> = Object.freeze({
  conformance: 'an object, not a string',
});
