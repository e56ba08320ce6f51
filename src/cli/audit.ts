// Running an audit for the CLI: config -> engine -> reporters -> files, and the exit code.
import { appendFile, chmod, mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Check } from '../core/check.js';
import type { Invocation } from '../core/reproduce.js';
import type { AuditConfig, CheckResult, RunResult, Severity } from '../core/types.js';
import { runAudit } from '../engine/run.js';
import type { Clock } from '../http/client.js';
import {
  ExchangeLog,
  resolveReporters,
  progressLine,
  summaryLine,
  type Reporter,
} from '../reporters/index.js';
import { failsRun, verdictOf } from '../reporters/verdict.js';
import { REPRO_DIR, REPRO_MARKER } from '../reporters/repro.js';
import { onlyResources } from './resources.js';
import { removeStaleReports } from './stale-reports.js';

const statusMark = {
  passed: 'ok  ',
  failed: 'FAIL',
  skipped: 'skip',
  errored: 'ERR ',
  waived: 'waiv',
} as const;

/** The progress mark of a result: a failed warning below --fail-on is `WARN`, as it does not fail the run. */
function progressMark(r: CheckResult, failOn: Severity): string {
  return r.status === 'failed' && !failsRun(r, failOn) ? 'WARN' : statusMark[r.status];
}

export interface AuditFlags {
  reporter: string[];
  out: string;
  only: string[];
  skip: string[];
  /** `--resource`: audit only these resources (see onlyResources). */
  resource?: string[];
  concurrency: number;
  timeout: number;
  readOnly: boolean;
  /** Audit even when every declared collection answers 404 (see runAudit's preflight). */
  force?: boolean;
  /** `--insecure`: no TLS certificate verification (the reports say so). */
  insecure?: boolean;
  failOn: Severity;
  shard?: { index: number; total: number };
  maxRps?: number;
  color: boolean;
  quiet: boolean;
  verbose: boolean;
  /** How the CLI was started (see invocationOf): each failure's re-run command repeats it. */
  invocation?: Invocation;
}

/** What writing reports needs of the flags (`run`, `demo` and `merge` share it). */
export type ReportFlags = Pick<AuditFlags, 'out' | 'color' | 'quiet' | 'verbose' | 'failOn'>;

export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** Clock of the HTTP client's waits (429 pauses, --max-rps); tests inject a fake one. */
  clock?: Clock;
}

/**
 * Exit code of a finished run: 1 when any failure is at or above the --fail-on severity, or when
 * the service gave no valid HTTP answer to anything (a run that judged nothing is no pass).
 */
export function exitCodeOf(result: RunResult, failOn: Severity): number {
  return verdictOf(result, failOn).level === 'failed' ? 1 : 0;
}

/** Runs the audit, shows progress, writes every report; returns the exit code. */
export async function auditAndReport(
  config: AuditConfig,
  catalogue: Check[],
  flags: AuditFlags,
  io: Io,
  signal?: AbortSignal,
): Promise<{ code: number; result: RunResult }> {
  const chosen = resolveReporters(flags.reporter);
  const live = !flags.quiet && io.stderr.isTTY === true;
  // One line per result belongs to the console report: with only report files chosen, stderr stays quiet.
  const plain = !flags.quiet && !live && chosen.some((r) => r.name === 'console');
  let drawn = false;
  // Kept only when a reporter needs every exchange (har): bounded, and redacted like evidence.
  const exchanges = chosen.some((r) => r.needsExchanges) ? new ExchangeLog() : undefined;
  // --insecure adds to the config's tls section (its CA and client certificate still apply).
  const chosenConfig = onlyResources(config, flags.resource ?? []);
  const audited = flags.insecure
    ? { ...chosenConfig, tls: { ...chosenConfig.tls, insecure: true } }
    : chosenConfig;
  let result: RunResult;
  try {
    result = await runAudit(audited, {
      catalogue,
      only: flags.only,
      skip: flags.skip,
      concurrency: flags.concurrency,
      timeoutMs: flags.timeout,
      readOnly: flags.readOnly,
      force: flags.force,
      maxRps: flags.maxRps,
      shard: flags.shard,
      env: io.env,
      signal,
      clock: io.clock,
      invocation: flags.invocation,
      // Shown once, as it arises (also in the reports' notes), even under --quiet: it is about leaks.
      onNote: (note) => io.stderr.write(`${drawn ? '\r\x1b[2K' : ''}conformance: warning: ${note}\n`),
      ...(exchanges ? { onExchange: (x, sender) => exchanges.add(x, sender) } : {}),
      onResult: (r, done, total) => {
        if (live) {
          const cols = (io.stderr as { columns?: number }).columns ?? 80;
          io.stderr.write(
            `\r\x1b[2K${progressLine(done, Math.max(total, done), `${r.checkId} ${r.resource ?? ''}`, cols)}`,
          );
          drawn = true;
        } else if (plain) {
          io.stderr.write(
            `${progressMark(r, flags.failOn)} ${r.checkId}${r.resource ? ` ${r.resource}` : ''}\n`,
          );
        }
      },
    });
  } catch (err) {
    // The audit could not run (exit 2): no report of an earlier run may pass for this one's.
    if (drawn) io.stderr.write('\r\x1b[2K');
    await clearReports(chosen, flags, io);
    throw err;
  }
  if (drawn) io.stderr.write('\r\x1b[2K');
  await writeReports(result, chosen, flags, io, exchanges);
  return { code: exitCodeOf(result, flags.failOn), result };
}

