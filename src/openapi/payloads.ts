// Request payloads from a document: samples from examples (else generated from the schema), and invalid bodies.
import { sample as generate } from 'openapi-sampler';
import { isObject, VOLATILE_FIELDS } from '../core/shapes.js';
import { NOT_A_STRING } from '../core/payloads.js';
import type { Body, Json } from './document.js';
import { objectShape, typesOf } from './schema.js';

/** At most this many invalid bodies per resource: each is one more POST during the audit. */
const MAX_INVALID = 8;

/** A payload and where it came from (for the starter config's comments). */
export interface Payload {
  value: Record<string, unknown>;
  from: 'example' | 'generated';
}

/**
 * A valid body for a request: the first object example, else (unless `examplesOnly`) one
 * generated from the schema with read-only properties left out. Server-managed fields the
 * schema does not require are removed either way. Undefined when neither gives a JSON object.
 */
export function samplePayload(
  body: Body | undefined,
  doc: Json,
  idField: string,
  examplesOnly = false,
): Payload | undefined {
  if (!body) return undefined;
  const example = [...body.examples, ...schemaExamples(body.schema)].find(isObject);
  if (example) return { value: stripManaged(example, body.schema, idField, false), from: 'example' };
  if (!body.schema || examplesOnly) return undefined;
  let generated: unknown;
  try {
    generated = generate(body.schema as never, { skipReadOnly: true, quiet: true, maxSampleDepth: 8 }, doc);
  } catch {
    return undefined;
  }
  if (!isObject(generated)) return undefined;
  return { value: stripManaged(generated, body.schema, idField, true), from: 'generated' };
}

/** Examples written on the schema itself: `example` (2.0, 3.0) and `examples` (3.1, JSON Schema). */
function schemaExamples(schema: Json | undefined): unknown[] {
  if (!schema) return [];
  return [schema.example, ...(Array.isArray(schema.examples) ? schema.examples : [])].filter(
    (e) => e !== undefined,
  );
}

/**
 * Drops read-only properties, and the id and server-managed fields: always from a generated body
 * (one schema for requests and responses often "requires" the id), from an example only when the
 * schema does not require them (its author wrote them on purpose).
 */
function stripManaged(
  value: Record<string, unknown>,
  schema: Json | undefined,
  idField: string,
  generated: boolean,
) {
  const { properties, required } = objectShape(schema);
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (properties[key]?.readOnly === true) continue;
    if (isManaged(key, idField) && (generated || !required.includes(key))) continue;
    out[key] = structuredClone(inner);
  }
  return out;
}

/** The id and the fields servers manage themselves (timestamps, versions, etags). */
function isManaged(key: string, idField: string): boolean {
  return key === idField || key === 'id' || key === '_id' || VOLATILE_FIELDS.includes(key);
}

/** Field names that hold another resource's id (`widgetId`, `owner_id`, `parentID`). */
const REFERENCE = /(^id$|Id$|_id$|ID$)/;

/**
 * A different valid value for each field the schema lets us change safely, so a PUT or PATCH
 * of it is visible: strings get a suffix (within maxLength), numbers move within their limits,
 * booleans flip, enums take the next value. Fields with a format or pattern are kept.
 */
export function varied(value: Record<string, unknown>, schema: Json | undefined, step: number) {
  const { properties } = objectShape(schema);
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    // A reference to another resource must keep pointing at something that exists.
    out[key] = REFERENCE.test(key) ? inner : vary(inner, properties[key], step);
  }
  return out;
}

function vary(value: unknown, schema: Json | undefined, step: number): unknown {
  if (schema && Array.isArray(schema.enum)) {
    const options = schema.enum.filter((v) => v !== null);
    const at = options.findIndex((v) => JSON.stringify(v) === JSON.stringify(value));
    return options.length > 1 && at >= 0 ? options[(at + step) % options.length] : value;
  }
  if (schema && (schema.format !== undefined || schema.pattern !== undefined || schema.const !== undefined))
    return value;
  if (typeof value === 'boolean') return step % 2 === 1 ? !value : value;
  if (typeof value === 'number') return moved(value, schema, step);
  if (typeof value === 'string') {
    const suffix = `-${step + 1}`;
    const max = typeof schema?.maxLength === 'number' ? schema.maxLength : Infinity;
    if (value.length + suffix.length <= max) return value + suffix;
    return value.length > 0 && max > 0
      ? value.slice(0, Math.min(value.length, max) - 1) + String(step % 10)
      : value;
  }
  return value;
}

