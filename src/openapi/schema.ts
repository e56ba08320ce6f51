// OpenAPI schema objects -> plain JSON Schema for ajv, plus the shape questions the import asks of them.
import { isObject, ITEM_ENVELOPES } from '../core/shapes.js';
import type { Json, SpecVersion } from './document.js';

/** Keywords whose value is one schema. */
const ONE_SCHEMA = [
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
];
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** OpenAPI-only annotations that are not JSON Schema (ajv would ignore them; dropped for clarity). */
const OPENAPI_ONLY = ['discriminator', 'xml', 'externalDocs', 'example', 'nullable', 'x-nullable'];

const MAX_DEPTH = 64;

/**
 * Converts an OpenAPI schema to the JSON Schema dialect ajv validates: 3.0 and 2.0 `nullable`
 * becomes a `null` type, boolean `exclusiveMinimum`/`exclusiveMaximum` become numbers, `file`
 * types and OpenAPI-only annotations go; 3.1 schemas are 2020-12 already and get `$schema`.
 * `forResponses` drops write-only properties from `required` (a response never carries them).
 */
export function toJsonSchema(schema: Json, version: SpecVersion, forResponses = true): Json {
  const out = convert(schema, version, forResponses, 0) as Json;
  if (version === '3.1') out.$schema = 'https://json-schema.org/draft/2020-12/schema';
  return out;
}

function convert(node: unknown, version: SpecVersion, forResponses: boolean, depth: number): unknown {
  if (typeof node === 'boolean' || !isObject(node)) return node;
  if (depth > MAX_DEPTH) return {};
  const next = (value: unknown): unknown => convert(value, version, forResponses, depth + 1);
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (version !== '3.1' && OPENAPI_ONLY.includes(key)) continue;
    if (ONE_SCHEMA.includes(key)) out[key] = Array.isArray(value) ? value.map(next) : next(value);
    else if (SCHEMA_LISTS.includes(key) && Array.isArray(value)) out[key] = value.map(next);
    else if (SCHEMA_MAPS.includes(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, next(inner)]));
    } else out[key] = value;
  }
  if (version !== '3.1') {
    if (out.type === 'file') delete out.type;
    for (const [flag, limit] of [
      ['exclusiveMinimum', 'minimum'],
      ['exclusiveMaximum', 'maximum'],
    ] as const) {
      // Draft 4 style (OpenAPI 3.0, Swagger 2.0): a boolean that qualifies minimum/maximum.
      if (typeof out[flag] === 'boolean') {
        if (out[flag] === true && typeof out[limit] === 'number') {
          out[flag] = out[limit];
          delete out[limit];
        } else delete out[flag];
      }
    }
    if (node.nullable === true || node['x-nullable'] === true) allowNull(out);
  }
  if (forResponses && Array.isArray(out.required) && isObject(out.properties)) {
    const props = out.properties;
    out.required = out.required.filter((name) => !(isObject(props[name]) && props[name].writeOnly === true));
  }
  return out;
}

function allowNull(schema: Json): void {
  if (typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  else if (Array.isArray(schema.type) && !schema.type.includes('null'))
    schema.type = [...schema.type, 'null'];
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
}

/** Properties and required names of an object schema, following `allOf` (what every variant has). */
export function objectShape(schema: Json | undefined): {
  properties: Record<string, Json>;
  required: string[];
} {
  const properties: Record<string, Json> = {};
  const required = new Set<string>();
  const visit = (node: unknown, depth: number): void => {
    if (!isObject(node) || depth > 16) return;
    if (isObject(node.properties)) {
      for (const [name, prop] of Object.entries(node.properties)) {
        if (isObject(prop)) properties[name] = { ...(properties[name] ?? {}), ...prop };
      }
    }
    if (Array.isArray(node.required)) for (const name of node.required) required.add(String(name));
    if (Array.isArray(node.allOf)) for (const part of node.allOf) visit(part, depth + 1);
  };
  visit(schema, 0);
  return { properties, required: [...required] };
}

/**
 * The schema of a JSON object a body may be: the schema itself when it describes one, else the
 * first object branch of its oneOf/anyOf (Directus takes one item or a list of them:
 * `oneOf: [{type: array, items: Item}, Item]`). Undefined when no branch is an object.
 */
export function objectBranch(schema: Json | undefined): Json | undefined {
  if (!schema || isObjectSchema(schema)) return schema;
  for (const key of ['oneOf', 'anyOf']) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const found = branches.find((b): b is Json => isObject(b) && isObjectSchema(b));
    if (found) return found;
  }
  return undefined;
}

/** Does the schema describe a JSON object (type object, or properties without a type)? */
export function isObjectSchema(schema: Json | undefined): boolean {
  if (!schema) return false;
  const types = typesOf(schema);
  if (types.length > 0) return types.includes('object');
  return Object.keys(objectShape(schema).properties).length > 0;
}

/** The JSON types a schema allows (`nullable` counted as null); empty when it does not say. */
export function typesOf(schema: Json): string[] {
  const raw = schema.type;
  const types = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw.map(String) : [];
  if (types.length > 0 && (schema.nullable === true || schema['x-nullable'] === true)) types.push('null');
  return types;
}

/**
 * The item inside an enveloped response schema (`{data: {...item}}`), or the schema itself.
 * The item is the object that carries `idField` (or, failing that, `id`).
 */
export function unwrapItemSchema(schema: Json, idField: string | undefined): Json {
  const carriesId = (node: unknown): boolean => {
    if (!isObject(node)) return false;
    const { properties } = objectShape(node);
    return (idField !== undefined && idField in properties) || 'id' in properties;
  };
  if (carriesId(schema)) return schema;
  const { properties } = objectShape(schema);
  for (const key of ITEM_ENVELOPES) if (carriesId(properties[key])) return properties[key];
  const keys = Object.keys(properties);
  if (keys.length === 1 && carriesId(properties[keys[0]])) return properties[keys[0]];
  return schema;
}

/** The items schema of a list response: a bare array, or the array under an envelope key. */
export function listItemSchema(schema: Json | undefined): Json | undefined {
  if (!schema) return undefined;
  if (typesOf(schema).includes('array') || isObject(schema.items)) {
    return isObject(schema.items) ? schema.items : undefined;
  }
  const arrays = Object.values(objectShape(schema).properties).filter((p) => isObject(p.items));
  return arrays.length === 1 ? (arrays[0].items as Json) : undefined;
}

/** True when some `$ref` was left in the schema (the parser leaves circular ones in place). */
export function hasRef(node: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  if (Array.isArray(node)) return node.some((item) => hasRef(item, depth + 1));
  if (!isObject(node)) return false;
  if (typeof node.$ref === 'string') return true;
  return Object.values(node).some((value) => hasRef(value, depth + 1));
}

/**
 * A schema that still holds circular `$ref`s made standalone: the document's schema container
 * (`components` or `definitions`, converted) is attached at its root, where `#/...` pointers find it.
 */
export function withRefTargets(schema: Json, doc: Json, version: SpecVersion): Json | undefined {
  if (!hasRef(schema)) return schema;
  if (version === '2.0') {
    if (!isObject(doc.definitions)) return undefined;
    return { ...schema, definitions: toJsonSchema({ properties: doc.definitions }, version).properties };
  }
  const components = isObject(doc.components) ? doc.components : undefined;
  if (!components || !isObject(components.schemas)) return undefined;
  const schemas = toJsonSchema({ properties: components.schemas }, version).properties;
  return { ...schema, components: { schemas } };
}
