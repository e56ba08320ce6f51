// The reporter registry: every report format by name. Adding one is one entry in REPORTERS.
import { ConformanceError } from '../core/errors.js';
import { consoleReporter } from './console.js';
import { harReporter } from './har.js';
import { htmlReporter } from './html.js';
import { jsonReporter } from './json.js';
import { junitReporter } from './junit.js';
import { markdownReporter } from './markdown.js';
import { reproReporter } from './repro.js';
import type { Reporter } from './types.js';

export type { Reporter, ReporterOptions } from './types.js';
export { formatResultLine, progressLine, summaryLine } from './console.js';
export { ExchangeLog } from './har.js';

const REPORTERS: Reporter[] = [
  consoleReporter,
  jsonReporter,
  junitReporter,
  htmlReporter,
  markdownReporter,
  harReporter,
  reproReporter,
];

/** Every reporter keyed by its name ('console', 'json', 'junit', 'html', 'markdown', 'har', 'repro'). */
export const reporters: Record<string, Reporter> = Object.fromEntries(REPORTERS.map((r) => [r.name, r]));

/** The reporters named (e.g. from `--reporter json,junit`), in order; an unknown name is an E_ARGS error. */
export function resolveReporters(names: string[]): Reporter[] {
  const unknown = names.filter((n) => !Object.hasOwn(reporters, n));
  if (unknown.length > 0) {
    const known = Object.keys(reporters).join(', ');
    throw new ConformanceError(
      'E_ARGS',
      `unknown reporter ${unknown.map((n) => `"${n}"`).join(', ')} (known: ${known})`,
    );
  }
  return [...new Set(names)].map((n) => reporters[n]);
}
