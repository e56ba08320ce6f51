// The command line: run, init, list, explain, demo. Returns the exit code; never calls process.exit.
import yargs, { type Argv } from 'yargs';
import type { Check } from '../core/check.js';
import type { Severity } from '../core/types.js';
import { ConformanceError } from '../core/errors.js';
import { RULE_IDS } from '../core/rules.js';
import { toolVersion } from '../core/paths.js';
import type { AuditFlags, Io } from './audit.js';
import { renderExplain, renderList } from './list.js';
import { unknownSelectors } from '../engine/plan.js';
import { didYouMean } from '../config/suggest.js';
import { INIT_DESCRIPTION, initOptions, MERGE_REPORTERS } from './command-options.js';

// Each command loads its own code when it runs: `--help` and `list` stay fast (cold start).
const loadCatalogue = async (): Promise<Check[]> => (await import('../../suites/index.js')).catalogue;

export interface MainOptions {
  io?: Partial<Io>;
  catalogue?: Check[];
  /** Aborted on SIGINT/SIGTERM by bin/conformance. */
  signal?: AbortSignal;
}

/** Exit code when the run was stopped by a signal (128 + SIGINT). */
export const EXIT_INTERRUPTED = 130;

/** Runs the CLI with these arguments (without `node` and the script) and returns the exit code. */
export async function main(args: string[], options: MainOptions = {}): Promise<number> {
  const io: Io = { stdout: process.stdout, stderr: process.stderr, env: process.env, ...options.io };
  const catalogue = async (): Promise<Check[]> => options.catalogue ?? (await loadCatalogue());
  let code = 0;
  let failure: string | undefined;
  const parser = yargs(args)
    .scriptName('conformance')
    .version(toolVersion())
    .strict()
    .exitProcess(false)
    .wrap(Math.min(110, (io.stdout as { columns?: number }).columns ?? 100))
    .fail((message, err) => {
      failure = err ? (err.message ?? String(err)) : message;
      // A usage error (unknown flag, bad choice) must stop yargs before it runs the command.
      if (!err) throw new ConformanceError('E_ARGS', message);
    })
    .command(
      'run',
      'Audit the API at --base-url (or the config baseUrl)',
      (y) =>
        runOptions(y)
          .option('config', {
            type: 'string',
            describe: 'Config file (YAML or JSON); default conformance.config.{yaml,yml,json}',
          })
          .option('base-url', {
            type: 'string',
            describe:
              'Base URL of the API, e.g. https://api.example.com/v1 (overrides baseUrl in the config)',
          })
          .option('openapi', {
            type: 'string',
            describe:
              "OpenAPI document (file or URL) to derive resources from; wins over the config's openapi. Without a config file, tokens come from CONFORMANCE_TOKEN and CONFORMANCE_LIMITED_TOKEN",
          }),
      async (argv) => {
        const flags = auditFlags(argv, io);
        const [{ loadConfig }, { validateWaivers }, { auditAndReport }, checks] = await Promise.all([
          import('../config/load.js'),
          import('../config/waivers.js'),
          import('./audit.js'),
          catalogue(),
        ]);
        const config = await loadConfig({
          path: argv.config,
          baseUrl: argv['base-url'],
          env: io.env,
          openapi: argv.openapi,
        });
        if (!flags.quiet)
          for (const note of config.openapiNotes ?? []) io.stderr.write(`conformance: note: ${note}\n`);
        const problems = [
          ...unknownSelectors(checks, '--only', flags.only),
          ...unknownSelectors(checks, '--skip', flags.skip),
          ...validateWaivers(config, new Set(RULE_IDS), new Set(checks.map((c) => c.id))),
        ];
        if (problems.length > 0) throw new ConformanceError('E_CONFIG', problems[0], problems);
        const { code: runCode, result } = await auditAndReport(config, checks, flags, io, options.signal);
        code = result.interrupted ? EXIT_INTERRUPTED : runCode;
      },
    )
    .command('init', INIT_DESCRIPTION, initOptions, async (argv) => {
      const { runInit } = await import('./init.js');
      code = await runInit(argv, io);
    })
    .command(
      'demo',
      'Start the bundled example API on a free loopback port and audit it',
      (y) => runOptions(y),
      async (argv) => {
        const flags = auditFlags(argv, io);
        const { runDemo } = await import('./demo.js');
        const checks = await catalogue();
        const problems = [
          ...unknownSelectors(checks, '--only', flags.only),
          ...unknownSelectors(checks, '--skip', flags.skip),
        ];
        if (problems.length > 0) throw new ConformanceError('E_ARGS', problems[0], problems);
        code = await runDemo(checks, flags, io, options.signal);
        if (options.signal?.aborted) code = EXIT_INTERRUPTED;
      },
    )
    .command(
      'merge <reports..>',
      'Combine the JSON reports of shards (run --shard i/n) into one set of reports',
      (y) =>
        y
          .positional('reports', {
            type: 'string',
            array: true,
            demandOption: true,
            describe: 'conformance.json of every shard',
          })
          .option('reporter', {
            type: 'string',
            array: true,
            default: [MERGE_REPORTERS.join(',')],
            describe: 'Reporters, comma-separated: console, json, junit, html, markdown',
          })
          .option('out', { type: 'string', default: 'reports', describe: 'Directory for report files' })
          .option('fail-on', {
            choices: ['error', 'warning'] as const,
            default: 'error' as const,
            describe: 'Lowest severity that fails the merged run',
          })
          .option('color', { type: 'boolean', describe: 'Colour console output (--no-color turns it off)' })
          .option('quiet', {
            type: 'boolean',
            default: false,
            describe: QUIET_HELP,
          })
          .option('verbose', { type: 'boolean', default: false, describe: VERBOSE_HELP }),
      async (argv) => {
        const noColorEnv = io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '';
        checkQuietVerbose(argv);
        const flags = {
          reporter: argv.reporter
            .flatMap((v) => String(v).split(','))
            .map((v) => v.trim())
            .filter(Boolean),
          out: argv.out,
          failOn: argv['fail-on'],
          color: argv.color ?? (!noColorEnv && io.stdout.isTTY === true),
          quiet: argv.quiet,
          verbose: argv.verbose,
        };
        const { runMerge } = await import('./merge.js');
        const { code: mergeCode, result } = await runMerge((argv.reports ?? []).map(String), flags, io);
        code = result.interrupted ? EXIT_INTERRUPTED : mergeCode;
      },
    )
    .command(
      'list',
      'List every check: id, rules, severity, title',
      (y) => y.option('json', { type: 'boolean', default: false, describe: 'Print JSON' }),
      async (argv) => {
        io.stdout.write(renderList(await catalogue(), argv.json));
      },
    )
    .command(
      'explain <name>',
      'What a check (or every check of a rule) sends, what passes, why it matters',
      (y) =>
        y.positional('name', { type: 'string', demandOption: true, describe: 'A check id or a rule id' }),
      async (argv) => {
        const checks = await catalogue();
        const text = renderExplain(checks, String(argv.name));
        if (text === undefined) {
          const names = [...checks.map((c) => c.id), ...RULE_IDS];
          throw new ConformanceError(
            'E_ARGS',
            `no check or rule named "${argv.name}"${didYouMean(String(argv.name), names)} (conformance list shows them)`,
          );
        }
        io.stdout.write(text);
      },
    )
    .demandCommand(1, 'Name a command: run, init, demo, merge, list or explain (see --help)')
    .epilogue(
      'Exit codes: 0 all checks passed or skipped; 1 a check failed (at or above --fail-on); 2 the audit could not run.',
    )
    .help();
  try {
    await parser.parseAsync();
  } catch (err) {
    return reportError(err, io);
  }
  if (failure !== undefined) return reportError(new ConformanceError('E_ARGS', failure), io);
  return code;
}

