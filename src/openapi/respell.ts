// OpenAPI 3.0 documents that write exclusive bounds the 3.1 way (FastAPI before 0.99): read as the 3.0 spelling of the same bound.
import { isObject } from '../core/shapes.js';
import { formatOf, parseText } from '../config/parse.js';
import type { DocumentSources } from './sources.js';

/** The 3.1 keyword (a number) and the 3.0 bound it becomes with `true` beside it. */
const BOUNDS = [
  { exclusive: 'exclusiveMinimum', bound: 'minimum', stricter: (a: number, b: number) => a >= b },
  { exclusive: 'exclusiveMaximum', bound: 'maximum', stricter: (a: number, b: number) => a <= b },
] as const;

/** Keywords whose values are data (an example payload may have a member named exclusiveMinimum). */
const DATA_KEYWORDS = new Set(['example', 'examples', 'default', 'enum', 'const', 'x-examples']);

/**
 * The files of a 3.0 document with every numeric `exclusiveMinimum`/`exclusiveMaximum` (OpenAPI
 * 3.1 and JSON Schema 2019's spelling, which FastAPI before 0.99 writes into the 3.0 documents it
 * serves for `gt`/`lt`) written the 3.0 way: `minimum: N, exclusiveMinimum: true` (an inclusive
 * `minimum` that is stricter stays alone). The same constraint, so a document invalid only for
 * that spelling can be audited. Undefined when no file has one (or one does not parse: the
 * validation errors then stand as they are). Each respelled file is served as JSON (YAML reads it).
 */
export function respellExclusiveBounds(
  sources: DocumentSources,
): { sources: DocumentSources; count: number } | undefined {
  const files = new Map(sources.files);
  let count = 0;
  for (const [key, text] of sources.files) {
    let value: unknown;
    try {
      value = parseText(text, formatOf(key), key).value;
    } catch {
      return undefined;
    }
    const changed = respell(value);
    if (changed === 0) continue;
    count += changed;
    files.set(key, JSON.stringify(value));
  }
  if (count === 0) return undefined;
  return { sources: { ...sources, files }, count };
}

/** Respells the bounds of every object under `node`, in place; answers how many. */
function respell(node: unknown): number {
  let count = 0;
  const stack: unknown[] = [node];
  while (stack.length > 0) {
    const current = stack.pop();
    if (Array.isArray(current)) {
      for (const item of current) stack.push(item);
      continue;
    }
    if (!isObject(current)) continue;
    for (const { exclusive, bound, stricter } of BOUNDS) {
      const limit = current[exclusive];
      if (typeof limit !== 'number') continue;
      const inclusive = current[bound];
      if (typeof inclusive === 'number' && !stricter(limit, inclusive)) {
        delete current[exclusive];
      } else {
        current[bound] = limit;
        current[exclusive] = true;
      }
      count++;
    }
    // Examples and values are data, not schemas: a member of theirs may bear any name.
    for (const [key, value] of Object.entries(current)) if (!DATA_KEYWORDS.has(key)) stack.push(value);
  }
  return count;
}
