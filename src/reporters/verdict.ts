// What fails the run under --fail-on, shared by the exit code and every report so they never disagree.
import type { CheckResult, RunResult, Severity } from '../core/types.js';

/**
 * True when the result fails the run under the `--fail-on` threshold: a failure of error
 * severity always does; a failure of warning severity only under `--fail-on warning`.
 */
export function failsRun(result: CheckResult, failOn: Severity = 'error'): boolean {
  return result.status === 'failed' && (result.severity === 'error' || failOn === 'warning');
}

/** True for a failed result of warning severity (CONVENTIONS: common practice, not mandatory). */
export function isWarning(result: CheckResult): boolean {
  return result.status === 'failed' && result.severity === 'warning';
}

/** The counts a reader sees, with failures and warnings apart. */
export interface Verdict {
  /** Failed results of error severity. */
  failed: number;
  /** Failed results of warning severity (JSON `summary.failed` counts these too). */
  warnings: number;
  /** True under `--fail-on warning`: the warnings fail the run as well. */
  warningsFail: boolean;
  /** How the run ends: `failed` (exit 1), `warning` (exit 0, with warnings), `passed`. */
  level: 'failed' | 'warning' | 'passed';
  /** True when the service gave no valid HTTP answer to any request: the run fails (exit 1). */
  noValidAnswer: boolean;
}

/** True when requests were sent and none got a valid HTTP answer (CONTRACT: never exit 0). */
export function gaveNoValidAnswer(run: RunResult): boolean {
  return run.summary.answered === 0 && run.summary.requests > 0;
}

/** Counts a run's failures and warnings and judges it as the exit code does (default `--fail-on error`). */
export function verdictOf(run: RunResult, failOn: Severity = 'error'): Verdict {
  const warnings = run.results.filter(isWarning).length;
  const failed = run.results.filter((r) => r.status === 'failed').length - warnings;
  const warningsFail = failOn === 'warning';
  const noValidAnswer = gaveNoValidAnswer(run);
  const failing = failed > 0 || (warningsFail && warnings > 0) || noValidAnswer;
  return {
    failed,
    warnings,
    warningsFail,
    level: failing ? 'failed' : warnings > 0 ? 'warning' : 'passed',
    noValidAnswer,
  };
}
