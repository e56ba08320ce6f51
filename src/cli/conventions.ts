// The conventions text shipped in docs/: the rule table of CONVENTIONS.md and the source document it cites (§N), for `explain`.
import { readFileSync } from 'node:fs';
import { packagePath } from '../core/paths.js';

/** The rules as testable statements, one table row per rule id (shipped with the package). */
export const CONVENTIONS_FILE = 'docs/CONVENTIONS.md';
/** The source document CONVENTIONS.md cites as §N (shipped with the package). */
export const SOURCE_FILE = 'docs/seeds/000_c7e85f6f03e0aa52.txt';

/** One rule's row of CONVENTIONS.md: the rule, how it is probed, when it fails. */
export interface ConventionsRow {
  rule: string;
  probe: string;
  failsWhen: string;
}

/** A passage of the source document: its section heading and the lines quoted from it. */
export interface Passage {
  section: string;
  lines: string[];
}

const cache = new Map<string, string>();
/** A shipped docs file (read once). */
export function docsText(file: string): string {
  let text = cache.get(file);
  if (text === undefined) {
    text = readFileSync(packagePath(...file.split('/')), 'utf8');
    cache.set(file, text);
  }
  return text;
}

/** Markdown emphasis and code marks dropped: the text reads plainly on a terminal. */
function plain(cell: string): string {
  return cell
    .replace(/`/g, '')
    .replace(/\*([^*]+)\*/g, '$1')
    .trim();
}

/** Every `| RULE-ID | rule | how it is probed | fails when |` row of CONVENTIONS.md, by rule id. */
export function conventionsRows(text = docsText(CONVENTIONS_FILE)): Map<string, ConventionsRow> {
  const rows = new Map<string, ConventionsRow>();
  for (const line of text.split('\n')) {
    const m = /^\| ([A-Z]+-[A-Z0-9-]+) \|(.*)\|\s*$/.exec(line);
    if (!m) continue;
    const cells = m[2].split(' | ').map(plain);
    if (cells.length !== 3) continue;
    rows.set(m[1], { rule: cells[0], probe: cells[1], failsWhen: cells[2] });
  }
  return rows;
}

/**
 * The whole lines of the source document that contain each snippet, grouped by section (`## 5.
 * Authentication` -> `§5 Authentication`); a quoted table row comes with its table's header row.
 * A snippet found nowhere is left out (a test proves that none is).
 */
export function sourcePassages(snippets: readonly string[], text = docsText(SOURCE_FILE)): Passage[] {
  const lines = text.split('\n');
  const found = new Map<string, Set<number>>();
  for (const snippet of snippets) {
    const index = lines.findIndex((line) => line.includes(snippet));
    if (index < 0) continue;
    let section = 'the source document';
    for (let i = index; i >= 0; i--) {
      const heading = /^## (\d+)\.\s*(.*)$/.exec(lines[i]);
      if (heading) {
        section = `§${heading[1]} ${heading[2]}`;
        break;
      }
    }
    const quoted = found.get(section) ?? new Set<number>();
    found.set(section, quoted);
    if (lines[index].startsWith('|')) {
      let top = index;
      while (top > 0 && lines[top - 1].startsWith('|')) top--;
      quoted.add(top);
    }
    quoted.add(index);
  }
  // In the document's order, whatever the order of the snippets.
  return [...found].map(([section, indices]) => ({
    section,
    lines: [...indices].sort((a, b) => a - b).map((i) => lines[i]),
  }));
}
