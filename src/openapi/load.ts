// Loading an OpenAPI document: read or fetch, check syntax, validate and dereference with @readme/openapi-parser.
import { readFile, rm, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { dereference, validate } from '@readme/openapi-parser';
import { ConformanceError } from '../core/errors.js';
import { isObject } from '../core/shapes.js';
import { formatOf, parseText, SyntaxProblems, type ParsedText } from '../config/parse.js';
import { oneLine, type Segment } from '../config/problems.js';
import { specVersion, type Json, type SpecVersion } from './document.js';
import { DEFAULT_FETCH_LIMITS, FetchProblem, mirrorDocument, type FetchLimits } from './fetch.js';
import { describeValidationErrors } from './problems.js';

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
  limits?: Partial<FetchLimits>;
}

/** Reads (or fetches), validates and dereferences a document; throws OpenApiError, never anything else. */
export async function loadOpenApi(source: string, options: OpenApiLoadOptions = {}): Promise<LoadedDocument> {
  const limits = { ...DEFAULT_FETCH_LIMITS, ...options.limits };
  const isUrl = /^https?:\/\//i.test(source);
  let file: string;
  let text: string;
  let tempDir: string | undefined;
  try {
    if (isUrl) {
      const mirrored = await mirrorDocument(source, limits);
      ({ file, text } = mirrored);
      tempDir = mirrored.dir;
    } else {
      file = resolve(options.cwd ?? process.cwd(), source);
      text = await readLocal(file, source, limits.maxBytes);
    }
    // Messages about a fetched document name its URL, not the temp folder it was mirrored to.
    const shownError = (message: string): string =>
      tempDir ? message.split(`${tempDir}/files`).join(new URL(source).origin) : message;
    return await validated(file, text, source, shownError, isUrl ? source : undefined);
  } catch (error) {
    if (error instanceof OpenApiError) throw error;
    if (error instanceof FetchProblem) throw new OpenApiError([oneLine(error.message)]);
    throw new OpenApiError([
      oneLine(`${source}: cannot load the OpenAPI document: ${(error as Error)?.message ?? error}`),
    ]);
  } finally {
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  }
}

async function readLocal(file: string, shown: string, maxBytes: number): Promise<string> {
  try {
    const info = await stat(file);
    if (info.isDirectory())
      throw new OpenApiError([`${shown}: cannot read the OpenAPI document: it is a directory`]);
    if (info.size > maxBytes)
      throw new OpenApiError([
        `${shown}: OpenAPI document too large (${info.size} bytes, at most ${maxBytes})`,
      ]);
    return await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof OpenApiError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : String(code ?? error);
    throw new OpenApiError([`${shown}: cannot read the OpenAPI document: ${reason}`]);
  }
}

async function validated(
  file: string,
  text: string,
  source: string,
  shownError: (message: string) => string,
  url: string | undefined,
): Promise<LoadedDocument> {
  let parsed: ParsedText;
  try {
    parsed = parseText(text, formatOf(url ? new URL(url).pathname : file), source);
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
  try {
    result = await validate(file);
  } catch (error) {
    throw new OpenApiError([oneLine(`${source}: ${shownError((error as Error).message)}`)]);
  }
  if (!result.valid) {
    const dereferenced = await dereference(file, { dereference: { circular: 'ignore' } }).catch(
      () => undefined,
    );
    const lineOf = (path: readonly Segment[]): number | undefined =>
      holds(raw, path) ? parsed.lineOf(path) : undefined;
    const lines = describeValidationErrors(
      result.errors.map((e) => shownError(e.message)),
      dereferenced,
      lineOf,
    ).map((line) => `${source}: ${line}`);
    if (result.additionalErrors > 0) lines.push(`${source}: and ${result.additionalErrors} more problems`);
    throw new OpenApiError(lines.length > 0 ? lines : [`${source}: invalid OpenAPI document`]);
  }
  let document: Json;
  try {
    document = (await dereference(file, { dereference: { circular: 'ignore' } })) as unknown as Json;
  } catch (error) {
    throw new OpenApiError([oneLine(`${source}: ${shownError((error as Error).message)}`)]);
  }
  return {
    document,
    version: specVersion(document),
    source,
    ...(url ? { url } : {}),
    warnings: result.warnings.map((w) => oneLine(`${source}: ${shownError(w.message)}`)),
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
