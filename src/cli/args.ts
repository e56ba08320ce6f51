// Checking the command line before anything is sent or read: repeated flags, numbers in range, a writable --out.
import { constants } from 'node:fs';
import { access, stat, unlink, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import type { Check } from '../core/check.js';
import { ConformanceError } from '../core/errors.js';
import { selectChecks, unknownSelectors } from '../engine/plan.js';
import { resolveReporters, type Reporter } from '../reporters/index.js';
import type { AuditFlags, Io } from './audit.js';
import type { MergeArgv, RunArgv } from './command-options.js';
import type { MergeFlags } from './merge.js';

/** Node's timers take at most 2^31-1 ms; a longer deadline silently becomes 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

const bad = (message: string): ConformanceError => new ConformanceError('E_ARGS', message);

/**
 * Refuses a flag given more than once unless it takes a list (yargs turns a repeated flag into
 * an array, which the code behind a single-valued flag would choke on).
 */
export function refuseRepeated(argv: Record<string, unknown>, lists: readonly string[]): void {
  for (const [name, value] of Object.entries(argv)) {
    // Each flag is also there camelCased (baseUrl for base-url): look at the spelling users type.
    if (name === '_' || name === '$0' || /[A-Z]/.test(name) || lists.includes(name)) continue;
    if (!Array.isArray(value)) continue;
    const shown = value.map((v) => JSON.stringify(v)).join(', ');
    throw bad(`--${name} is given ${value.length} times (${shown}): give it once`);
  }
}

/** A number flag within bounds (and whole, when asked); undefined passes when the flag is optional. */
export function checkNumber(
  name: string,
  value: number | undefined,
  range: { min: number; max: number; whole?: boolean; unit?: string },
): void {
  if (value === undefined) return;
  const { min, max, whole, unit } = range;
  if (Number.isFinite(value) && value >= min && value <= max && (!whole || Number.isInteger(value))) return;
  const kind = whole ? 'a whole number' : 'a number';
  throw bad(`--${name} must be ${kind}${unit ? ` of ${unit}` : ''} from ${min} to ${max} (got ${value})`);
}

/** The `--timeout` every command that sends requests takes. */
export function checkTimeout(value: number): void {
  checkNumber('timeout', value, { min: 1, max: MAX_TIMER_MS, unit: 'milliseconds' });
}

/** --quiet and --verbose ask for opposite things: refused rather than one silently winning. */
export function checkQuietVerbose(argv: { quiet: boolean; verbose: boolean }): void {
  if (argv.quiet && argv.verbose) throw bad('--quiet and --verbose cannot be used together: choose one');
}

/** The reporter names of `--reporter a,b --reporter c`. */
export function splitList(values: readonly unknown[]): string[] {
  return values
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

/** Colour: --color/--no-color, else NO_COLOR, else whether stdout is a terminal. */
export function colorOf(flag: boolean | undefined, io: Io): boolean {
  const noColorEnv = io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '';
  return flag ?? (!noColorEnv && io.stdout.isTTY === true);
}

/** Flags of `run` and `demo` that take a list (`break`: demo only); every other flag may be given once. */
export const RUN_LISTS = ['reporter', 'only', 'skip', 'resource', 'openapi-allow-ref', 'break'] as const;

/**
 * The one path of `run` and `demo` from arguments to flags: every argument checked (repeats,
 * ranges, reporters, --only/--skip against the catalogue, --out writable), all before the
 * first request. Throws ConformanceError E_ARGS (exit 2) naming the first problem.
 */
export async function prepareAudit(argv: RunArgv, io: Io, checks: Check[]): Promise<AuditFlags> {
  refuseRepeated(argv, RUN_LISTS);
  checkQuietVerbose(argv);
  checkNumber('concurrency', argv.concurrency, { min: 1, max: 1000, whole: true });
  checkTimeout(argv.timeout);
  checkNumber('max-rps', argv['max-rps'], { min: 0.01, max: 100_000, unit: 'requests per second' });
  let shard: AuditFlags['shard'];
  if (argv.shard !== undefined) {
    const m = /^(\d{1,4})\/(\d{1,4})$/.exec(argv.shard);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2]))
      throw bad(`--shard must look like i/n with 1 <= i <= n <= 9999 (got "${argv.shard}")`);
    shard = { index: Number(m[1]), total: Number(m[2]) };
  }
  const flags: AuditFlags = {
    reporter: splitList(argv.reporter),
    out: argv.out,
    only: splitList(argv.only),
    skip: splitList(argv.skip),
    resource: splitList(argv.resource),
    concurrency: argv.concurrency,
    timeout: argv.timeout,
    readOnly: argv['read-only'],
    force: argv.force,
    insecure: argv.insecure,
    failOn: argv['fail-on'],
    shard,
    maxRps: argv['max-rps'],
    color: colorOf(argv.color, io),
    quiet: argv.quiet,
    verbose: argv.verbose,
  };
  const selectors = [
    ...unknownSelectors(checks, '--only', flags.only),
    ...unknownSelectors(checks, '--skip', flags.skip),
  ];
  if (selectors.length > 0) throw new ConformanceError('E_ARGS', selectors[0], selectors);
  if (selectChecks(checks, flags.only, flags.skip).length === 0) {
    // A run of nothing would "pass": a CI step that audits nothing must not go green.
    const chose = flags.only.length > 0 ? ` --only ${flags.only.join(',')} chose` : '';
    throw bad(
      `no check left to run: --skip ${flags.skip.join(',')} removes every check${chose} (conformance list shows them)`,
    );
  }
  await checkOutput(flags.out, resolveReporters(flags.reporter), io);
  return flags;
}

