// Config loading: find and read the file, parse, interpolate ${VAR}, validate, apply defaults.
import { stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import { ConfigError, ConformanceError } from '../core/errors.js';
import { buildConfig, normaliseBaseUrl, type LoadedConfig, type RawConfig } from './build.js';
import { interpolate, type Interpolated } from './interpolate.js';
import { formatOf, parseText, SyntaxProblems, type ConfigFormat, type ParsedText } from './parse.js';
import { describeValue, oneLine, pathKey, renderProblems, type Problem } from './problems.js';
import { readCappedFile, ReadProblem } from './read-file.js';
import { readTls } from './tls.js';
import { validateAgainstSchema } from './validate.js';
import { dotSegmentIn } from '../core/dot-segments.js';
import type { NotProbedPath, TlsSettings } from '../core/types.js';

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
  /**
   * `--openapi`: a document (file relative to `cwd`, or http(s) URL) to derive resources from;
   * wins over the file's `openapi`. With it, no config file is needed.
   */
  openapi?: string;
  /**
   * Reads the OpenAPI document a run names (`--openapi` or the file's `openapi`): src/openapi's
   * `openApiStep()`. Config never imports src/openapi (it builds on config), so the caller hands
   * it in; without it, a named document is a config error.
   */
  documentStep?: DocumentStep;
}

/** What the OpenAPI step is given: the config data so far, and where the document is. */
export interface DocumentStepInput {
  /** The config data, interpolated, not yet validated. */
  data: Record<string, unknown>;
  /** The document as named (file path or http(s) URL). */
  source: string;
  /** Where a relative file path is looked up. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `--base-url` was given (then a document without an absolute server URL is no problem). */
  baseUrlGiven: boolean;
  /** `--base-url`, normalised, when given and valid (it wins over the data's `baseUrl`). */
  baseUrl?: string;
  /** Config paths whose whole value came from a variable; the step adds the tokens it takes. */
  fromEnv: Map<string, string>;
  /** Config problems found so far; the step adds its own. */
  problems: Problem[];
  /** The config's TLS settings (files read), for fetching the document. */
  tls?: TlsSettings;
}

/** The config data with the document's findings merged in, and what the run should show. */
export interface DocumentStepOutput {
  data: Record<string, unknown>;
  notProbed: NotProbedPath[];
  /** Things the user should know (unsupported security, parser warnings...). */
  notes: string[];
}

/** Derives config data from an OpenAPI document (see `LoadOptions.documentStep`). */
export type DocumentStep = (input: DocumentStepInput) => Promise<DocumentStepOutput>;

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
 * Finds, reads and validates the config file, merged with what its OpenAPI document (`openapi`
 * or `--openapi`) declares. Throws ConfigError listing every problem (code E_CONFIG_ENV when all
 * of them are unset variables) or OpenApiError when the document is unusable, never anything else.
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
    if (found === undefined && options.openapi !== undefined) {
      // No config file: everything comes from the document, the tokens from the environment.
      return loadChecked(
        undefined,
        { source: options.openapi, baseUrl: options.baseUrl, env: options.env, baseDir: cwd },
        options,
      );
    }
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
    text = await readCappedFile(file, shown, 'config file', MAX_BYTES);
  } catch (error) {
    if (error instanceof ReadProblem) throw new ConfigError([error.message]);
    throw error;
  }
  const parseOptions = {
    source: shown,
    format: formatOf(file),
    baseUrl: options.baseUrl,
    env: options.env,
    baseDir: dirname(file),
  };
  return loadChecked(text, parseOptions, options);
}

/** prepare -> the OpenAPI step when a document is named -> finish, with parseConfigText's error rules. */
async function loadChecked(
  text: string | undefined,
  options: ParseOptions,
  load: LoadOptions,
): Promise<LoadedConfig> {
  const env = options.env ?? process.env;
  try {
    const prepared = prepare(text, options, env);
    const cwd = load.cwd ?? process.cwd();
    // Before the document step: a document fetched over https needs the same trust.
    const tls = await readTls(prepared.data, options.baseDir ?? cwd);
    prepared.problems.push(...tls.problems);
    prepared.tls = { read: true, ...(tls.tls ? { settings: tls.tls } : {}) };
    const named = prepared.data.openapi;
    // The file's `openapi` is relative to the file; `--openapi` to the working directory.
    const document =
      load.openapi !== undefined
        ? { source: load.openapi, cwd }
        : typeof named === 'string' && named !== '' && !prepared.problems.some((p) => p.path[0] === 'openapi')
          ? { source: named, cwd: options.baseDir ?? cwd }
          : undefined;
    if (document === undefined) return finish(prepared, options);
    if (load.documentStep === undefined) {
      throw new ConfigError([
        `${document.source}: this command cannot read OpenAPI documents (remove "openapi" from the config)`,
      ]);
    }
    const findings = await load.documentStep({
      data: prepared.data,
      source: document.source,
      cwd: document.cwd,
      env,
      baseUrlGiven: options.baseUrl !== undefined,
      ...(prepared.override === undefined ? {} : { baseUrl: prepared.override }),
      fromEnv: prepared.fromEnv,
      problems: prepared.problems,
      ...(prepared.tls.settings ? { tls: prepared.tls.settings } : {}),
    });
    prepared.data = findings.data;
    const config = finish(prepared, options);
    config.openapiSource = /^https?:\/\//i.test(document.source)
      ? document.source
      : resolve(document.cwd, document.source);
    if (findings.notProbed.length > 0) {
      config.notProbed = findings.notProbed;
      // Linted by RES-NOUN (which may GET them): never a path that could leave the base URL.
      config.extraPaths = findings.notProbed.map((n) => n.path).filter((p) => dotSegmentIn(p) === undefined);
    }
    if (findings.notes.length > 0) config.openapiNotes = findings.notes;
    return config;
  } catch (error) {
    if (error instanceof ConformanceError) throw error;
    throw new ConfigError([
      oneLine(`${options.source}: cannot load the config: ${(error as Error)?.message ?? String(error)}`),
    ]);
  }
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
  return finish(prepare(text, options, env), options);
}

