// Resource item schemas (`resources[].schema`): loaded from a file or inline, compiled early
// so a broken schema is a config error rather than a failed check later.
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { describeValue } from './problems.js';
import { formatOf, parseText, SyntaxProblems } from './parse.js';

/** Compiled validators by dialect and schema text: a schema is compiled once per process. */
const compiled = new Map<string, ValidateFunction>();
/** One ajv per dialect for schemas without `$id` (creating an ajv costs ~15 ms, compiling on it ~1 ms). */
const shared = new Map<string, Ajv | Ajv2019 | Ajv2020>();

/**
 * Compiles a user's JSON Schema of one item with the ajv class its `$schema` asks for
 * (draft-07 by default, 2019-09, 2020-12), lenient about unknown keywords and formats.
 * Schemas with an `$id` get a fresh ajv, so two schemas with the same `$id` do not collide;
 * the others share one per dialect. Results are cached by the schema's JSON text.
 * Throws (with ajv's message) when the schema is invalid.
 */
export function compileItemSchema(schema: Record<string, unknown>): ValidateFunction {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (dialect !== '' && !/draft-07|2019-09|2020-12/.test(dialect)) {
    throw new Error(`unsupported $schema ${JSON.stringify(dialect)}: use draft-07, 2019-09 or 2020-12`);
  }
  const kind = dialect.includes('2020-12') ? '2020-12' : dialect.includes('2019-09') ? '2019-09' : 'draft-07';
  const key = `${kind}\u0000${JSON.stringify(schema)}`;
  const cached = compiled.get(key);
  if (cached) return cached;
  const hasId = JSON.stringify(schema).includes('"$id"');
  let ajv = hasId ? undefined : shared.get(kind);
  if (!ajv) {
    const options = { allErrors: true, strict: false, logger: false as const };
    ajv =
      kind === '2020-12'
        ? new Ajv2020(options)
        : kind === '2019-09'
          ? new Ajv2019(options)
          : new Ajv(options);
    formats.default(ajv);
    if (!hasId) shared.set(kind, ajv);
  }
  const validate = ajv.compile(schema);
  compiled.set(key, validate);
  return validate;
}

/**
 * Loads and checks one resource's `schema` value. Returns the schema object, or a problem
 * message (for the path `resources[i].schema`).
 */
export function resolveItemSchema(
  value: string | Record<string, unknown>,
  baseDir: string,
): { schema: Record<string, unknown> } | { problem: string } {
  let schema: unknown = value;
  if (typeof value === 'string') {
    const file = isAbsolute(value) ? value : resolve(baseDir, value);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      return { problem: `cannot read ${value}: ${code}` };
    }
    try {
      schema = parseText(text, formatOf(file), value).value;
    } catch (error) {
      const lines = error instanceof SyntaxProblems ? error.lines : [String(error)];
      return { problem: `cannot parse ${lines.join('; ')}` };
    }
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
      return { problem: `${value} must hold a JSON Schema object (got ${describeValue(schema)})` };
    }
  }
  try {
    compileItemSchema(schema as Record<string, unknown>);
  } catch (error) {
    const where = typeof value === 'string' ? `${value}: ` : '';
    return { problem: `${where}invalid JSON Schema: ${(error as Error).message}` };
  }
  return { schema: schema as Record<string, unknown> };
}
