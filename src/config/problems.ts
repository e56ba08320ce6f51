// Config problems: a location in the file (path segments) plus a message, rendered one per line.

/** One step of a path into the config: an object key or an array index. */
export type Segment = string | number;

/** What went wrong and where. `env`: an unset variable (the ConfigError code depends on it). */
export interface Problem {
  path: Segment[];
  message: string;
  kind?: 'env' | 'config';
  /** Where to look for the line number, when not `path` (an unknown key: the key itself). */
  locate?: Segment[];
  /** Shown instead of the file name, for problems that are not in the file (e.g. `--base-url`). */
  source?: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** `['resources', 0, 'operations', 2]` -> `resources[0].operations[2]`; odd keys are quoted. */
export function formatPath(path: readonly Segment[]): string {
  let out = '';
  // Only absurdly deep data has long paths: its start says where it is.
  for (const segment of path.slice(0, 12)) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return path.length > 12 ? `${out}...` : out;
}

/** A key identifying a path, for maps and sets (not for display). */
export function pathKey(path: readonly Segment[]): string {
  return JSON.stringify(path);
}

/** A short description of a value for "(got ...)": JSON for scalars, the kind for containers. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Renders problems as `<source>: <path>: <message> (line N)`, without duplicates. */
export function renderProblems(
  source: string,
  problems: readonly Problem[],
  lineOf: (path: readonly Segment[]) => number | undefined = () => undefined,
): string[] {
  const located = problems.map((problem, index) => ({
    problem,
    index,
    line: problem.source === undefined ? lineOf(problem.locate ?? problem.path) : undefined,
  }));
  // In file order; problems without a line (e.g. a missing top-level key) first.
  located.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || a.index - b.index);
  const lines = new Set<string>();
  for (const { problem, line } of located) {
    const where = formatPath(problem.path);
    const from = problem.source ?? source;
    const prefix = from === '' ? '' : `${from}: `;
    lines.add(
      oneLine(
        `${prefix}${where === '' ? '' : `${where}: `}${problem.message}${line ? ` (line ${line})` : ''}`,
      ),
    );
  }
  return [...lines];
}

/** Problems are shown one per line: folds any line break (e.g. from a parser's message). */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}
