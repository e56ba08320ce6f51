// The alternative API's collections: fields, validation, id shapes and seed records.
import { randomBytes, randomUUID } from 'node:crypto';

/** The JSON type of one client-writable field. */
export interface FieldSpec {
  /** `datetime`: an RFC 3339 date-time string; `date`: a `YYYY-MM-DD` string. */
  type: 'string' | 'integer' | 'number' | 'boolean' | 'strings' | 'object' | 'datetime' | 'date';
  required?: boolean;
  /** Allowed string values. */
  oneOf?: string[];
  /** Strings must match. */
  pattern?: RegExp;
  /** Minimum string length (default 1 for required strings). */
  minLength?: number;
  /** Numbers must be at least this. */
  min?: number;
  /** Numbers must be at most this. */
  max?: number;
}

export interface AltResource {
  /** Collection segment, also the name in the config. */
  name: string;
  /** Field holding the id. */
  idField: string;
  /** Object name for Stripe-style lists (`object: "address"`). */
  objectName: string;
  fields: Record<string, FieldSpec>;
  /** Mints a new id. */
  newId(): string;
  /** True when a path segment has the shape of this collection's ids. */
  idShape: RegExp;
  seed: Array<Record<string, unknown>>;
}

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

/** `adr_8f3k2`: a prefix and five random base-36 characters. */
function prefixedId(prefix: string): string {
  const bytes = randomBytes(5);
  return prefix + [...bytes].map((b) => BASE36[b % 36]).join('');
}

let objectIdCounter = randomBytes(3).readUIntBE(0, 3);

/** A MongoDB ObjectId-like id: 4 bytes of seconds, 5 random bytes, a 3-byte counter (24 hex). */
function objectId(): string {
  objectIdCounter = (objectIdCounter + 1) % 0xffffff;
  const time = Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0');
  return time + randomBytes(5).toString('hex') + objectIdCounter.toString(16).padStart(6, '0');
}

/** The three collections; paths are nouns that begin like verbs (add-, update-, set-). */
export function altResources(): AltResource[] {
  return [
    {
      name: 'addresses',
      idField: 'id',
      objectName: 'address',
      fields: {
        street: { type: 'string', required: true },
        city: { type: 'string', required: true },
        zip: { type: 'string', required: true, pattern: /^\d{5}$/ },
        primary: { type: 'boolean' },
        lines: { type: 'strings' },
      },
      newId: () => prefixedId('adr_'),
      idShape: /^adr_[0-9a-z]{5}$/,
      seed: [
        { id: 'adr_0seed', street: '1 Rue de la Paix', city: 'Paris', zip: '75002', primary: true },
        { id: 'adr_1seed', street: '9 Quai Perrache', city: 'Lyon', zip: '69002', primary: false },
        {
          id: 'adr_2seed',
          street: '3 Cours Mirabeau',
          city: 'Aix-en-Provence',
          zip: '13100',
          primary: false,
        },
        {
          id: 'adr_3seed',
          street: 'Bâtiment C, 5 Allée des Cèdres',
          city: 'Orléans',
          zip: '45000',
          lines: ['Étage 2'],
        },
      ],
    },
    {
      name: 'updates',
      idField: 'id',
      objectName: 'update',
      fields: {
        title: { type: 'string', required: true },
        channel: { type: 'string', required: true, oneOf: ['stable', 'beta', 'nightly'] },
        // A rollout that did not succeed is data, not an error of the request.
        success: { type: 'boolean', required: true },
        notes: { type: 'strings' },
        build: { type: 'object' },
        /** Percentage of users the rollout reaches. */
        rollout: { type: 'number', min: 0, max: 100 },
        scheduled_for: { type: 'datetime' },
        release_date: { type: 'date' },
      },
      newId: objectId,
      idShape: /^[0-9a-f]{24}$/,
      seed: [
        { id: '65f1a2b3c4d5e6f708192a3b', title: '2.4.0', channel: 'stable', success: true },
        { id: '65f1a2b3c4d5e6f708192a3c', title: '2.5.0-rc1', channel: 'beta', success: false },
      ],
    },
    {
      name: 'settings',
      idField: 'uid',
      objectName: 'setting',
      fields: {
        name: { type: 'string', required: true, pattern: /^[a-z][a-z0-9_.]*$/ },
        value: { type: 'string', required: true, minLength: 0 },
        scope: { type: 'string', required: true, oneOf: ['user', 'org'] },
        priority: { type: 'integer', min: 0 },
      },
      newId: randomUUID,
      idShape: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      seed: [
        { uid: '1b4e28ba-2fa1-41d2-883f-0016d3cca427', name: 'ui.theme', value: 'dark', scope: 'user' },
        { uid: '6fa459ea-ee8a-4ca4-894e-db77e160355e', name: 'mail.digest', value: 'weekly', scope: 'org' },
        { uid: '886313e1-3b8a-4372-9b90-0c9aee199e5d', name: 'ui.lang', value: 'fr', scope: 'user' },
      ],
    },
  ];
}

