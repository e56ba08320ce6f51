// A document and every file its $refs name, read under the reference rules into memory, and served to the parser from there.
import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatOf, parseText, SyntaxProblems } from '../config/parse.js';
import { formatPath, type Segment } from '../config/problems.js';
import { readCappedFile, ReadProblem } from '../config/read-file.js';
import { isObject } from '../core/shapes.js';
import type { NetworkOptions } from '../http/dispatchers.js';
import { HttpClient } from '../http/client.js';
import type { CredentialPlacement, Secret } from '../core/types.js';

/** Limits of reading one document and the files it refers to. */
export interface FetchLimits {
  /** Deadline of each HTTP request (a fetched document and each file it names), in ms. */
  timeoutMs: number;
  /** Bytes per file. */
  maxBytes: number;
  /** Bytes of all the files together. */
  maxTotalBytes: number;
  /** Files per document (the document and every file its $refs name). */
  maxFiles: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = {
  timeoutMs: 10_000,
  maxBytes: 10 * 1024 * 1024,
  maxTotalBytes: 32 * 1024 * 1024,
  maxFiles: 50,
};

/** Reading failed or a `$ref` is not allowed: the message is one line naming the file or the `$ref`. */
export class SourceProblem extends Error {}

/** Where a document's `$ref`s may lead. */
export interface RefRules {
  /** Where a relative document path is looked up. */
  cwd: string;
  /** `--openapi-allow-ref`: folders a local document may also read (relative to `cwd`). */
  allowRefs: string[];
  /** TLS settings and proxy variables for a fetched document (as for the audit's own requests). */
  network?: NetworkOptions;
  /** The configured credential, sent only when the document is on its origin. */
  credentials?: DocumentCredentials;
}

/** The credential a fetched document may get: the run's own, for its base URL's origin only. */
export interface DocumentCredentials {
  /** The base URL's origin: a document anywhere else gets no credential. */
  origin: string;
  /** The credential value (a token, or Basic's base64), placed as `placement` says. */
  token: string;
  placement?: CredentialPlacement;
  /** Every secret to redact from messages. */
  secrets: Secret[];
  /** What the credential is, for messages (`auth.token`, `CONFORMANCE_TOKEN`). */
  shown: string;
}

/** The document and every file it refers to, as read. */
export interface DocumentSources {
  /** What the parser is given: the URL of a fetched document, the absolute path of a file. */
  root: string;
  /** The document's own text. */
  text: string;
  /** The document's URL, when it was fetched. */
  url?: string;
  /** Every file read (the document too), by `keyOf` of its URL or path. */
  files: Map<string, string>;
}

const ACCEPT = 'application/json, application/yaml, text/yaml, */*;q=0.5';

/**
 * Reads a document (a file, or an http(s) URL) and, transitively, every file its `$ref`s name.
 * A fetched document may refer only to http(s) URLs on its own origin, fetched through the one
 * HTTP client with the same deadline and size cap; a local document only to files under its own
 * folder or a folder of `allowRefs` (symbolic links followed before deciding). Anything else
 * throws SourceProblem naming the `$ref` and where it is: nothing it names is read.
 */
export async function readSources(
  source: string,
  rules: RefRules,
  limits: FetchLimits = DEFAULT_FETCH_LIMITS,
): Promise<DocumentSources> {
  const remote = /^https?:\/\//i.test(source);
  const root = remote ? withoutHash(new URL(source)) : resolve(rules.cwd, source);
  // The credential goes to the base URL's origin only (never to a document elsewhere); the
  // client sends nothing to another origin, nor follows a redirect there.
  const credentials =
    remote && rules.credentials?.origin === new URL(root).origin ? rules.credentials : undefined;
  const sending: Sending = { credentials, withheld: remote ? rules.credentials : undefined };
  const client = remote
    ? new HttpClient({
        baseUrl: new URL(root).origin,
        tokens: credentials ? { full: credentials.token } : {},
        ...(credentials?.placement ? { requests: { placement: credentials.placement } } : {}),
        secrets: credentials?.secrets ?? [],
        network: rules.network,
        timeoutMs: limits.timeoutMs,
        maxBodyBytes: limits.maxBytes,
        maxBufferedBytes: Math.max(limits.maxBytes, 16 * 1024 * 1024),
        userAgent: 'conformance (reading an OpenAPI document)',
      })
    : undefined;
  try {
    const allowed = remote ? [] : await allowedFolders(root, rules);
    const files = new Map<string, string>();
    // `via`: the `$ref` that named a file, for messages about reading it.
    const queue: Array<{ target: string; shown: string; via?: string }> = [{ target: root, shown: source }];
    let total = 0;
    while (queue.length > 0) {
      const { target, shown, via } = queue.shift()!;
      const key = keyOf(target);
      if (files.has(key)) continue;
      if (files.size >= limits.maxFiles)
        throw new SourceProblem(`${source}: refers to more than ${limits.maxFiles} files`);
      const text = client
        ? await fetchText(client, target, limits, sending)
        : await readLocal(
            target,
            via ?? shown,
            via ? `file it names (${shown})` : 'OpenAPI document',
            limits,
          );
      total += Buffer.byteLength(text);
      if (total > limits.maxTotalBytes)
        throw new SourceProblem(`${source}: its files hold more than ${limits.maxTotalBytes} bytes together`);
      files.set(key, text);
      let parsed: unknown;
      try {
        parsed = parseText(text, formatOf(remote ? new URL(target).pathname : target), shown).value;
      } catch (error) {
        // The document's own syntax errors are reported (with lines) by the loader; a referenced
        // file's here, naming it.
        if (error instanceof SyntaxProblems && files.size === 1) break;
        if (error instanceof SyntaxProblems) throw new SourceProblem(error.lines[0]);
        throw error;
      }
      for (const ref of externalRefs(parsed)) {
        const next = await allowedTarget(
          ref,
          target,
          remote ? new URL(root).origin : undefined,
          allowed,
          shown,
        );
        const via = `${shown}: ${formatPath(ref.path)}: ${JSON.stringify(ref.value)}`;
        queue.push({ target: next, shown: remote ? next : relativeShown(next, rules.cwd), via });
      }
    }
    return { root, text: files.get(keyOf(root)) ?? '', ...(remote ? { url: root } : {}), files };
  } finally {
    await client?.close();
  }
}

/**
 * The key a file is held under, for a URL or path as the parser spells it (`/a/b%20c.yaml`,
 * `file:///a/b.yaml`, `http://h/a.yaml#x`): the same file always gives the same key.
 */
export function keyOf(urlOrPath: string): string {
  if (/^https?:\/\//i.test(urlOrPath)) return withoutHash(new URL(urlOrPath));
  try {
    return fileURLToPath(new URL(urlOrPath.split('#')[0], 'file:///'));
  } catch {
    return urlOrPath;
  }
}

/**
 * A resolver for @readme/openapi-parser that serves only the files read by readSources: the
 * parser's own file and HTTP resolvers are never used, so it reads nothing the rules did not allow.
 */
export function parserResolveOptions(sources: DocumentSources): Record<string, unknown> {
  return {
    file: {
      order: 1,
      canRead: () => true,
      read: (file: { url: string }) => {
        const text = sources.files.get(keyOf(file.url));
        if (text === undefined) throw new Error(`${file.url}: not read (not allowed or not found)`);
        return text;
      },
    },
    http: { canRead: () => false },
  };
}

/** The folders a local document may read: its own, and each `--openapi-allow-ref` (real paths). */
async function allowedFolders(root: string, rules: RefRules): Promise<string[]> {
  const folders = [dirname(root), ...rules.allowRefs.map((dir) => resolve(rules.cwd, dir))];
  return Promise.all(
    folders.map(async (folder, index) => {
      try {
        return await realpath(folder);
      } catch {
        // Only a named --openapi-allow-ref can be missing (the document's folder was just read).
        throw new SourceProblem(`--openapi-allow-ref ${rules.allowRefs[index - 1]}: no such folder`);
      }
    }),
  );
}

/** Where a `$ref` leads, if the rules allow it; else SourceProblem naming it and where it is. */
async function allowedTarget(
  ref: { value: string; path: Segment[] },
  from: string,
  origin: string | undefined,
  allowed: string[],
  shown: string,
): Promise<string> {
  const refused = (why: string): SourceProblem =>
    new SourceProblem(
      `${shown}: ${formatPath(ref.path)}: ${JSON.stringify(ref.value)} is not allowed: ${why}`,
    );
  let url: URL;
  try {
    url = new URL(ref.value, origin ? from : pathToFileURL(from));
  } catch {
    throw refused('not a valid URL or path');
  }
  if (origin !== undefined) {
    if (url.origin !== origin || !/^https?:$/.test(url.protocol))
      throw refused(`a fetched document may refer only to http(s) URLs on its own origin (${origin})`);
    return withoutHash(url);
  }
  const rule = `a local document may refer only to files under its own folder${
    allowed.length > 1
      ? ' or a folder given with --openapi-allow-ref'
      : ' (--openapi-allow-ref <dir> allows more)'
  }`;
  if (url.protocol !== 'file:') throw refused(rule);
  let path: string;
  try {
    path = fileURLToPath(withoutHash(url));
  } catch {
    throw refused(rule);
  }
  // Judged where a symbolic link really leads; a file that is not there, by where it would be.
  const real = await realpath(path).catch(() => path);
  if (!allowed.some((folder) => inside(real, folder))) throw refused(rule);
  // The path as the parser spells it (it resolves $refs without following links).
  return path;
}

function inside(file: string, folder: string): boolean {
  const rel = relative(folder, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

async function readLocal(file: string, shown: string, noun: string, limits: FetchLimits): Promise<string> {
  try {
    return await readCappedFile(file, shown, noun, limits.maxBytes);
  } catch (error) {
    if (error instanceof ReadProblem) throw new SourceProblem(error.message);
    throw error;
  }
}

/** Whether a fetch carries the credential, and the one withheld (for the message of a 401/403). */
interface Sending {
  credentials?: DocumentCredentials;
  withheld?: DocumentCredentials;
}

/** GETs one document URL through the HTTP client; SourceProblem on no answer, a non-2xx or a body over the cap. */
async function fetchText(
  client: HttpClient,
  url: string,
  limits: FetchLimits,
  sending: Sending,
): Promise<string> {
  const exchange = await client.send({
    method: 'GET',
    path: url,
    auth: sending.credentials ? 'full' : 'none',
    headers: { accept: ACCEPT },
  });
  if (exchange.status === undefined)
    throw new SourceProblem(`cannot fetch ${url}: ${exchange.error?.message ?? 'no answer'}`);
  if (exchange.truncated)
    throw new SourceProblem(`cannot fetch ${url}: larger than ${limits.maxBytes} bytes`);
  if (exchange.status < 200 || exchange.status > 299) {
    const note = exchange.evidence.notes?.find((n) => n.startsWith('redirect'));
    const refused = exchange.status === 401 || exchange.status === 403;
    const why = !refused
      ? ''
      : sending.credentials
        ? `: ${sending.credentials.shown} was sent and refused`
        : sending.withheld
          ? `: no credentials were sent (${sending.withheld.shown} goes only to the base URL's origin, ${sending.withheld.origin})`
          : ': no credentials were sent (none configured, or no base URL to send them to: give --base-url or baseUrl)';
    throw new SourceProblem(
      `cannot fetch ${url}: it answered ${exchange.status}, expected 200${note ? ` (${note})` : ''}${why}`,
    );
  }
  return exchange.text;
}

/** Every `$ref` value that names another file (not `#...`), with where it is in the file. */
function externalRefs(
  node: unknown,
  path: Segment[] = [],
  out: Array<{ value: string; path: Segment[] }> = [],
): Array<{ value: string; path: Segment[] }> {
  if (path.length > 200) return out;
  if (Array.isArray(node)) node.forEach((item, index) => externalRefs(item, [...path, index], out));
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        if (!value.startsWith('#')) out.push({ value, path: [...path, key] });
      } else externalRefs(value, [...path, key], out);
    }
  }
  return out;
}

function withoutHash(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}

/** A file path as messages show it: relative to the working directory when under it. */
function relativeShown(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}
