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

/**
 * Compiles a user's JSON Schema of one item with the ajv class its `$schema` asks for
 * (draft-07 by default, 2019-09, 2020-12), lenient about unknown keywords and formats.
 * Each call uses a fresh ajv, so two schemas with the same `$id` do not collide.
 * Throws (with ajv's message) when the schema is invalid.
 */
export function compileItemSchema(schema: Record<string, unknown>): ValidateFunction {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (dialect !== '' && !/draft-07|2019-09|2020-12/.test(dialect)) {
    throw new Error(`unsupported $schema ${JSON.stringify(dialect)}: use draft-07, 2019-09 or 2020-12`);
  }
  const options = { allErrors: true, strict: false, logger: false as const };
  const ajv = dialect.includes('2020-12')
    ? new Ajv2020(options)
    : dialect.includes('2019-09')
      ? new Ajv2019(options)
      : new Ajv(options);
  formats.default(ajv);
  return ajv.compile(schema);
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
