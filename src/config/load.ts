// Config loading: find and read the file, parse, interpolate ${VAR}, validate, apply defaults.
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { buildConfig, normaliseBaseUrl, type LoadedConfig, type RawConfig } from './build.js';
import { interpolate } from './interpolate.js';
import { formatOf, parseText, SyntaxProblems, type ConfigFormat } from './parse.js';
import { describeValue, oneLine, pathKey, renderProblems, type Problem } from './problems.js';
import { validateAgainstSchema } from './validate.js';

export type { LoadedConfig } from './build.js';

/** Where `--config` looks when not given, in this order, in the working directory. */
export const DEFAULT_CONFIG_FILES = [
  'conformance.config.yaml',
  'conformance.config.yml',
  'conformance.config.json',
];

/** A config file larger than this is certainly a mistake (and would be slow to report). */
const MAX_BYTES = 10 * 1024 * 1024;

export interface LoadOptions {
  /** `--config`; default: the first of DEFAULT_CONFIG_FILES in `cwd`. */
  path?: string;
  cwd?: string;
  /** `--base-url`, which wins over the file's `baseUrl`. */
  baseUrl?: string;
  env?: NodeJS.ProcessEnv;
}

export interface ParseOptions {
  /** Name shown in every problem line (usually the file as the user wrote it). */
  source: string;
  /** Default: from `source`'s extension (`.json` is JSON, anything else YAML). */
  format?: ConfigFormat;
  baseUrl?: string;
  env?: NodeJS.ProcessEnv;
  /** Where relative `schema` and `openapi` files are; default: the working directory. */
  baseDir?: string;
}

/**
 * Finds, reads and validates the config file. Throws ConfigError listing every problem
 * (code E_CONFIG_ENV when all of them are unset variables), never anything else.
 */
export async function loadConfig(options: LoadOptions): Promise<LoadedConfig> {
  const cwd = options.cwd ?? process.cwd();
  let file: string;
  let shown: string;
  if (options.path !== undefined) {
    file = resolve(cwd, options.path);
    shown = options.path;
  } else {
    const found = await findDefault(cwd);
    if (found === undefined) {
      throw new ConfigError([
        'no config file: pass --config or create conformance.config.yaml (conformance init writes one)',
      ]);
    }
    file = found;
    shown = displayName(file, cwd);
  }
  let text: string;
  try {
    const info = await stat(file);
    if (info.isDirectory())
      throw new ConfigError([`${shown}: cannot read the config file: it is a directory`]);
    if (info.size > MAX_BYTES)
      throw new ConfigError([`${shown}: config file too large (${info.size} bytes)`]);
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : String(code ?? error);
    throw new ConfigError([`${shown}: cannot read the config file: ${reason}`]);
  }
  return parseConfigText(text, {
    source: shown,
    format: formatOf(file),
    baseUrl: options.baseUrl,
    env: options.env,
    baseDir: dirname(file),
  });
}

/** Validates config text already in hand (tests, stdin, `init`). Same errors as loadConfig. */
export function parseConfigText(text: string, options: ParseOptions): LoadedConfig {
  const { source } = options;
  const env = options.env ?? process.env;
  try {
    return parseChecked(text, options, env);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    // A bug of ours must still read as a config failure with a cause, not a stack trace.
    throw new ConfigError([
      oneLine(`${source}: cannot load the config: ${(error as Error)?.message ?? String(error)}`),
    ]);
  }
}

function parseChecked(text: string, options: ParseOptions, env: NodeJS.ProcessEnv): LoadedConfig {
  const { source } = options;
  const format = options.format ?? formatOf(source);
  let parsed;
  try {
    parsed = parseText(text, format, source);
  } catch (error) {
    if (error instanceof SyntaxProblems) throw new ConfigError(error.lines);
    throw error;
  }
  const data = parsed.value;
  if (data === null || data === undefined) {
    throw new ConfigError([
      `${source}: the file is empty: it needs at least "resources" (conformance init writes a starter config)`,
    ]);
  }
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new ConfigError([
      `${source}: the top level must be a mapping of keys such as "resources" (got ${describeValue(data)})`,
    ]);
  }

  const problems: Problem[] = [];
  let override: string | undefined;
  if (options.baseUrl !== undefined) {
    const checked = normaliseBaseUrl(options.baseUrl);
    if ('problem' in checked) problems.push({ path: [], message: checked.problem, source: '--base-url' });
    else override = checked.url;
  }

  // With --base-url the file's baseUrl is not used, so its variables need not be set.
  const overridden = options.baseUrl !== undefined;
  const interpolated = interpolate(
    data,
    env,
    (path) => overridden && path.length === 1 && path[0] === 'baseUrl',
  );
  problems.push(...interpolated.problems);

  const schemaProblems = validateAgainstSchema(interpolated.value);
  problems.push(...schemaProblems);
  let config: LoadedConfig | undefined;
  if (schemaProblems.length === 0) {
    const built = buildConfig(interpolated.value as RawConfig, {
      // A bad --base-url is reported above; the file's baseUrl is not a fallback for it.
      baseUrlOverride: overridden ? (override ?? '') : undefined,
      baseDir: options.baseDir ?? process.cwd(),
      fromEnv: interpolated.fromEnv,
    });
    problems.push(...built.problems);
    config = built.config;
  }

  // A string whose variable is unset was kept as written: its other complaints are noise.
  const unset = new Set(problems.filter((p) => p.kind === 'env').map((p) => pathKey(p.path)));
  const shown = problems.filter((p) => p.kind === 'env' || !unset.has(pathKey(p.path)));
  if (shown.length > 0 || config === undefined) {
    const lines = renderProblems(source, shown, parsed.lineOf);
    const code = shown.every((p) => p.kind === 'env') ? 'E_CONFIG_ENV' : 'E_CONFIG';
    throw new ConfigError(lines.length > 0 ? lines : [`${source}: invalid config`], code);
  }
  config.source = source;
  return config;
}

async function findDefault(cwd: string): Promise<string | undefined> {
  for (const name of DEFAULT_CONFIG_FILES) {
    const candidate = resolve(cwd, name);
    try {
      if ((await stat(candidate)).isFile()) return candidate;
    } catch {
      // not there: try the next name
    }
  }
  return undefined;
}

/** The file relative to cwd when inside it, else absolute. */
function displayName(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? file : rel || basename(file);
}
