// Header and query parameters a document requires (values from its examples/defaults/enums) -> the config's headers:/query:, at the widest level they hold at.
import { isObject } from '../core/shapes.js';
import type { Operation } from '../core/types.js';
import { asObjects, parametersOf, type Json } from './document.js';

/** A parameter the requests of an operation must carry; `value` undefined: the document gives none. */
export interface RequestParam {
  in: 'header' | 'query';
  name: string;
  value?: string;
}

/** A required parameter the document gives no value for: the user must fill `key`. */
export interface MissingParam {
  in: 'header' | 'query';
  name: string;
  /** The resource it belongs to (none: every request). */
  resource?: string;
  /** Config path below the level (`headers`, `requests.create.query`...), without the name. */
  key: string;
  /** A variable name for the starter's placeholder (`X_TENANT`). */
  variable: string;
}

/** The config-shaped request settings of one resource. */
export interface ResourceRequestFields {
  headers?: Record<string, string>;
  query?: Record<string, string>;
  requests?: Partial<Record<string, { headers?: Record<string, string>; query?: Record<string, string> }>>;
}

/** Headers the document may declare as parameters that are not the user's to set (OpenAPI ignores them). */
const NOT_PARAMETERS = new Set(['content-type', 'accept', 'authorization']);

/**
 * The header and query parameters an operation's requests must carry: each one marked required
 * (not the id, filter, idempotency or credential ones), with the value its `example`, `examples`,
 * `default` or first `enum` value gives; and, on writes, `Prefer: return=representation` where
 * the document offers it (PostgREST answers writes with no body otherwise).
 */
export function requestParams(
  item: Json,
  op: Json,
  skip: (p: Json) => boolean,
  write: boolean,
): RequestParam[] {
  const out: RequestParam[] = [];
  for (const p of parametersOf(item, op)) {
    if ((p.in !== 'header' && p.in !== 'query') || typeof p.name !== 'string' || p.name === '') continue;
    if (p.in === 'header' && NOT_PARAMETERS.has(p.name.toLowerCase())) continue;
    if (skip(p)) continue;
    const schema = isObject(p.schema) ? p.schema : {};
    const enumOf = (node: Json): unknown[] => (Array.isArray(node.enum) ? node.enum : []);
    if (p.required !== true) {
      const offered = [...enumOf(p), ...enumOf(schema)];
      if (
        write &&
        p.in === 'header' &&
        p.name.toLowerCase() === 'prefer' &&
        offered.includes('return=representation')
      )
        out.push({ in: 'header', name: p.name, value: 'return=representation' });
      continue;
    }
    const named = asObjects(Object.values(isObject(p.examples) ? p.examples : {})).map((e) => e.value);
    const candidates = [
      p.example,
      ...named,
      p['x-example'],
      schema.example,
      p.default,
      schema.default,
      enumOf(p)[0],
      enumOf(schema)[0],
    ];
    const value = candidates.find((v) => ['string', 'number', 'boolean'].includes(typeof v));
    out.push({ in: p.in, name: p.name, ...(value === undefined ? {} : { value: String(value) }) });
  }
  return out;
}

const READS: Operation[] = ['list', 'read'];
const WRITES: Operation[] = ['create', 'replace', 'update', 'delete'];

/**
 * Places each parameter at the widest level it holds at with one value: the top level when every
 * operation of every resource carries it, else the resource, else `requests.reads`/`writes`, else
 * the operation. Returns the top-level maps, each resource's fields, and the parameters that have
 * no value (their placeholders' keys).
 */
export function placeParams(
  resources: Array<{
    name: string;
    operations: Operation[];
    params: Partial<Record<Operation, RequestParam[]>>;
  }>,
): { top: ResourceRequestFields; perResource: ResourceRequestFields[]; missing: MissingParam[] } {
  const keyOf = (p: RequestParam): string => `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
  const keys = new Map<string, RequestParam>();
  for (const r of resources)
    for (const list of Object.values(r.params))
      for (const p of list ?? []) if (!keys.has(keyOf(p))) keys.set(keyOf(p), p);
  const top: ResourceRequestFields = {};
  const perResource: ResourceRequestFields[] = resources.map(() => ({}));
  const missing: MissingParam[] = [];
  const put = (
    fields: ResourceRequestFields,
    group: string | undefined,
    p: RequestParam,
    resource?: string,
  ): void => {
    const map = p.in === 'header' ? 'headers' : 'query';
    if (p.value === undefined) {
      const variable =
        p.name
          .toUpperCase()
          .replace(/[^A-Z0-9]+/g, '_')
          .replace(/^_+|_+$/g, '') || 'VALUE';
      missing.push({
        in: p.in,
        name: p.name,
        ...(resource ? { resource } : {}),
        key: group ? `requests.${group}.${map}` : map,
        variable,
      });
      return;
    }
    if (group === undefined) (fields[map] ??= {})[p.name] = p.value;
    else
      ((fields.requests ??= {})[group] ??= {})[map] = {
        ...(fields.requests[group]?.[map] ?? {}),
        [p.name]: p.value,
      };
  };
  for (const [key, sample] of keys) {
    const valueAt = (r: (typeof resources)[number], op: Operation): string | null | undefined => {
      const p = r.params[op]?.find((x) => keyOf(x) === key);
      return p === undefined ? undefined : (p.value ?? null);
    };
    const uniform = (r: (typeof resources)[number], ops: Operation[]): string | null | undefined => {
      const values = new Set(ops.map((op) => valueAt(r, op)));
      return values.size === 1 ? [...values][0] : undefined;
    };
    const everywhere = new Set(resources.map((r) => uniform(r, r.operations)));
    const withValue = (v: string | null): RequestParam => ({
      ...sample,
      ...(v === null ? { value: undefined } : { value: v }),
    });
    if (
      everywhere.size === 1 &&
      [...everywhere][0] !== undefined &&
      resources.every((r) => r.operations.length > 0)
    ) {
      put(top, undefined, withValue([...everywhere][0]!));
      continue;
    }
    resources.forEach((r, index) => {
      const fields = perResource[index];
      const all = uniform(r, r.operations);
      if (all !== undefined) return put(fields, undefined, withValue(all), r.name);
      for (const [group, members] of [
        ['reads', READS],
        ['writes', WRITES],
      ] as const) {
        const present = members.filter((op) => r.operations.includes(op));
        const value = present.length > 1 ? uniform(r, present) : undefined;
        if (value !== undefined) put(fields, group, withValue(value), r.name);
        else
          for (const op of present) {
            const one = valueAt(r, op);
            if (one !== undefined) put(fields, op, withValue(one), r.name);
          }
      }
    });
  }
  return { top, perResource, missing };
}