function moved(value: number, schema: Json | undefined, step: number): number {
  const within = (n: number): boolean => {
    if (typeof schema?.minimum === 'number' && n < schema.minimum) return false;
    if (typeof schema?.maximum === 'number' && n > schema.maximum) return false;
    if (typeof schema?.exclusiveMinimum === 'number' && n <= schema.exclusiveMinimum) return false;
    if (typeof schema?.exclusiveMaximum === 'number' && n >= schema.exclusiveMaximum) return false;
    if (typeof schema?.multipleOf === 'number' && n % schema.multipleOf !== 0) return false;
    return true;
  };
  const unit = typeof schema?.multipleOf === 'number' ? schema.multipleOf : 1;
  for (const candidate of [value + step * unit, value - step * unit]) if (within(candidate)) return candidate;
  return value;
}

/**
 * A PATCH body when the document gives none: the fields its schema requires, else the first
 * field that `varied` changed, taken from a varied copy of the sample.
 */
export function patchPayload(sample: Record<string, unknown>, patchSchema: Json | undefined) {
  const { properties, required } = objectShape(patchSchema);
  // Only fields the PATCH schema names, when it names any.
  const named = Object.keys(properties).length > 0;
  const base = Object.fromEntries(Object.entries(sample).filter(([key]) => !named || key in properties));
  const changed = varied(base, patchSchema, 2);
  const keys = required.filter((key) => key in changed);
  if (keys.length === 0) {
    const first = Object.keys(changed).find(
      (key) => JSON.stringify(changed[key]) !== JSON.stringify(base[key]),
    );
    if (first === undefined) return undefined;
    keys.push(first);
  }
  return Object.fromEntries(keys.map((key) => [key, changed[key]]));
}

/**
 * Bodies the service must refuse with 400, derived from the sample and the schema: the sample
 * without each required field, then the sample with each typed field given a value of another
 * JSON type. Left alone: fields the schema does not type (or types as "anything"), required
 * fields with a default (a service may fill it in), and the id and server-managed fields.
 */
export function invalidPayloads(
  sample: Record<string, unknown>,
  schema: Json | undefined,
  idField: string,
): unknown[] {
  const { properties, required } = objectShape(schema);
  const out: unknown[] = [];
  const judged = (key: string): boolean => properties[key]?.readOnly !== true && !isManaged(key, idField);
  for (const key of required) {
    if (!(key in sample) || !judged(key) || properties[key]?.default !== undefined) continue;
    const copy = { ...sample };
    delete copy[key];
    out.push(copy);
  }
  for (const key of Object.keys(sample)) {
    const prop = properties[key];
    if (!prop || !judged(key)) continue;
    const wrong = wrongTypeValue(typesOf(prop));
    if (wrong !== undefined) out.push({ ...sample, [key]: wrong });
  }
  return out.slice(0, MAX_INVALID);
}

const WRONG_STRINGS: Record<string, string> = {
  integer: 'not-an-integer',
  number: 'not-a-number',
  boolean: 'not-a-boolean',
  array: 'not-a-list',
  object: 'not-an-object',
};

/**
 * A value of a JSON type not in `types` that no common lenient parser coerces into one of them
 * (undefined when the schema allows any type): a non-numeric string where no string goes, an
 * object for a string (a number would be read as "12345" by Django REST framework and pydantic).
 */
function wrongTypeValue(types: string[]): unknown {
  if (types.length === 0) return undefined;
  const allowed = new Set(types);
  if (allowed.has('integer')) allowed.add('number');
  if (!allowed.has('string')) return WRONG_STRINGS[types.find((t) => t !== 'null') ?? ''] ?? 'wrong-type';
  if (!allowed.has('object')) return NOT_A_STRING;
  if (!allowed.has('array')) return ['not', 'a', 'string'];
  return undefined;
}
