// The parser's validation errors (code frames of a JSON rendering) -> one line each, with a path and a line.
import { isObject } from '../core/shapes.js';
import { formatPath, oneLine, type Segment } from '../config/problems.js';

/**
 * One readable line per validation error. The parser frames each error in JSON.stringify(doc,
 * null, 2) of the dereferenced document, which is not the user's file: the framed line is
 * mapped back to a path in the document, and `lineOf` gives that path's line in the user's file
 * when the path is in it.
 */
export function describeValidationErrors(
  messages: string[],
  dereferenced: unknown,
  lineOf: (path: readonly Segment[]) => number | undefined,
): string[] {
  const lines = dereferenced === undefined ? [] : renderedLines(dereferenced);
  return messages.map((message) => {
    const text = message.split('\n');
    const what = text[0].replace(/^[A-Z][A-Z ]*[A-Z] (?=\S)/, '').trim();
    const marker = text.findIndex((line) => /^>\s*\d+\s*\|/.test(line));
    if (marker < 0) return oneLine(what);
    const lineNo = Number(/^>\s*(\d+)/.exec(text[marker])![1]);
    const framed = text[marker].replace(/^>\s*\d+\s*\|/, '');
    const hint = text[marker + 1]
      ?.replace(/^\s*\|\s*/, '')
      .replace(/^[\s^]+/, '')
      .replace(/!$/, '')
      .trim();
    const entry = lines[lineNo - 1];
    const path = entry && entry.text.trim() === framed.trim() ? entry.path : undefined;
    let detail = what;
    let at = path;
    const extra = /^(\S+) is not expected to be here$/.exec(hint ?? '');
    if (extra) {
      detail = `unknown key "${extra[1]}"`;
      // The frame points at the key itself: name the object that holds it.
      if (at && at[at.length - 1] === extra[1]) at = at.slice(0, -1);
    } else if (hint && !/is missing here$/.test(hint) && !hint.endsWith(what) && !what.includes(hint)) {
      detail = `${what} (${hint})`;
    }
    if (path === undefined || at === undefined) return oneLine(`${detail}: near ${framed.trim()}`);
    const line = lineOf(path);
    const where = formatPath(at) || '(top level)';
    return oneLine(`${where}: ${detail}${line ? ` (line ${line})` : ''}`);
  });
}

/** JSON.stringify(value, null, 2) line by line, each with the path of the value it starts. */
export function renderedLines(value: unknown): Array<{ text: string; path: Segment[] }> {
  const out: Array<{ text: string; path: Segment[] }> = [];
  const walk = (node: unknown, path: Segment[], indent: string, prefix: string, suffix: string): void => {
    const json = (v: unknown): string => JSON.stringify(v) ?? 'null';
    if (Array.isArray(node) && node.length > 0) {
      out.push({ text: `${indent}${prefix}[`, path });
      node.forEach((item, index) =>
        walk(
          item === undefined ? null : item,
          [...path, index],
          `${indent}  `,
          '',
          index < node.length - 1 ? ',' : '',
        ),
      );
      out.push({ text: `${indent}]${suffix}`, path });
    } else if (isObject(node) && typeof node.toJSON !== 'function') {
      const entries = Object.entries(node).filter(([, v]) => v !== undefined && typeof v !== 'function');
      if (entries.length === 0) {
        out.push({ text: `${indent}${prefix}{}${suffix}`, path });
        return;
      }
      out.push({ text: `${indent}${prefix}{`, path });
      entries.forEach(([key, item], index) =>
        walk(item, [...path, key], `${indent}  `, `${json(key)}: `, index < entries.length - 1 ? ',' : ''),
      );
      out.push({ text: `${indent}}${suffix}`, path });
    } else {
      out.push({ text: `${indent}${prefix}${Array.isArray(node) ? '[]' : json(node)}${suffix}`, path });
    }
  };
  walk(value, [], '', '', '');
  return out;
}
