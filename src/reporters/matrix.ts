// The rule × resource matrix shared by the HTML and Markdown reports: one cell per rule and resource.
import type { CheckResult } from '../core/types.js';
import { RULES } from '../core/rules.js';

/** What a reader sees in a cell: a failed warning is told apart from a failed error. */
export type Outcome = 'failed' | 'errored' | 'warning' | 'waived' | 'passed' | 'skipped';

/** Worst first: a cell shows the worst outcome of the results in it. */
export const OUTCOMES: readonly Outcome[] = ['failed', 'errored', 'warning', 'waived', 'passed', 'skipped'];

/** Column key of API-wide results (they have no resource). Not a valid resource name in a config. */
export const API_WIDE = '';

/** Heading of the API-wide column. */
export const API_WIDE_LABEL = 'API-wide';

/** The outcome of one result. */
export function outcomeOf(result: CheckResult): Outcome {
  if (result.status === 'failed') return result.severity === 'warning' ? 'warning' : 'failed';
  return result.status;
}

/** The worst of some outcomes ('skipped' for none). */
export function worstOutcome(outcomes: Iterable<Outcome>): Outcome {
  let worst = OUTCOMES.length - 1;
  for (const o of outcomes) worst = Math.min(worst, OUTCOMES.indexOf(o));
  return OUTCOMES[worst];
}

export interface MatrixCell {
  /** Results that name this rule on this resource, in report order. */
  results: CheckResult[];
  outcome: Outcome;
}

export interface MatrixColumn {
  /** Resource name, or API_WIDE. */
  key: string;
  label: string;
}

export interface Matrix {
  /** Rule ids in the order of CONVENTIONS.md (unknown ids last, sorted). */
  rules: string[];
  /** Resources in order of first appearance, then the API-wide column when there are API-wide results. */
  columns: MatrixColumn[];
  /** The cell of a rule and column key; undefined when no check of that rule ran there. */
  cell(rule: string, column: string): MatrixCell | undefined;
}

const RULE_ORDER = new Map(RULES.map((r, i) => [r.id, i]));

/** Rule ids in the order of CONVENTIONS.md (unknown ids last, alphabetically). */
export function compareRules(a: string, b: string): number {
  const ia = RULE_ORDER.get(a) ?? Number.MAX_SAFE_INTEGER;
  const ib = RULE_ORDER.get(b) ?? Number.MAX_SAFE_INTEGER;
  return ia - ib || a.localeCompare(b);
}

/** Builds the matrix: a result with several rules appears in each of their rows. */
export function buildMatrix(results: readonly CheckResult[]): Matrix {
  const cells = new Map<string, MatrixCell>();
  const rules = new Set<string>();
  const resources: string[] = [];
  let apiWide = false;
  for (const result of results) {
    const column = result.resource ?? API_WIDE;
    if (column === API_WIDE) apiWide = true;
    else if (!resources.includes(column)) resources.push(column);
    for (const rule of result.rules) {
      rules.add(rule);
      const key = `${rule}\u0000${column}`;
      const cell = cells.get(key) ?? { results: [], outcome: 'skipped' };
      cell.results.push(result);
      cell.outcome = worstOutcome(cell.results.map(outcomeOf));
      cells.set(key, cell);
    }
  }
  const columns: MatrixColumn[] = resources.map((r) => ({ key: r, label: r }));
  if (apiWide) columns.push({ key: API_WIDE, label: API_WIDE_LABEL });
  return {
    rules: [...rules].sort(compareRules),
    columns,
    cell: (rule, column) => cells.get(`${rule}\u0000${column}`),
  };
}

/** Counts of each outcome in a cell, worst first, e.g. `[['failed', 1], ['passed', 2]]`. */
export function outcomeCounts(cell: MatrixCell): Array<[Outcome, number]> {
  const counts = new Map<Outcome, number>();
  for (const r of cell.results) counts.set(outcomeOf(r), (counts.get(outcomeOf(r)) ?? 0) + 1);
  return OUTCOMES.filter((o) => counts.has(o)).map((o) => [o, counts.get(o)!]);
}