/** One validation problem: where (a JSON pointer) and what. */
export interface Problem {
  pointer: string;
  detail: string;
}

/**
 * Problems of a full representation sent by the client (POST, PUT, or the merged PATCH result).
 * `unknown: 'reject'` lists unknown members as problems; read-only members are always ignored.
 */
export function validate(
  r: AltResource,
  body: Record<string, unknown>,
  unknown: 'reject' | 'ignore',
): Problem[] {
  const problems: Problem[] = [];
  for (const [name, spec] of Object.entries(r.fields)) {
    const value = body[name];
    if (value === undefined || value === null) {
      if (spec.required) problems.push({ pointer: `/${name}`, detail: `"${name}" is required` });
      continue;
    }
    const problem = checkField(name, spec, value);
    if (problem) problems.push({ pointer: `/${name}`, detail: problem });
  }
  if (unknown === 'reject') {
    for (const name of Object.keys(body)) {
      if (!(name in r.fields) && !READ_ONLY.has(name) && name !== r.idField)
        problems.push({ pointer: `/${name}`, detail: `"${name}" is not a field of ${r.objectName}` });
    }
  }
  return problems;
}

/** Server-managed members a client may send back unchanged (they are ignored). */
export const READ_ONLY = new Set(['created_at', 'updated_at', 'version', 'etag', 'object', '_links']);

function checkField(name: string, spec: FieldSpec, value: unknown): string | undefined {
  switch (spec.type) {
    case 'string': {
      if (typeof value !== 'string') return `"${name}" must be a string`;
      if (value.length < (spec.minLength ?? 1)) return `"${name}" must not be empty`;
      if (spec.oneOf && !spec.oneOf.includes(value))
        return `"${name}" must be one of ${spec.oneOf.join(', ')}`;
      if (spec.pattern && !spec.pattern.test(value)) return `"${name}" has the wrong format`;
      return undefined;
    }
    case 'integer':
    case 'number':
      if (typeof value !== 'number' || (spec.type === 'integer' && !Number.isInteger(value)))
        return `"${name}" must be ${spec.type === 'integer' ? 'an integer' : 'a number'}`;
      if (spec.min !== undefined && value < spec.min) return `"${name}" must be at least ${spec.min}`;
      return spec.max !== undefined && value > spec.max ? `"${name}" must be at most ${spec.max}` : undefined;
    case 'datetime':
      return typeof value === 'string' && isDateTime(value)
        ? undefined
        : `"${name}" must be a date-time such as 2026-05-04T09:30:00Z`;
    case 'date':
      return typeof value === 'string' && isDate(value)
        ? undefined
        : `"${name}" must be a date such as 2026-05-04`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `"${name}" must be true or false`;
    case 'strings':
      return Array.isArray(value) && value.every((v) => typeof v === 'string')
        ? undefined
        : `"${name}" must be a list of strings`;
    case 'object':
      return typeof value === 'object' && !Array.isArray(value) ? undefined : `"${name}" must be an object`;
  }
}

/** `2026-05-04T09:30:00Z`, `2026-05-04T11:30:00.250+02:00`: a real day and time with an offset. */
function isDateTime(text: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/i.exec(text);
  if (!m || !isDate(m[1])) return false;
  return +m[2] < 24 && +m[3] < 60 && +m[4] < 60 && (m[7] === undefined || (+m[7] < 24 && +m[8] < 60));
}

/** `2026-05-04`: a day that exists (not 2026-02-30). */
function isDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(text);
}

/** The client-writable members of a body (known fields only), without nulls. */
export function writable(r: AltResource, body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(r.fields)) {
    if (body[name] !== undefined && body[name] !== null) out[name] = body[name];
  }
  return out;
}

/** RFC 7396 JSON merge patch: null removes a member, objects merge recursively, the rest replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}
