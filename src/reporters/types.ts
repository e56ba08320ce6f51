// The reporter interface: a pure function of a RunResult that returns the text of one report.
import type { RunResult, Severity } from '../core/types.js';
import type { ExchangeLog } from './har.js';

/** How a report is rendered. Files ignore `color`; `quiet`/`verbose` shape the console. */
export interface ReporterOptions {
  /** ANSI colours (console only). */
  color: boolean;
  /** Console: only failures, errors and the summary line. */
  quiet?: boolean;
  /** Console: list every passed and skipped result, and print messages in full. */
  verbose?: boolean;
  /**
   * The `--fail-on` threshold (default 'error'): a failed warning below it is reported as a
   * warning that does not fail the run, as the exit code treats it.
   */
  failOn?: Severity;
  /**
   * Where this run's report files go, by reporter name (e.g. `{ json: 'reports/conformance.json' }`),
   * so the console can say where a message it cut is in full. Absent: not known.
   */
  reportFiles?: Record<string, string>;
  /** HAR: the exchanges the CLI recorded during the run (absent: an empty log). */
  exchanges?: ExchangeLog;
}

/** A named report format. With `fileName` the CLI writes the text to `<out>/<fileName>`; without, to stdout. */
export interface Reporter {
  name: string;
  fileName?: string;
  /** Also appended to the file named by `$GITHUB_STEP_SUMMARY`, when that variable is set. */
  stepSummary?: boolean;
  /** Needs the exchanges of the run (ReporterOptions.exchanges): the CLI records them only for these. */
  needsExchanges?: boolean;
  render(result: RunResult, options: ReporterOptions): string;
  /**
   * Reporters that write several files (repro: one script per failure): each path is relative
   * to --out; the CLI writes them instead of `render`'s text.
   */
  files?(result: RunResult, options: ReporterOptions): Array<{ path: string; text: string; mode?: number }>;
}
