// Validation against config/schema.json, with ajv's errors turned into one readable line each.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';
import { packagePath } from '../core/paths.js';
import { describeValue, type Problem, type Segment } from './problems.js';
import { didYouMean } from './suggest.js';

/**
 * Where the build writes config/schema.json compiled to standalone code (scripts/build.mjs): the
 * CLI loads it in a few milliseconds instead of compiling the schema on every start (about 45 ms).
 */
export const PRECOMPILED = packagePath('dist', 'config-schema.validator.cjs');

/**
 * The ajv that compiles the config schema, for the build's precompiled validator and for the
 * fallback below: one set of options for both.
 */
export function configAjv(extra: Options = {}): { ajv: Ajv; schema: object } {
  const schema = JSON.parse(readFileSync(packagePath('config', 'schema.json'), 'utf8')) as object;
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    logger: false,
    ...extra,
  });
  formats.default(ajv);
  // `x-messages: { <keyword>: <message> }` in the schema: our wording for that keyword's failure.
  ajv.addKeyword({ keyword: 'x-messages', schemaType: 'object' });
  return { ajv, schema };
}

let compiled: ValidateFunction | undefined;

/**
 * The config schema's validator: the build's precompiled one, or the schema compiled now when no
 * build has compiled it since it last changed (a test compiled from the sources alone, an edit of
 * the schema not yet built). An installed package's files all carry one time: precompiled.
 */
function configValidator(): ValidateFunction {
  if (compiled) return compiled;
  const current =
    existsSync(PRECOMPILED) &&
    statSync(PRECOMPILED).mtimeMs >= statSync(packagePath('config', 'schema.json')).mtimeMs;
  if (current) compiled = createRequire(import.meta.url)(PRECOMPILED) as ValidateFunction;
  else {
    const { ajv, schema } = configAjv();
    compiled = ajv.compile(schema);
  }
  return compiled;
}

/** Problems of `data` against the config schema (`validate`: its validator); empty when valid. */
export function validateAgainstSchema(data: unknown, validate = configValidator()): Problem[] {
  if (validate(data)) return [];
  return collapse(validate.errors ?? []).map((error) => toProblem(error, data));
}

/** Drops ajv's bookkeeping errors (`if`) and folds each failed anyOf/oneOf into one message. */
function collapse(errors: readonly ErrorObject[]): ErrorObject[] {
  let remaining = errors.filter((error) => error.keyword !== 'if');
  const groups = remaining
    .filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf')
    .sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  for (const group of groups) {
    if (!remaining.includes(group)) continue;
    const prefix = `${group.schemaPath}/`;
    const branches = remaining.filter((error) => error.schemaPath.startsWith(prefix));
    let replacement: ErrorObject[] = [group];
    if (!customMessage(group) && branches.length > 0) {
      // Without a message of ours, keep the branch the data got furthest into: most likely meant.
      const byBranch = new Map<string, ErrorObject[]>();
      for (const error of branches) {
        const branch = error.schemaPath.slice(prefix.length).split('/')[0];
        byBranch.set(branch, [...(byBranch.get(branch) ?? []), error]);
      }
      const depth = (list: ErrorObject[]): number => Math.max(...list.map((e) => e.instancePath.length));
      replacement = [...byBranch.values()].sort((a, b) => depth(b) - depth(a) || a.length - b.length)[0];
    }
    const at = remaining.indexOf(group);
    const kept = remaining.filter((error, index) => index < at && !branches.includes(error));
    const rest = remaining.filter((error, index) => index > at && !branches.includes(error));
    remaining = [...kept, ...replacement, ...rest];
  }
  return remaining;
}

function customMessage(error: ErrorObject): string | undefined {
  const messages = (error.parentSchema as { 'x-messages'?: Record<string, string> } | undefined)?.[
    'x-messages'
  ];
  return messages?.[error.keyword];
}

/** JSON pointer -> segments, using the data to tell array indexes from keys. */
export function pointerToPath(pointer: string, data: unknown): Segment[] {
  if (pointer === '') return [];
  const path: Segment[] = [];
  let node = data;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^\d+$/.test(key)) {
      path.push(Number(key));
      node = node[Number(key)];
    } else {
      path.push(key);
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    }
  }
  return path;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'a mapping',
  array: 'a list',
  null: 'null',
};

function toProblem(error: ErrorObject, root: unknown): Problem {
  const path = pointerToPath(error.instancePath, root);
  const got = ` (got ${describeValue(error.data)})`;
  const params = error.params as Record<string, unknown>;
  const custom = customMessage(error);
  if (custom) return { path, message: error.keyword === 'anyOf' ? custom : custom + got };
  switch (error.keyword) {
    case 'required':
      return { path: [...path, String(params.missingProperty)], message: 'required' };
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const known = Object.keys(
        (error.parentSchema as { properties?: object } | undefined)?.properties ?? {},
      );
      return {
        path,
        locate: [...path, key],
        message: `unknown key ${JSON.stringify(key)}${didYouMean(key, known)}`,
      };
    }
    case 'type': {
      const types = Array.isArray(params.type) ? params.type.map(String) : String(params.type).split(',');
      // "many" for an integer field is first of all not a number; 2.5 is a number but not an integer.
      const words = types.map((type) =>
        type === 'integer' && typeof error.data !== 'number' ? 'a number' : (TYPE_WORDS[type] ?? type),
      );
      return { path, message: `must be ${words.join(' or ')}${got}` };
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map(String);
      const hint = typeof error.data === 'string' ? didYouMean(error.data, allowed) : '';
      return { path, message: `must be one of ${allowed.join(', ')}${got}${hint}` };
    }
    case 'const':
      return { path, message: `must be ${JSON.stringify(params.allowedValue)}${got}` };
    case 'pattern':
      return { path, message: `must match ${String(params.pattern)}${got}` };
    case 'minLength':
      return {
        path,
        message: params.limit === 1 ? 'must not be empty' : `must be at least ${params.limit} characters`,
      };
    case 'maxLength':
      return { path, message: `must be at most ${params.limit} characters` };
    case 'minItems':
      return {
        path,
        message: params.limit === 1 ? 'must not be empty' : `must have at least ${params.limit} items`,
      };
    case 'maxItems':
      return { path, message: `must have at most ${params.limit} items` };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { path, message: `must be ${String(params.comparison)} ${String(params.limit)}${got}` };
    case 'uniqueItems': {
      const list = Array.isArray(error.data) ? error.data : [];
      return { path, message: `lists ${describeValue(list[Number(params.j)])} twice` };
    }
    case 'format':
      return { path, message: `must be a valid ${String(params.format)}${got}` };
    case 'anyOf':
    case 'oneOf':
      return { path, message: `does not match any allowed form${got}` };
    default:
      return { path, message: error.message ?? `fails "${error.keyword}"` };
  }
}