const QUIET_HELP = 'Console: only failures, warnings, errors and the summary line; no progress lines';
const VERBOSE_HELP =
  'Console: also list every passed and skipped check, and print messages in full (not with --quiet)';

/** --quiet and --verbose ask for opposite things: refused (exit 2) rather than one silently winning. */
function checkQuietVerbose(argv: { quiet: boolean; verbose: boolean }): void {
  if (argv.quiet && argv.verbose)
    throw new ConformanceError('E_ARGS', '--quiet and --verbose cannot be used together: choose one');
}

function runOptions<T>(y: Argv<T>) {
  return y
    .option('reporter', {
      type: 'string',
      array: true,
      default: ['console,json,junit'],
      describe: 'Reporters, comma-separated: console, json, junit, html, markdown, har',
    })
    .option('out', { type: 'string', default: 'reports', describe: 'Directory for report files' })
    .option('only', {
      type: 'string',
      array: true,
      default: [] as string[],
      describe: 'Run only these checks or rules (ids, suites, * wildcards)',
    })
    .option('skip', {
      type: 'string',
      array: true,
      default: [] as string[],
      describe: 'Skip these checks or rules',
    })
    .option('concurrency', {
      type: 'number',
      default: 8,
      describe: 'Checks run at once (one resource is never probed by two checks at once)',
    })
    .option('timeout', {
      type: 'number',
      default: 10000,
      describe: 'Deadline of one request in ms (headers and body)',
    })
    .option('read-only', {
      type: 'boolean',
      default: false,
      describe: 'Send only requests that cannot change state; skip the rest',
    })
    .option('fail-on', {
      choices: ['error', 'warning'] as const,
      default: 'error' as const,
      describe: 'Lowest severity that fails the run',
    })
    .option('shard', { type: 'string', describe: 'Run shard i of n (e.g. 2/3), split by resource' })
    .option('max-rps', {
      type: 'number',
      describe: "Cap on the audit's own request rate (requests per second)",
    })
    .option('color', {
      type: 'boolean',
      describe: 'Colour console output (--no-color turns it off; NO_COLOR is honoured)',
    })
    .option('quiet', { type: 'boolean', default: false, describe: QUIET_HELP })
    .option('verbose', { type: 'boolean', default: false, describe: VERBOSE_HELP });
}

