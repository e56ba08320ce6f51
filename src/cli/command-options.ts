// Option builders and constants of the commands whose code is loaded only when they run (fast --help).
import type { Argv } from 'yargs';

/** Reporters `merge` writes unless told otherwise: every format that a JSON report can feed. */
export const MERGE_REPORTERS = ['console', 'json', 'junit', 'html', 'markdown'];

export const INIT_DESCRIPTION =
  'Write a commented starter config from an OpenAPI document, or by reading a live API (GET and OPTIONS only)';

/** The `init` flags. */
export function initOptions<T>(y: Argv<T>) {
  return y
    .option('openapi', {
      type: 'string',
      describe: 'OpenAPI document (file or URL) to derive the config from',
    })
    .option('base-url', {
      type: 'string',
      describe: 'Base URL of the API: read it with --collections, or the baseUrl to write with --openapi',
    })
    .option('collections', {
      type: 'string',
      array: true,
      default: [] as string[],
      describe: 'Collections to read with GET (names or paths, comma-separated), with --base-url',
    })
    .option('out', { type: 'string', default: 'conformance.config.yaml', describe: 'File to write' })
    .option('print', {
      type: 'boolean',
      default: false,
      describe: 'Print the config instead of writing --out',
    })
    .option('force', { type: 'boolean', default: false, describe: 'Overwrite --out if it exists' })
    .option('timeout', { type: 'number', default: 10000, describe: 'Deadline of one request in ms' });
}