/** The config after parsing and interpolation, before validation: where the OpenAPI step merges in. */
interface Prepared {
  data: Record<string, unknown>;
  problems: Problem[];
  fromEnv: Map<string, string>;
  /** Every variable whose value went into a string (see interpolate). */
  used: Interpolated['used'];
  lineOf: ParsedText['lineOf'];
  overridden: boolean;
  override?: string;
  /** The `tls` section with its files read (by loadConfig; parseConfigText reads no files). */
  tls?: { read: true; settings?: TlsSettings };
}

/** Parses and interpolates; `text` undefined means there is no config file (an OpenAPI-only run). */
function prepare(text: string | undefined, options: ParseOptions, env: NodeJS.ProcessEnv): Prepared {
  const { source } = options;
  let data: unknown = {};
  let lineOf: ParsedText['lineOf'] = () => undefined;
  if (text !== undefined) {
    const format = options.format ?? formatOf(source);
    let parsed;
    try {
      parsed = parseText(text, format, source);
    } catch (error) {
      if (error instanceof SyntaxProblems) throw new ConfigError(error.lines);
      throw error;
    }
    data = parsed.value;
    lineOf = parsed.lineOf;
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
  return {
    data: interpolated.value as Record<string, unknown>,
    problems,
    fromEnv: interpolated.fromEnv,
    used: interpolated.used,
    lineOf,
    overridden,
    ...(override === undefined ? {} : { override }),
  };
}

/** Validates and builds a prepared config; throws ConfigError listing every problem. */
function finish(prepared: Prepared, options: ParseOptions): LoadedConfig {
  const { source } = options;
  const { problems, overridden, override } = prepared;
  const schemaProblems = validateAgainstSchema(prepared.data);
  problems.push(...schemaProblems);
  let config: LoadedConfig | undefined;
  if (schemaProblems.length === 0 && !Array.isArray(prepared.data.resources)) {
    // Valid without resources only with `openapi`, which loadConfig reads (parseConfigText does
    // not); when its variable is unset, that problem says it all.
    if (!problems.some((p) => p.kind === 'env' && p.path[0] === 'openapi')) {
      problems.push({
        path: ['resources'],
        message: 'required (the "openapi" document is read by loadConfig only)',
      });
    }
  } else if (schemaProblems.length === 0) {
    const built = buildConfig(prepared.data as unknown as RawConfig, {
      // A bad --base-url is reported above; the file's baseUrl is not a fallback for it.
      baseUrlOverride: overridden ? (override ?? '') : undefined,
      baseDir: options.baseDir ?? process.cwd(),
      fromEnv: prepared.fromEnv,
      usedEnv: prepared.used,
    });
    problems.push(...built.problems);
    config = built.config;
    const tls = prepared.data.tls as Record<string, unknown> | undefined;
    if (prepared.tls?.settings) config.tls = prepared.tls.settings;
    else if (!prepared.tls && tls && ['ca', 'cert', 'key'].some((k) => tls[k] !== undefined))
      problems.push({ path: ['tls'], message: 'its files are read by loadConfig only' });
    else if (!prepared.tls && tls?.insecure === true) config.tls = { insecure: true };
  }

  // A string whose variable is unset was kept as written: its other complaints are noise.
  const unset = new Set(problems.filter((p) => p.kind === 'env').map((p) => pathKey(p.path)));
  const shown = problems.filter((p) => p.kind === 'env' || !unset.has(pathKey(p.path)));
  if (shown.length > 0 || config === undefined) {
    const lines = renderProblems(source, shown, prepared.lineOf);
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
