// Text -> plain data: YAML (eemeli/yaml) or JSON, with syntax errors reported as file:line:col.
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import { findJsonError, lineCol } from './json-error.js';
import { oneLine, type Segment } from './problems.js';

export type ConfigFormat = 'yaml' | 'json';

/** Parsed data, plus a way to find the line of a path for messages (undefined when unknown). */
export interface ParsedText {
  value: unknown;
  lineOf: (path: readonly Segment[]) => number | undefined;
}

/** Parse failed: one line per syntax error, already prefixed with `source:line:col`. */
export class SyntaxProblems extends Error {
  readonly lines: string[];
  constructor(lines: string[]) {
    super(oneLine(lines[0]));
    this.lines = lines.map(oneLine);
  }
}

/** The format implied by a file name: `.json` is JSON, anything else YAML. */
export function formatOf(file: string): ConfigFormat {
  return /\.json$/i.test(file) ? 'json' : 'yaml';
}

/** Parses config text. Throws SyntaxProblems (never anything else) when it does not parse. */
export function parseText(text: string, format: ConfigFormat, source: string): ParsedText {
  const clean = text.replace(/^\uFEFF/, '');
  try {
    return format === 'json' ? parseJson(clean, source) : parseYaml(clean, source);
  } catch (error) {
    if (error instanceof SyntaxProblems) throw error;
    // The parsers' own limits (e.g. the stack on absurd nesting): still a plain message.
    throw new SyntaxProblems([
      `${source}: cannot parse: ${plainMessage((error as Error)?.message ?? String(error))}`,
    ]);
  }
}

/** A parser's message, with the engine's stack overflow said in the user's terms. */
function plainMessage(message: string): string {
  return /call stack/i.test(message) ? 'nested too deeply to parse' : message;
}

function parseJson(text: string, source: string): ParsedText {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const found = findJsonError(text);
    if (found) {
      const { line, col } = lineCol(text, found.offset);
      throw new SyntaxProblems([`${source}:${line}:${col}: invalid JSON: ${found.message}`]);
    }
    throw new SyntaxProblems([`${source}: invalid JSON: ${(error as Error).message}`]);
  }
  // JSON is YAML: reuse the YAML tree only to find lines for messages.
  let located: ParsedText['lineOf'] | undefined;
  return {
    value,
    lineOf: (path) => {
      located ??= yamlLocator(text);
      return located(path);
    },
  };
}

function parseYaml(text: string, source: string): ParsedText {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, merge: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    // Later errors are mostly echoes of the first: show a few.
    const lines = doc.errors.slice(0, 3).map((error) => {
      const { line, col } = lineCounter.linePos(error.pos[0]);
      return `${source}:${line}:${col}: ${plainMessage(error.message)}`;
    });
    const lineTexts = text.split('\n');
    const inFlow = doc.errors.some((error) => {
      const lineText = lineTexts[lineCounter.linePos(error.pos[0]).line - 1] ?? '';
      return /[{[][^'"]*\$\{/.test(lineText);
    });
    if (inFlow) {
      lines.push(`${source}: hint: inside { } or [ ], quote values that use variables: '\${NAME}'`);
    }
    throw new SyntaxProblems([...new Set(lines)]);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 1000 });
  } catch (error) {
    throw new SyntaxProblems([`${source}: ${(error as Error).message}`]);
  }
  return { value, lineOf: (path) => lineInDoc(doc, lineCounter, path) };
}

function yamlLocator(text: string): ParsedText['lineOf'] {
  try {
    const lineCounter = new LineCounter();
    const doc = parseDocument(text, { lineCounter, prettyErrors: false });
    if (doc.errors.length > 0) return () => undefined;
    return (path) => lineInDoc(doc, lineCounter, path);
  } catch {
    return () => undefined;
  }
}

/**
 * Line of the deepest node along `path` (the key's line for a mapping entry); undefined when
 * not even the first step exists (e.g. a missing top-level key: no line to point at).
 */
function lineInDoc(doc: Document, lineCounter: LineCounter, path: readonly Segment[]): number | undefined {
  try {
    let node: unknown = doc.contents;
    let offset: number | undefined;
    for (const segment of path) {
      if (isMap(node)) {
        const pair = node.items.find(
          (item) => String(isScalar(item.key) ? item.key.value : item.key) === String(segment),
        );
        if (!pair) break;
        offset = rangeStart(pair.key) ?? offset;
        node = pair.value;
      } else if (isSeq(node) && typeof segment === 'number') {
        node = node.items[segment];
        offset = rangeStart(node) ?? offset;
      } else break;
      if (isAlias(node)) break;
    }
    return offset === undefined ? undefined : lineCounter.linePos(offset).line;
  } catch {
    return undefined;
  }
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] } | null)?.range;
  return range ? range[0] : undefined;
}
