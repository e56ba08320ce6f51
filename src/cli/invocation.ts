// The CLI's own invocation, as a failure's "run this check again" command repeats it: the options that shape the audit.
import type { Invocation } from '../core/reproduce.js';
import { AUDIT_DEFAULTS } from './command-options.js';

/** What `run` and `demo` were given, as yargs parsed it (kebab-case keys). */
type Parsed = Record<string, unknown>;

/**
 * Options repeated by the re-run command; one at its default (AUDIT_DEFAULTS, the CLI's own) is
 * left out, and so is one without a default that was not given. Left out on purpose: what chooses
 * checks and resources (--only, --skip, --resource, --shard: the re-run names its own), what
 * writes or shows reports (--reporter, --out, --quiet, --verbose, --color: the re-run prints the
 * console report and leaves the audit's files alone), and --fail-on (the re-run sets it to fail
 * the same way).
 */
const SHAPING: Record<'run' | 'demo', string[]> = {
  run: ['config', 'base-url', 'openapi', 'openapi-allow-ref'],
  demo: ['break', 'rate-limit', 'rate-limit-headers'],
};

/** Options of both commands that change what the audit sends or how it judges. */
const COMMON = ['timeout', 'concurrency', 'max-rps', 'read-only', 'force', 'insecure'];

/**
 * The invocation of `conformance <command>` with these parsed options: the words of every
 * audit-shaping option given a value other than its default, in a stable order. Values are
 * repeated as given (a relative --config path stays relative: the re-run is pasted where the
 * audit ran). No option of these carries a secret: tokens come from the environment.
 */
export function invocationOf(command: 'run' | 'demo', argv: Parsed): Invocation {
  const options: string[] = [];
  for (const name of [...SHAPING[command], ...COMMON]) {
    const value = argv[name];
    if (value === undefined || value === (AUDIT_DEFAULTS as Record<string, unknown>)[name]) continue;
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
