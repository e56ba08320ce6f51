// The command line: run, init, list, explain, demo. Returns the exit code; never calls process.exit.
import { resolve } from 'node:path';
import yargs from 'yargs';
import type { Check } from '../core/check.js';
import { ConformanceError } from '../core/errors.js';
import { RULE_IDS } from '../core/rules.js';
import { toolVersion } from '../core/paths.js';
import type { Io } from './audit.js';
import { renderExplain, renderList } from './list.js';
import { didYouMean } from '../config/suggest.js';
import {
  allowRefOption,
  demoOptions,
  INIT_DESCRIPTION,
  initOptions,
  mergeOptions,
  runOptions,
} from './command-options.js';

// Each command loads its own code when it runs: `--help` and `list` stay fast (cold start).
const loadCatalogue = async (): Promise<Check[]> => (await import('../../suites/index.js')).catalogue;

export interface MainOptions {
  io?: Partial<Io>;
  catalogue?: Check[];
  /** Aborted on SIGINT/SIGTERM by bin/conformance. */
  signal?: AbortSignal;
  /**
   * Set by `demo --serve` once the audit is over and the example API is only being served, so
   * bin/conformance does not announce a cleanup on Ctrl-C that has nothing left to do.
   */
  serving?: { served: boolean };
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
        allowRefOption(runOptions(y))
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
        const checks = await catalogue();
        // One import at a time: jest's ESM loader can fail on concurrent imports sharing a module.
        const { prepareAudit } = await import('./args.js');
        // Every argument is checked before the config (or a fetched document) is read.
        const { invocationOf } = await import('./invocation.js');
        const flags = { ...(await prepareAudit(argv, io, checks)), invocation: invocationOf('run', argv) };
        const { loadConfig } = await import('../config/load.js');
        const { openApiStep } = await import('../openapi/step.js');
        const { validateWaivers } = await import('../config/waivers.js');
        const { auditAndReport } = await import('./audit.js');
        const config = await loadConfig({
          path: argv.config,
          baseUrl: argv['base-url'],
          env: io.env,
          openapi: argv.openapi,
          documentStep: openApiStep({
            // Relative to the working directory, also for a document the config file names.
            allowRefs: argv['openapi-allow-ref'].map((dir) => resolve(String(dir))),
            timeoutMs: flags.timeout,
            insecure: flags.insecure,
          }),
        });
        if (!flags.quiet) {
          const { templateNotes } = await import('../core/payloads.js');
          for (const note of [...(config.openapiNotes ?? []), ...templateNotes(config.resources)])
            io.stderr.write(`conformance: note: ${note}\n`);
        }
        const problems = validateWaivers(config, new Set(RULE_IDS), new Set(checks.map((c) => c.id)));
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
      (y) => demoOptions(runOptions(y)),
      async (argv) => {
        const { parseBreaks, parseRateLimit, renderBreakList, runDemo } = await import('./demo.js');
        if (argv['list-breaks']) {
          io.stdout.write(renderBreakList());
          return;
        }
        const checks = await catalogue();
        const { prepareAudit } = await import('./args.js');
        const { invocationOf } = await import('./invocation.js');
        const flags = { ...(await prepareAudit(argv, io, checks)), invocation: invocationOf('demo', argv) };
        const breaks = parseBreaks(argv.break);
        const rateLimit = parseRateLimit(argv['rate-limit'], argv['rate-limit-headers']);
        const serve = argv.serve ? (options.serving ?? { served: false }) : undefined;
        code = await runDemo(checks, flags, io, options.signal, breaks, rateLimit, serve);
        if (options.signal?.aborted && !serve?.served) code = EXIT_INTERRUPTED;
      },
    )
    .command(
      'merge <reports..>',
      'Combine the JSON reports of shards (run --shard i/n) into one set of reports',
      (y) => mergeOptions(y),
      async (argv) => {
        const { prepareMerge } = await import('./args.js');
        const flags = await prepareMerge(argv, io);
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
  skipHelpCache(parser);
  try {
    await parser.parseAsync();
  } catch (err) {
    return reportError(err, io);
  }
  if (failure !== undefined) return reportError(new ConformanceError('E_ARGS', failure), io);
  return code;
}

/**
 * yargs renders a command's whole help text before running it (20 to 30 ms of CPU, most of it
 * measuring string widths), to keep for a later showHelp that this CLI never calls: its `fail`
 * handler prints the problem, not the help. Skipped when yargs has that hook; `--help` is unchanged.
 */
function skipHelpCache(parser: unknown): void {
  type Usage = { cacheHelpMessage?: () => void };
  const internal = (parser as { getInternalMethods?: () => { getUsageInstance?: () => Usage } })
    .getInternalMethods;
  const usage = typeof internal === 'function' ? internal.call(parser).getUsageInstance?.() : undefined;
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => undefined;
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
