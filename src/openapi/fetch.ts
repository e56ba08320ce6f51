// Documents given by URL: fetched with a deadline and a size cap, with their relative $refs, into a temp folder.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { request } from 'undici';
import { formatOf, parseText, SyntaxProblems } from '../config/parse.js';
import { isObject } from '../core/shapes.js';

/** Limits of fetching one document and the files it refers to. */
export interface FetchLimits {
  timeoutMs: number;
  /** Bytes per file. */
  maxBytes: number;
  /** Files per document (the document and every file its $refs name). */
  maxFiles: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = {
  timeoutMs: 10_000,
  maxBytes: 10 * 1024 * 1024,
  maxFiles: 50,
};

/** Fetching failed: the message says which URL and why. */
export class FetchProblem extends Error {}

/** GETs one URL as text; throws FetchProblem on a transport error, a non-2xx answer or a too large body. */
export async function fetchText(url: string, limits: FetchLimits = DEFAULT_FETCH_LIMITS): Promise<string> {
  let response;
  try {
    response = await request(url, {
      method: 'GET',
      headers: { accept: 'application/json, application/yaml, text/yaml, */*;q=0.5' },
      signal: AbortSignal.timeout(limits.timeoutMs),
    });
  } catch (error) {
    const reason =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${limits.timeoutMs} ms`
        : (error as Error).message;
    throw new FetchProblem(`cannot fetch ${url}: ${reason}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let complete = false;
  try {
    if (response.statusCode < 200 || response.statusCode > 299) {
      throw new FetchProblem(`cannot fetch ${url}: it answered ${response.statusCode}, expected 200`);
    }
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > limits.maxBytes)
        throw new FetchProblem(`cannot fetch ${url}: larger than ${limits.maxBytes} bytes`);
      chunks.push(chunk as Buffer);
    }
    complete = true;
  } catch (error) {
    if (error instanceof FetchProblem) throw error;
    const reason =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${limits.timeoutMs} ms`
        : (error as Error).message;
    throw new FetchProblem(`cannot fetch ${url}: ${reason}`);
  } finally {
    // A body left unread is dropped (its abort is expected, not an error worth an event).
    if (!complete) {
      response.body.on('error', () => undefined);
      response.body.destroy();
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Fetches a document and, transitively, every same-origin file its relative `$ref`s name, into
 * a fresh temp folder that mirrors their URL paths; returns the local path of the document, so
 * the parser resolves the references as files. (The parser's own HTTP resolver refuses loopback
 * and private addresses, and its requests would have no size cap.)
 */
export async function mirrorDocument(
  url: string,
  limits: FetchLimits = DEFAULT_FETCH_LIMITS,
): Promise<{ dir: string; file: string; text: string }> {
  const root = new URL(url);
  const dir = await mkdtemp(join(tmpdir(), 'conformance-openapi-'));
  const local = (target: URL): string => {
    const path = decodeURIComponent(target.pathname);
    // Decoding may reveal "%2e%2e": never let a URL path leave the temp folder.
    if (path.split('/').some((segment) => segment === '..' || segment.includes('\\'))) {
      throw new FetchProblem(`${target.href}: unsafe path`);
    }
    return join(dir, 'files', path.endsWith('/') ? `${path}index` : path);
  };
  const seen = new Set<string>();
  const queue = [new URL(root.href.split('#')[0])];
  let mainText = '';
  while (queue.length > 0) {
    const target = queue.shift()!;
    if (seen.has(target.href)) continue;
    if (seen.size >= limits.maxFiles)
      throw new FetchProblem(`${url}: refers to more than ${limits.maxFiles} files`);
    seen.add(target.href);
    const file = local(target);
    const text = await fetchText(target.href, limits);
    if (seen.size === 1) mainText = text;
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
    let parsed: unknown;
    try {
      parsed = parseText(text, formatOf(target.pathname), target.href).value;
    } catch (error) {
      if (error instanceof SyntaxProblems && seen.size > 1) throw new FetchProblem(error.lines[0]);
      if (error instanceof SyntaxProblems) break; // the parser reports the document's own syntax errors
      throw error;
    }
    for (const ref of externalRefs(parsed)) {
      const next = new URL(ref, target);
      next.hash = '';
      if (next.origin !== root.origin) continue; // other origins are left to the parser
      queue.push(next);
    }
  }
  return { dir, file: local(new URL(root.href.split('#')[0])), text: mainText };
}

/** Every `$ref` value that names another file (not `#...`), relative or absolute. */
function externalRefs(node: unknown, out = new Set<string>(), depth = 0): Set<string> {
  if (depth > 200) return out;
  if (Array.isArray(node)) for (const item of node) externalRefs(item, out, depth + 1);
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) out.add(value.split('#')[0]);
      else externalRefs(value, out, depth + 1);
    }
  }
  return out;
}