/**
 * Proves up front that the reports can be written: `--out` is a folder (or can be made as one)
 * in which a file can be created, no report file in it is a folder, and `$GITHUB_STEP_SUMMARY`
 * can be appended to when the markdown reporter would append to it. Leaves nothing behind.
 */
export async function checkOutput(out: string, chosen: Reporter[], io: Io): Promise<void> {
  const files = chosen.flatMap((r) => (r.fileName ? [r.fileName] : []));
  if (files.length > 0) {
    if (out === '') throw bad('--out must name a folder');
    const where = resolve(out);
    const existing = await nearestExisting(where);
    const info = await stat(existing);
    if (!info.isDirectory()) {
      throw bad(
        existing === where
          ? `--out ${out}: not a folder (reports are files written into it)`
          : `--out ${out}: cannot be made: ${existing} is not a folder`,
      );
    }
    await probeWritable(existing, out);
    if (existing === where) {
      for (const name of files) {
        const file = join(where, name);
        const present = await stat(file).catch(() => undefined);
        if (present && !present.isFile()) throw bad(`--out ${out}: ${name} is there and is not a file`);
        if (present)
          await access(file, constants.W_OK).catch(() => {
            throw bad(`--out ${out}: ${name} cannot be overwritten (permission denied)`);
          });
      }
    }
  }
  const summary = io.env.GITHUB_STEP_SUMMARY;
  if (summary && chosen.some((r) => r.stepSummary)) {
    const present = await stat(summary).catch(() => undefined);
    const writable = present
      ? present.isFile() &&
        (await access(summary, constants.W_OK).then(
          () => true,
          () => false,
        ))
      : (await stat(dirname(summary)).catch(() => undefined))?.isDirectory() === true;
    if (!writable) throw bad(`GITHUB_STEP_SUMMARY ${summary}: cannot be appended to`);
  }
}

/** `path` itself if it exists, else its nearest existing parent folder. */
async function nearestExisting(path: string): Promise<string> {
  let current = path;
  for (;;) {
    if (
      await stat(current).then(
        () => true,
        () => false,
      )
    )
      return current;
    const parent = dirname(current);
    if (parent === current) return current;
    current = parent;
  }
}

/** Creates and removes a file in `folder`: permissions, read-only mounts and /proc all say no here. */
async function probeWritable(folder: string, out: string): Promise<void> {
  const probe = join(folder, `.conformance-write-check-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await writeFile(probe, '', { flag: 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    const reason =
      {
        EACCES: 'permission denied',
        EPERM: 'permission denied',
        EROFS: 'a read-only file system',
        ENOSPC: 'no space left',
        // /proc and the like: a folder in which no file can be created.
        ENOENT: 'no file can be created there',
      }[code] ?? code;
    throw bad(`--out ${out}: cannot write there (${reason})`);
  }
  await unlink(probe).catch(() => undefined);
}

/** `merge`'s flags, checked like an audit's before any report is read. */
export async function prepareMerge(argv: MergeArgv, io: Io): Promise<MergeFlags> {
  refuseRepeated(argv, ['reporter', 'reports']);
  checkQuietVerbose(argv);
  const flags: MergeFlags = {
    reporter: splitList(argv.reporter),
    out: argv.out,
    failOn: argv['fail-on'],
    color: colorOf(argv.color, io),
    quiet: argv.quiet,
    verbose: argv.verbose,
  };
  await checkOutput(flags.out, resolveReporters(flags.reporter), io);
  return flags;
}
