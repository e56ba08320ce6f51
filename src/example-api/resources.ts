// Resource definitions of the example API: field specs, the default collections, and body validation.

/** The JSON type a field accepts. `string[]` is an array whose elements are all strings. */
export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'string[]';

/** One client-writable field of a resource. */
export interface FieldSpec {
  type: FieldType;
  /** Must be present in POST and PUT bodies (and may not be removed by PATCH). */
  required?: boolean;
  /** Numbers: the minimum value. Strings and arrays: the minimum length. */
  min?: number;
  /** Value stored when a POST or PUT body leaves an optional field out. */
  default?: unknown;
}

/** The operations a collection can serve (same names as the audit's config). */
export type ResourceOperation = 'list' | 'read' | 'create' | 'replace' | 'update' | 'delete';

/** A collection served under `<versionPrefix>/<name>`. */
export interface ResourceDefinition {
  /** Collection name, also its path segment (`widgets`). */
  name: string;
  /** Singular used in webhook event types (`widget.created`). Default: the name without a final `s`. */
  singular?: string;
  /** `int`: auto-increment integers from 1; `uuid`: `crypto.randomUUID()` strings. */
  ids: 'int' | 'uuid';
  /** Client-writable fields. `id`, `createdAt` and `updatedAt` are managed by the server. */
  fields: Record<string, FieldSpec>;
  /** Records present when the server starts (validated like a POST body). */
  seed?: Array<Record<string, unknown>>;
  /** Operations served; others answer 405. Default: all six. */
  operations?: ResourceOperation[];
  /** Extra validation of a complete record (after type checks); returns a message when invalid. */
  check?: (record: Record<string, unknown>) => string | undefined;
}

/** Fields the server manages itself: ignored when a client sends them. */
export const SERVER_FIELDS: readonly string[] = ['id', 'createdAt', 'updatedAt'];

/** Every operation, the default of `ResourceDefinition.operations`. */
export const ALL_OPERATIONS: readonly ResourceOperation[] = [
  'list',
  'read',
  'create',
  'replace',
  'update',
  'delete',
];

/** The `widgets` shape: `name` (non-empty string), `price` (number >= 0), optional `tags` (strings). */
export function widgetsDefinition(
  name = 'widgets',
  ids: 'int' | 'uuid' = 'int',
  seed = true,
): ResourceDefinition {
  return {
    name,
    ids,
    fields: {
      name: { type: 'string', required: true, min: 1 },
      price: { type: 'number', required: true, min: 0 },
      tags: { type: 'string[]' },
    },
    seed: seed
      ? [
          { name: 'sprocket', price: 2.5, tags: ['metal', 'round'] },
          { name: 'gear', price: 10 },
          { name: 'cog', price: 0, tags: [] },
        ]
      : [],
  };
}

/** The `orders` shape: `widgetId` (integer), `quantity` (integer >= 1), optional `note`; UUID ids. */
export function ordersDefinition(): ResourceDefinition {
  return {
    name: 'orders',
    ids: 'uuid',
    fields: {
      widgetId: { type: 'integer', required: true },
      quantity: { type: 'integer', required: true, min: 1 },
      note: { type: 'string' },
    },
    seed: [
      { widgetId: 1, quantity: 2, note: 'rush' },
      { widgetId: 2, quantity: 1 },
    ],
  };
}

/**
 * The default collections: `widgets` and `orders`. Pass `[...defaultResources(), mine]` as the
 * `resources` option to extend them rather than replace them.
 */
export function defaultResources(options: { widgetIds?: 'int' | 'uuid' } = {}): ResourceDefinition[] {
  return [widgetsDefinition('widgets', options.widgetIds ?? 'int'), ordersDefinition()];
}

/** `things1..thingsN`, each with the widgets shape (used by benchmarks). */
export function thingsResources(count: number): ResourceDefinition[] {
  const defs: ResourceDefinition[] = [];
  for (let i = 1; i <= count; i++) defs.push(widgetsDefinition(`things${i}`));
  return defs;
}

/** Singular form used in event types: `widgets` -> `widget`, `things3` -> `thing3`. */
export function singularOf(def: ResourceDefinition): string {
  if (def.singular) return def.singular;
  const m = /^(.*)s(\d*)$/.exec(def.name);
  return m ? m[1] + m[2] : def.name;
}

/** Result of validating a request body: the accepted fields, or why it was refused. */
export type Validation = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/** How a body is validated: `full` (POST, PUT), `partial` (PATCH), `merge-patch` (PATCH, RFC 7396 nulls). */
export type ValidationMode = 'full' | 'partial' | 'merge-patch';

/**
 * Validates a JSON object against a definition. Server-managed fields are dropped; unknown
 * fields are dropped or refused. In `merge-patch` mode a null removes an optional field and the
 * result keeps it as null (the caller applies the removal).
 */
export function validateBody(
  def: ResourceDefinition,
  body: Record<string, unknown>,
  mode: ValidationMode,
  unknownFields: 'ignore' | 'reject',
): Validation {
  const value: Record<string, unknown> = {};
  for (const [key, given] of Object.entries(body)) {
    if (SERVER_FIELDS.includes(key)) continue;
    const spec = Object.hasOwn(def.fields, key) ? def.fields[key] : undefined;
    if (!spec) {
      if (unknownFields === 'reject') return { ok: false, message: `Unknown field "${key}"` };
      continue;
    }
    if (given === null && mode === 'merge-patch') {
      if (spec.required) return { ok: false, message: `Field "${key}" is required and cannot be removed` };
      value[key] = null;
      continue;
    }
    const problem = fieldProblem(key, spec, given);
    if (problem) return { ok: false, message: problem };
    value[key] = given;
  }
  if (mode === 'full') {
    for (const [key, spec] of Object.entries(def.fields)) {
      if (key in value) continue;
      if (spec.required) return { ok: false, message: `Field "${key}" is required` };
      if (spec.default !== undefined) value[key] = structuredClone(spec.default);
    }
  }
  return { ok: true, value };
}

/** Why one field value does not fit its spec, or undefined when it does. */
function fieldProblem(key: string, spec: FieldSpec, given: unknown): string | undefined {
  const min = spec.min;
  switch (spec.type) {
    case 'string':
      if (typeof given !== 'string') return `Field "${key}" must be a string`;
      if (min !== undefined && given.length < min)
        return `Field "${key}" must have at least ${min} characters`;
      return undefined;
    case 'number':
    case 'integer':
      if (typeof given !== 'number' || !Number.isFinite(given)) return `Field "${key}" must be a number`;
      if (spec.type === 'integer' && !Number.isInteger(given)) return `Field "${key}" must be an integer`;
      if (min !== undefined && given < min) return `Field "${key}" must be at least ${min}`;
      return undefined;
    case 'boolean':
      return typeof given === 'boolean' ? undefined : `Field "${key}" must be a boolean`;
    case 'string[]':
      if (!Array.isArray(given) || !given.every((v) => typeof v === 'string')) {
        return `Field "${key}" must be an array of strings`;
      }
      if (min !== undefined && given.length < min) return `Field "${key}" must have at least ${min} elements`;
      return undefined;
  }
}
