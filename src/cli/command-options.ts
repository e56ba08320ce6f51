// Option builders and constants of the commands (cheap to load: `--help` and `list` stay fast).
import type { Argv } from 'yargs';

/** Reporters `merge` writes unless told otherwise: every format that a JSON report can feed. */
export const MERGE_REPORTERS = ['console', 'json', 'junit', 'html', 'markdown'];

export const INIT_DESCRIPTION =
  'Write a commented starter config from an OpenAPI document, or by reading a live API (GET and OPTIONS only)';

const QUIET_HELP = 'Console: only failures, warnings, errors and the summary line; no progress lines';
const VERBOSE_HELP =
  'Console: also list every passed and skipped check, and print messages in full (not with --quiet)';

const ALLOW_REF_HELP =
  "Folder a local OpenAPI document's $refs may also read (repeatable); by default only files under the document's own folder. A fetched document may refer only to URLs on its own origin";

/** `--openapi-allow-ref`, taken by every command that reads an OpenAPI document. */
export function allowRefOption<T>(y: Argv<T>) {
  return y.option('openapi-allow-ref', {
    type: 'string',
    array: true,
    default: [] as string[],
    describe: ALLOW_REF_HELP,
  });
}

/** The `init` flags. */
export function initOptions<T>(y: Argv<T>) {
  return allowRefOption(y)
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
    .option('insecure', {
      type: 'boolean',
      default: false,
      describe: 'Accept any TLS certificate while discovering and probing (no verification)',
    })
    .option('timeout', {
      type: 'number',
      default: AUDIT_DEFAULTS.timeout,
      describe: 'Deadline of one request in ms',
    });
}

/** The flags of every command that writes reports (`run`, `demo`, `merge`). */
export function reportOptions<T>(y: Argv<T>, reporters: string, reporterHelp: string) {
  return y
    .option('reporter', { type: 'string', array: true, default: [reporters], describe: reporterHelp })
    .option('out', { type: 'string', default: 'reports', describe: 'Directory for report files' })
    .option('fail-on', {
      choices: ['error', 'warning'] as const,
      default: 'error' as const,
      describe: 'Lowest severity that fails the run',
    })
    .option('color', {
      type: 'boolean',
      describe: 'Colour console output (--no-color turns it off; NO_COLOR is honoured)',
    })
    .option('quiet', { type: 'boolean', default: false, describe: QUIET_HELP })
    .option('verbose', { type: 'boolean', default: false, describe: VERBOSE_HELP });
}

/** The flags of `merge`. */
export function mergeOptions<T>(y: Argv<T>) {
  return reportOptions(
    y.positional('reports', {
      type: 'string',
      array: true,
      demandOption: true,
      describe: 'conformance.json of every shard',
    }),
    MERGE_REPORTERS.join(','),
    'Reporters, comma-separated: console, json, junit, html, markdown, repro',
  );
}

/**
 * Defaults of the options that shape an audit, one table for their definitions below and for the
 * re-run command (cli/invocation.ts), which leaves out an option at its default: a default changed
 * here changes both.
 */
export const AUDIT_DEFAULTS = {
  concurrency: 8,
  timeout: 10000,
  'read-only': false,
  force: false,
  insecure: false,
  'rate-limit-headers': true,
} as const;

/** The flags of an audit (`run` and `demo`). */
export function runOptions<T>(y: Argv<T>) {
  return reportOptions(
    y,
    'console,json,junit',
    'Reporters, comma-separated: console, json, junit, html, markdown, har, repro (scripts that replay each failure)',
  )
    .option('only', {
      type: 'string',
      array: true,
      default: [] as string[],
      describe: 'Run only these checks or rules (ids, suites, * wildcards)',
    })
    .option('resource', {
      type: 'string',
      array: true,
      default: [] as string[],
      describe: 'Audit only these resources of the config (names; a nested one keeps its parents)',
    })
    .option('skip', {
      type: 'string',
      array: true,
      default: [] as string[],
      describe: 'Skip these checks or rules',
    })
    .option('concurrency', {
      type: 'number',
      default: AUDIT_DEFAULTS.concurrency,
      describe:
        'Checks run at once, and requests they have in flight (a check alone sends up to that many), 1 to 1000; one resource is never probed by two checks at once',
    })
    .option('timeout', {
      type: 'number',
      default: AUDIT_DEFAULTS.timeout,
      describe: 'Deadline of one request in ms (headers and body), at most 2147483647',
    })
    .option('read-only', {
      type: 'boolean',
      default: AUDIT_DEFAULTS['read-only'],
      describe: 'Send only requests that cannot change state; skip the rest',
    })
    .option('force', {
      type: 'boolean',
      default: AUDIT_DEFAULTS.force,
      describe:
        'Audit even when every declared collection answers 404 to the first GET (by default a sign of a wrong base URL: exit 2)',
    })
    .option('insecure', {
      type: 'boolean',
      default: AUDIT_DEFAULTS.insecure,
      describe:
        "Accept any TLS certificate (no verification), like tls.insecure in the config; every report says so. Prefer tls.ca (the service's CA)",
    })
    .option('shard', { type: 'string', describe: 'Run shard i of n (e.g. 2/3), split by resource' })
    .option('max-rps', {
      type: 'number',
      describe: "Cap on the audit's own request rate (requests per second, 0.01 to 100000)",
    });
}

/** The flags only `demo` takes: breaks of the example API, so a newcomer sees what failures look like. */
export function demoOptions<T>(y: Argv<T>) {
  return y
    .option('break', {
      type: 'string',
      array: true,
      default: [] as string[],
      describe: 'Start the example API with these breaks (comma-separated), so the reports show failures',
    })
    .option('list-breaks', {
      type: 'boolean',
      default: false,
      describe: 'List the breaks, one line each, and exit',
    })
    .option('rate-limit', {
      type: 'number',
      describe:
        'Limit the example API to this many requests per second per token, refused with Retry-After: 0 (as some real limiters do)',
    })
    .option('serve', {
      type: 'boolean',
      default: false,
      describe:
        "After the audit, keep the example API answering on the same URL until Ctrl-C, to try the failures' curl lines and scripts on it (exit code: the audit's)",
    })
    .option('rate-limit-headers', {
      type: 'boolean',
      default: AUDIT_DEFAULTS['rate-limit-headers'],
      describe: 'With --rate-limit: send RateLimit-* headers (--no-rate-limit-headers: only the 429s tell)',
    });
}

/** The parsed flags of `run` and `demo`, as yargs gives them (checked by cli/args.ts). */
export type RunArgv = Awaited<ReturnType<typeof runOptions>['argv']>;

/** The parsed flags of `merge`. */
export type MergeArgv = Awaited<ReturnType<typeof mergeOptions>['argv']>;
