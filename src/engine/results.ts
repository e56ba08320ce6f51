// Building result records shared by active and observer checks: the base record, the problem list, the message.
import type { Check } from '../core/check.js';
import type { CheckResult } from '../core/types.js';

/**
 * Distinct problems a result keeps (CheckResult.problems): enough for any real audit, bounded so a
 * service that fails every one of 100,000 requests differently cannot exhaust memory or bloat the
 * report. Past it, `problemsDropped` counts what was left out.
 */
export const PROBLEM_CAP = 1000;

/** Problems numbered in `message`: a report line stays readable; the `problems` list has them all. */
const SHOWN_IN_MESSAGE = 5;

export function baseResult(check: Check, resource: string | undefined): CheckResult {
  return {
    checkId: check.id,
    rules: check.rules,
    suite: check.suite,
    ...(resource !== undefined ? { resource } : {}),
    title: check.title,
    status: 'passed',
    severity: check.severity,
    evidence: [],
    durationMs: 0,
  };
}

/**
 * The message id of a problem the check did not report itself: it threw while judging (observers
 * report that as a failed problem). No check declares it, so no test can expect it.
 */
export const CHECK_BROKE = 'checkBroke';

/**
 * Collects distinct problem texts in order of arrival, keeping the first PROBLEM_CAP and counting
 * the rest; `ids` holds the message id of each kept problem (the first one given for its text).
 */
export class ProblemList {
  private readonly seen = new Set<string>();
  readonly kept: string[] = [];
  readonly ids: string[] = [];
  /** Distinct problems past the cap (not kept, so repeats of them cannot be told apart: each counts). */
  dropped = 0;

  constructor(private readonly cap = PROBLEM_CAP) {}

  add(message: string, messageId: string): void {
    if (this.seen.has(message)) return;
    if (this.kept.length >= this.cap) {
      this.dropped++;
      return;
    }
    this.seen.add(message);
    this.kept.push(message);
    this.ids.push(messageId);
  }

  get total(): number {
    return this.kept.length + this.dropped;
  }

  /** The result fields: `problems` with their `problemIds`, and `problemsDropped` when some were left out. */
  fields(): Pick<CheckResult, 'problems' | 'problemIds' | 'problemsDropped'> {
    return {
      problems: [...this.kept],
      problemIds: [...this.ids],
      ...(this.dropped > 0 ? { problemsDropped: this.dropped } : {}),
    };
  }
}

/** The problems of these failures (distinct by message, capped). */
export function problemList(
  failures: Iterable<{ message: string; messageId: string }>,
  cap = PROBLEM_CAP,
): ProblemList {
  const list = new ProblemList(cap);
  for (const f of failures) list.add(f.message, f.messageId);
  return list;
}

/**
 * One message, or the first few numbered and how many more there are (a report line stays
 * readable; every one is in the result's `problems`). `total` counts problems not kept as well.
 */
export function joinMessages(messages: string[], total?: number): string {
  const unique = [...new Set(messages)];
  const count = Math.max(total ?? 0, unique.length);
  if (count === 1) return unique[0];
  const shown = unique.slice(0, SHOWN_IN_MESSAGE).map((m, i) => `(${i + 1}) ${m}`);
  if (count > shown.length) shown.push(`… and ${count - shown.length} more`);
  return `${count} problems: ${shown.join('; ')}`;
}
