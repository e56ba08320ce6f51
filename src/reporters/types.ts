// The reporter interface: a pure function of a RunResult that returns the text of one report.
import type { RunResult } from '../core/types.js';

/** How a report is rendered. Files ignore `color`; `quiet`/`verbose` shape the console. */
export interface ReporterOptions {
  /** ANSI colours (console only). */
  color: boolean;
  /** Console: only failures, errors and the summary line. */
  quiet?: boolean;
  /** Console: list every skipped (and passed) result instead of counts. */
  verbose?: boolean;
}

/** A named report format. With `fileName` the CLI writes the text to `<out>/<fileName>`; without, to stdout. */
export interface Reporter {
  name: string;
  fileName?: string;
  render(result: RunResult, options: ReporterOptions): string;
}
