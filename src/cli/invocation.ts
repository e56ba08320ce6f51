// The CLI's own invocation, as a failure's "run this check again" command repeats it: the options that shape the audit.
import type { Invocation } from '../core/reproduce.js';
import { AUDIT_DEFAULTS } from './command-options.js';

/** What `run` and `demo` were given, as yargs parsed it (kebab-case keys). */
type Parsed = Record<string, unknown>;

/**
 * Options repeated by the re-run command, with their defaults (an option at its default is left
 * out; those with one are the CLI's own, AUDIT_DEFAULTS). Left out on purpose: what chooses checks and resources (--only, --skip, --resource,
 * --shard: the re-run names its own), what writes or shows reports (--reporter, --out, --quiet,
 * --verbose, --color: the re-run prints the console report and leaves the audit's files alone),
 * and --fail-on (the re-run sets it to fail the same way).
 */
const SHAPING: Record<'run' | 'demo', Array<[string, unknown]>> = {
  run: [
    ['config', undefined],
    ['base-url', undefined],
    ['openapi', undefined],
    ['openapi-allow-ref', undefined],
  ],
  demo: [
    ['break', undefined],
    ['rate-limit', undefined],
    ['rate-limit-headers', AUDIT_DEFAULTS['rate-limit-headers']],
  ],
};

/** Options of both commands that change what the audit sends or how it judges. */
const COMMON: Array<[string, unknown]> = [
  ['timeout', AUDIT_DEFAULTS.timeout],
  ['concurrency', AUDIT_DEFAULTS.concurrency],
  ['max-rps', undefined],
  ['read-only', AUDIT_DEFAULTS['read-only']],
  ['force', AUDIT_DEFAULTS.force],
  ['insecure', AUDIT_DEFAULTS.insecure],
];

/**
 * The invocation of `conformance <command>` with these parsed options: the words of every
 * audit-shaping option given a value other than its default, in a stable order. Values are
 * repeated as given (a relative --config path stays relative: the re-run is pasted where the
 * audit ran). No option of these carries a secret: tokens come from the environment.
 */
export function invocationOf(command: 'run' | 'demo', argv: Parsed): Invocation {
  const options: string[] = [];
  for (const [name, fallback] of [...SHAPING[command], ...COMMON]) {
    const value = argv[name];
    if (value === undefined || value === fallback) continue;
    // A list option is repeated once per value given (yargs gathers them again).
    if (Array.isArray(value)) for (const v of value) options.push(`--${name}`, String(v));
    else if (typeof value === 'boolean') options.push(value ? `--${name}` : `--no-${name}`);
    else options.push(`--${name}`, String(value));
  }
  // The demo's API stops with the demo: its scripts' default BASE_URL answers only under --serve.
  const gone = command === 'demo' && argv.serve !== true;
  return {
    command: ['conformance', command],
    options,
    ...(gone
      ? {
          baseUrlNote:
            "the demo's API stops when the demo ends: run the demo again with --serve and use the scripts that run writes",
        }
      : {}),
  };
}
