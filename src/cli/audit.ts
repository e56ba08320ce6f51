// Running an audit for the CLI: config -> engine -> reporters -> files, and the exit code.
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Check } from '../core/check.js';
import type { AuditConfig, RunResult, Severity } from '../core/types.js';
import { runAudit } from '../engine/run.js';
import type { Clock } from '../http/client.js';
import { ExchangeLog, resolveReporters, progressLine, type Reporter } from '../reporters/index.js';

const statusMark = {
  passed: 'ok  ',
  failed: 'FAIL',
  skipped: 'skip',
  errored: 'ERR ',
  waived: 'waiv',
} as const;

export interface AuditFlags {
  reporter: string[];
  out: string;
  only: string[];
  skip: string[];
  concurrency: number;
  timeout: number;
  readOnly: boolean;
  failOn: Severity;
  shard?: { index: number; total: number };
  maxRps?: number;
  color: boolean;
  quiet: boolean;
  verbose: boolean;
}

/** What writing reports needs of the flags (`run`, `demo` and `merge` share it). */
export type ReportFlags = Pick<AuditFlags, 'out' | 'color' | 'quiet' | 'verbose'>;

export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** Clock of the HTTP client's waits (429 pauses, --max-rps); tests inject a fake one. */
  clock?: Clock;
}

/** Exit code of a finished run: 1 when any failure is at or above the --fail-on severity. */
export function exitCodeOf(result: RunResult, failOn: Severity): number {
  const counts = (severity: Severity): boolean => failOn === 'warning' || severity === 'error';
  return result.results.some((r) => r.status === 'failed' && counts(r.severity)) ? 1 : 0;
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
  const plain = !flags.quiet && !live;
  let drawn = false;
  // Kept only when a reporter needs every exchange (har): bounded, and redacted like evidence.
  const exchanges = chosen.some((r) => r.needsExchanges) ? new ExchangeLog() : undefined;
  const result = await runAudit(config, {
    catalogue,
    only: flags.only,
    skip: flags.skip,
    concurrency: flags.concurrency,
    timeoutMs: flags.timeout,
    readOnly: flags.readOnly,
    maxRps: flags.maxRps,
    shard: flags.shard,
    signal,
    clock: io.clock,
    ...(exchanges ? { onExchange: (x) => exchanges.add(x) } : {}),
    onResult: (r, done, total) => {
      if (live) {
        const cols = (io.stderr as { columns?: number }).columns ?? 80;
        io.stderr.write(
          `\r\x1b[2K${progressLine(done, Math.max(total, done), `${r.checkId} ${r.resource ?? ''}`, cols)}`,
        );
        drawn = true;
      } else if (plain) {
        io.stderr.write(`${statusMark[r.status]} ${r.checkId}${r.resource ? ` ${r.resource}` : ''}\n`);
      }
    },
  });
  if (drawn) io.stderr.write('\r\x1b[2K');
  await writeReports(result, chosen, flags, io, exchanges);
  return { code: exitCodeOf(result, flags.failOn), result };
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
): Promise<string[]> {
  const options = { color: flags.color, quiet: flags.quiet, verbose: flags.verbose, exchanges };
  const written: string[] = [];
  for (const reporter of chosen) {
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
  if (written.length > 0 && !flags.quiet) io.stdout.write(`Reports: ${written.join(', ')}\n`);
  return written;
}