/**
 * After a run that could not audit (exit 2: unreachable, TLS refused, login failed): removes our
 * report files from --out, so that a folder the README promises holds this run's reports holds
 * none rather than an earlier run's (only when a reporter writes files; others' files stay).
 */
async function clearReports(chosen: Reporter[], flags: ReportFlags, io: Io): Promise<void> {
  if (!chosen.some((r) => r.fileName)) return;
  const stale = await removeStaleReports(flags.out, []).catch(() => undefined);
  if (stale && stale.removed.length > 0 && !flags.quiet) {
    io.stderr.write(
      `conformance: removed from ${flags.out} the earlier run's ${stale.removed.join(', ')}: this run could not audit, so it wrote no reports\n`,
    );
  }
}

/**
 * Console reporters print to stdout; the others are written under --out. A reporter marked
 * `stepSummary` (markdown) is also appended to `$GITHUB_STEP_SUMMARY` when that is set.
 */
export async function writeReports(
  result: RunResult,
  chosen: Reporter[],
  flags: ReportFlags,
  io: Io,
  exchanges?: ExchangeLog,
  /** Files never removed as an earlier run's reports (merge's inputs). */
  keep: readonly string[] = [],
): Promise<string[]> {
  // Where each file goes, so the console can point at the report that holds what it cut.
  const reportFiles = Object.fromEntries(
    chosen.flatMap((r) =>
      r.fileName
        ? [[r.name, join(flags.out, r.fileName)]]
        : r.files
          ? [[r.name, join(flags.out, REPRO_DIR)]]
          : [],
    ),
  );
  const options = {
    color: flags.color,
    quiet: flags.quiet,
    verbose: flags.verbose,
    failOn: flags.failOn,
    reportFiles,
    exchanges,
  };
  const written: string[] = [];
  const files = chosen.flatMap((r) => (r.fileName ? [r.fileName] : []));
  // A run writes a fresh set: our report files of an earlier run that this one does not write go.
  const stale = files.length > 0 ? await removeStaleReports(flags.out, files, keep) : undefined;
  for (const reporter of chosen) {
    if (reporter.files) {
      written.push(...(await writeFiles(flags.out, reporter.files(result, options))));
      continue;
    }
    const text = reporter.render(result, options);
    if (!reporter.fileName) {
      io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
      continue;
    }
    await mkdir(flags.out, { recursive: true });
    const file = join(flags.out, reporter.fileName);
    await writeFile(file, text);
    written.push(file);
    const stepSummary = io.env.GITHUB_STEP_SUMMARY;
    if (reporter.stepSummary && stepSummary) {
      await appendFile(stepSummary, text.endsWith('\n') ? text : `${text}\n`);
      written.push(`${stepSummary} (appended)`);
    }
  }
  // Without the console report, stdout still gets the one line people look for (not under --quiet).
  if (!flags.quiet && !chosen.some((r) => r.name === 'console')) {
    io.stdout.write(`${summaryLine(result, flags.color, flags.failOn)}\n`);
  }
  if (written.length > 0 && !flags.quiet) io.stdout.write(`Reports: ${written.join(', ')}\n`);
  if (stale && !flags.quiet) {
    if (stale.removed.length > 0)
      io.stdout.write(
        `Removed from ${flags.out} the earlier run's ${stale.removed.join(', ')} (not written by this run)\n`,
      );
    if (stale.foreign.length > 0)
      io.stdout.write(
        `Left alone in ${flags.out}: ${stale.foreign.join(', ')} (not a report of this tool, and not written by this run)\n`,
      );
  }
  return written;
}

/**
 * Writes a reporter's files under `out` (repro: the scripts, executable), after removing the
 * scripts of an earlier run from their folder (ours only, recognised by how they begin).
 */
async function writeFiles(
  out: string,
  files: Array<{ path: string; text: string; mode?: number }>,
): Promise<string[]> {
  await removeStaleScripts(join(out, REPRO_DIR));
  const written: string[] = [];
  for (const f of files) {
    const file = join(out, f.path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, f.text, { mode: f.mode ?? 0o644 });
    if (f.mode !== undefined) await chmod(file, f.mode);
    written.push(file);
  }
  return written;
}

/** Removes the reproduction scripts an earlier run wrote in `dir` (files that begin as ours do). */
async function removeStaleScripts(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names.filter((n) => n.endsWith('.sh'))) {
    const file = join(dir, name);
    const text = await readFile(file, 'utf8').catch(() => '');
    if (REPRO_MARKER.test(text.slice(0, 200))) await unlink(file);
  }
}
