// Loading an OpenAPI document: read its files under the $ref rules, check syntax, validate and dereference with @readme/openapi-parser.
import type { NetworkOptions } from '../http/dispatchers.js';
import { dereference, validate, type ParserOptions } from '@readme/openapi-parser';
import { ConformanceError } from '../core/errors.js';
import { isObject } from '../core/shapes.js';
import { formatOf, parseText, SyntaxProblems, type ParsedText } from '../config/parse.js';
import { oneLine, type Segment } from '../config/problems.js';
import { specVersion, type Json, type SpecVersion } from './document.js';
import {
  DEFAULT_FETCH_LIMITS,
  parserResolveOptions,
  readSources,
  SourceProblem,
  type DocumentCredentials,
  type DocumentSources,
  type FetchLimits,
} from './sources.js';
import { describeValidationErrors } from './problems.js';
import { respellExclusiveBounds } from './respell.js';

/** The document could not be read, parsed or validated; `problems` has one line per problem. */
export class OpenApiError extends ConformanceError {
  constructor(problems: string[]) {
    super('E_OPENAPI', problems[0] ?? 'invalid OpenAPI document', problems);
    this.name = 'OpenApiError';
  }
}

/** A valid document with every `$ref` resolved (circular ones are left as `$ref`). */
export interface LoadedDocument {
  document: Json;
  version: SpecVersion;
  /** The document as the user named it (for messages). */
  source: string;
  /** Its URL, when it was fetched (relative server URLs resolve against it). */
  url?: string;
  /** The parser's warnings. */
  warnings: string[];
}

export interface OpenApiLoadOptions {
  /** Where a relative file path is looked up (default: the working directory). */
  cwd?: string;
  /** `--openapi-allow-ref`: folders a local document's `$ref`s may read beside its own. */
  allowRefs?: string[];
  limits?: Partial<FetchLimits>;
  /** TLS settings and proxy variables for a fetched document. */
  network?: NetworkOptions;
  /** The run's credential, sent when fetching a document on the base URL's origin only. */
  credentials?: DocumentCredentials;
}

/**
 * Reads (or fetches), validates and dereferences a document; throws OpenApiError, never anything
 * else. Every file the document refers to is read first under the `$ref` rules (see
 * readSources); the parser is served from memory and reads nothing itself.
 */
export async function loadOpenApi(source: string, options: OpenApiLoadOptions = {}): Promise<LoadedDocument> {
  const limits = { ...DEFAULT_FETCH_LIMITS, ...options.limits };
  try {
    const sources = await readSources(
      source,
      {
        cwd: options.cwd ?? process.cwd(),
        allowRefs: options.allowRefs ?? [],
        network: options.network,
        ...(options.credentials ? { credentials: options.credentials } : {}),
      },
      limits,
    );
    return await validated(sources, source);
  } catch (error) {
    if (error instanceof OpenApiError) throw error;
    if (error instanceof SourceProblem) throw new OpenApiError([oneLine(error.message)]);
    throw new OpenApiError([
      oneLine(`${source}: cannot load the OpenAPI document: ${(error as Error)?.message ?? error}`),
    ]);
  }
}

async function validated(sources: DocumentSources, source: string): Promise<LoadedDocument> {
  const { root, text, url } = sources;
  const parserOptions = {
    resolve: parserResolveOptions(sources),
    dereference: { circular: 'ignore' as const },
  } as ParserOptions;
  let parsed: ParsedText;
  try {
    parsed = parseText(text, formatOf(url ? new URL(url).pathname : root), source);
  } catch (error) {
    if (error instanceof SyntaxProblems) throw new OpenApiError(error.lines);
    throw error;
  }
  const raw = parsed.value;
  if (!isObject(raw) || (raw.openapi === undefined && raw.swagger === undefined)) {
    throw new OpenApiError([
      `${source}: not an OpenAPI document: it needs an "openapi" (3.x) or "swagger" (2.0) key at the top`,
    ]);
  }
  let result;
  const notes: string[] = [];
  try {
    result = await validate(root, parserOptions);
    // FastAPI before 0.99 writes exclusive bounds the 3.1 way into a 3.0 document: read them the
    // 3.0 way when that is all that makes the document invalid (its own errors stand otherwise).
    const respelled =
      !result.valid && /^3\.0(\.|$)/.test(String(raw.openapi)) ? respellExclusiveBounds(sources) : undefined;
    if (respelled) {
      const options = { ...parserOptions, resolve: parserResolveOptions(respelled.sources) } as ParserOptions;
      const again = await validate(root, options);
      if (again.valid) {
        result = again;
        parserOptions.resolve = options.resolve;
        notes.push(
          `${source}: ${respelled.count} exclusiveMinimum/exclusiveMaximum given as a number (OpenAPI 3.1's spelling, as FastAPI before 0.99 writes them) in an OpenAPI ${String(raw.openapi)} document: read as the 3.0 spelling of the same bound (minimum/maximum N with exclusiveMinimum/exclusiveMaximum true)`,
        );
      }
    }
  } catch (error) {
    throw new OpenApiError([oneLine(`${source}: ${(error as Error).message}`)]);
  }
  if (!result.valid) {
    const dereferenced = await dereference(root, parserOptions).catch(() => undefined);
    const lineOf = (path: readonly Segment[]): number | undefined =>
      holds(raw, path) ? parsed.lineOf(path) : undefined;
    const lines = describeValidationErrors(
      result.errors.map((e) => e.message),
      dereferenced,
      lineOf,
    ).map((line) => `${source}: ${line}`);
    if (result.additionalErrors > 0) lines.push(`${source}: and ${result.additionalErrors} more problems`);
    throw new OpenApiError(lines.length > 0 ? lines : [`${source}: invalid OpenAPI document`]);
  }
  let document: Json;
  try {
    document = (await dereference(root, parserOptions)) as unknown as Json;
  } catch (error) {
    throw new OpenApiError([oneLine(`${source}: ${(error as Error).message}`)]);
  }
  return {
    document,
    version: specVersion(document),
    source,
    ...(url ? { url } : {}),
    warnings: [...notes, ...result.warnings.map((w) => oneLine(`${source}: ${w.message}`))],
  };
}

/** Does `path` exist in `root` without crossing a `$ref` (so it is in this file, with a line)? */
function holds(root: unknown, path: readonly Segment[]): boolean {
  let node = root;
  for (const segment of path) {
    if (Array.isArray(node) && typeof segment === 'number') node = node[segment];
    else if (isObject(node) && Object.hasOwn(node, String(segment))) node = node[String(segment)];
    else return false;
  }
  return true;
}