type RunArgv = {
  reporter: string[];
  out: string;
  only: string[];
  skip: string[];
  concurrency: number;
  timeout: number;
  'read-only': boolean;
  'fail-on': Severity;
  shard?: string;
  'max-rps'?: number;
  color?: boolean;
  quiet: boolean;
  verbose: boolean;
};

function auditFlags(argv: RunArgv, io: Io): AuditFlags {
  const split = (values: string[]): string[] =>
    values
      .flatMap((v) => String(v).split(','))
      .map((v) => v.trim())
      .filter(Boolean);
  checkQuietVerbose(argv);
  if (!Number.isInteger(argv.concurrency) || argv.concurrency < 1)
    throw new ConformanceError('E_ARGS', '--concurrency must be a whole number of at least 1');
  if (!Number.isFinite(argv.timeout) || argv.timeout < 1)
    throw new ConformanceError('E_ARGS', '--timeout must be a positive number of milliseconds');
  if (argv['max-rps'] !== undefined && !(argv['max-rps'] > 0))
    throw new ConformanceError('E_ARGS', '--max-rps must be a positive number');
  let shard: AuditFlags['shard'];
  if (argv.shard !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(argv.shard);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2]))
      throw new ConformanceError(
        'E_ARGS',
        `--shard must look like i/n with 1 <= i <= n (got "${argv.shard}")`,
      );
    shard = { index: Number(m[1]), total: Number(m[2]) };
  }
  const noColorEnv = io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '';
  const color = argv.color ?? (!noColorEnv && io.stdout.isTTY === true);
  return {
    reporter: split(argv.reporter),
    out: argv.out,
    only: split(argv.only),
    skip: split(argv.skip),
    concurrency: argv.concurrency,
    timeout: argv.timeout,
    readOnly: argv['read-only'],
    failOn: argv['fail-on'],
    shard,
    maxRps: argv['max-rps'],
    color: color && !(argv.color === undefined && noColorEnv),
    quiet: argv.quiet,
    verbose: argv.verbose,
  };
}

/** Prints an error as one line per problem (no stack trace) and returns exit code 2. */
function reportError(err: unknown, io: Io): number {
  if (err instanceof ConformanceError) {
    for (const problem of err.problems) io.stderr.write(`conformance: ${problem}\n`);
  } else {
    const message = err instanceof Error ? err.message : String(err);
    io.stderr.write(`conformance: ${message}\n`);
    if (io.env.CONFORMANCE_DEBUG) io.stderr.write(`${err instanceof Error ? err.stack : ''}\n`);
  }
  return 2;
}
