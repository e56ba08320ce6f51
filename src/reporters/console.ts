// Console report: failures first (grouped by rule, with a curl line), then skips, cleanup, summary.
import { Chalk, type ChalkInstance } from 'chalk';
import type { CheckResult, RunResult } from '../core/types.js';
import { firstLine, humanDuration, plural, truncate, visible } from './format.js';
import type { Reporter, ReporterOptions } from './types.js';

/** Longest one-line reason printed; the JSON and JUnit reports keep the whole message. */
const REASON_LIMIT = 300;

function painter(color: boolean): ChalkInstance {
  return new Chalk({ level: color ? 1 : 0 });
}

function mark(r: CheckResult, c: ChalkInstance): string {
  switch (r.status) {
    case 'passed':
      return c.green('✓');
    case 'failed':
      return r.severity === 'warning' ? c.yellow('⚠') : c.red('✗');
    case 'errored':
      return c.magenta('!');
    case 'waived':
      return c.cyan('~');
    default:
      return c.dim('-');
  }
}

/** What follows the colon: the one-line reason, labelled for everything but plain failures. */
function reason(r: CheckResult): string {
  const text = truncate(visible(firstLine(r.message)), REASON_LIMIT);
  switch (r.status) {
    case 'failed':
      return r.severity === 'warning' ? `warning: ${text || r.title}` : text || r.title;
    case 'errored':
      return `errored: ${text || 'the check broke'}`;
    case 'skipped':
      return `skipped: ${text || 'no reason given'}`;
    case 'waived': {
      const until = r.waiver?.expires ? ` (until ${r.waiver.expires})` : '';
      return `waived: ${visible(r.waiver?.reason ?? 'no reason given')}${until}`;
    }
    default:
      return '';
  }
}

function resultLine(r: CheckResult, c: ChalkInstance): string {
  const head = [
    mark(r, c),
    c.bold(r.rules.join(',') || '-'),
    r.checkId,
    ...(r.resource ? [r.resource] : []),
  ].join(' ');
  const why = reason(r);
  return why ? `${head}: ${why}` : head;
}

/** One plain line per result, for non-TTY output while the run goes on: `✗ RULE check resource: reason`. */
export function formatResultLine(r: CheckResult, color: boolean): string {
  return resultLine(r, painter(color));
}

/**
 * The live progress line for a TTY: `[ 12/120]  10% <current>`, cut to `width` columns so a
 * carriage return can redraw it. No ANSI codes and no line break: the caller adds both.
 */
export function progressLine(done: number, total: number, current?: string, width = 80): string {
  const digits = String(Math.max(total, 0)).length;
  const pct = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 100;
  const line = `[${String(done).padStart(digits)}/${total}] ${String(pct).padStart(3)}%`;
  if (!current) return line;
  const room = width - line.length - 1;
  if (room < 2) return line;
  const text = visible(current);
  return `${line} ${text.length > room ? `${text.slice(0, room - 1)}…` : text}`;
}

function primaryRule(r: CheckResult): string {
  return r.rules[0] ?? '';
}

/** Failures of error severity first, then warnings; each group sorted by its first rule id. */
function failureBlock(results: CheckResult[], c: ChalkInstance): string[] {
  const failed = results.filter((r) => r.status === 'failed');
  if (failed.length === 0) return [];
  const rank = (r: CheckResult) => (r.severity === 'error' ? 0 : 1);
  const sorted = failed
    .map((r, i) => ({ r, i }))
    .sort((a, b) => rank(a.r) - rank(b.r) || primaryRule(a.r).localeCompare(primaryRule(b.r)) || a.i - b.i)
    .map(({ r }) => r);
  const lines = [c.bold.red(`Failures (${failed.length})`)];
  let group = '';
  for (const r of sorted) {
    const key = `${rank(r)} ${primaryRule(r)}`;
    if (group && key !== group) lines.push('');
    group = key;
    lines.push(...withReproduce(r, c));
  }
  return lines;
}

function withReproduce(r: CheckResult, c: ChalkInstance): string[] {
  const lines = [resultLine(r, c)];
  const curl = r.evidence[0]?.curl;
  if (curl) lines.push(`  ${c.dim('Reproduce:')} ${visible(curl, true)}`);
  return lines;
}

function erroredBlock(results: CheckResult[], c: ChalkInstance): string[] {
  const errored = results.filter((r) => r.status === 'errored');
  if (errored.length === 0) return [];
  return [c.bold.magenta(`Errored (${errored.length})`), ...errored.flatMap((r) => withReproduce(r, c))];
}

function waivedBlock(results: CheckResult[], c: ChalkInstance): string[] {
  const waived = results.filter((r) => r.status === 'waived');
  if (waived.length === 0) return [];
  return [c.bold.cyan(`Waived (${waived.length})`), ...waived.map((r) => resultLine(r, c))];
}

/** Skips collapsed to counts per reason (most frequent first); `verbose` lists each one. */
function skippedBlock(results: CheckResult[], c: ChalkInstance, verbose: boolean): string[] {
  const skipped = results.filter((r) => r.status === 'skipped');
  if (skipped.length === 0) return [];
  const lines = [c.bold(`Skipped (${skipped.length})`)];
  if (verbose) return [...lines, ...skipped.map((r) => `  ${resultLine(r, c)}`)];
  const byReason = new Map<string, number>();
  for (const r of skipped) {
    const why = truncate(visible(firstLine(r.message)), REASON_LIMIT) || 'no reason given';
    byReason.set(why, (byReason.get(why) ?? 0) + 1);
  }
  const sorted = [...byReason].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return [...lines, ...sorted.map(([why, n]) => `  ${String(n).padStart(3)} × ${why}`)];
}

/** Declared paths (from an OpenAPI document) the audit did not probe, with the reason. */
function notProbedBlock(run: RunResult, c: ChalkInstance): string[] {
  const paths = run.notProbed ?? [];
  if (paths.length === 0) return [];
  return [
    c.bold(`Not probed (${paths.length})`),
    ...paths.map((p) => `  ${visible(p.path)}: ${visible(firstLine(p.reason))}`),
  ];
}

function cleanupBlock(run: RunResult, c: ChalkInstance): string[] {
  const leftovers = run.cleanup?.leftovers ?? [];
  if (leftovers.length === 0) return [];
  return [
    c.yellow.bold(
      `⚠ Cleanup: ${plural(leftovers.length, 'resource')} the audit created could not be deleted`,
    ),
    ...leftovers.map((l) =>
      c.yellow(`  ${visible(l.resource)} ${visible(l.url)}: ${visible(firstLine(l.reason))}`),
    ),
  ];
}

/** `42 passed, 3 failed, 5 skipped, 0 errored (812 requests in 1.8 s)`, plus waived/shard/interrupted. */
export function summaryLine(run: RunResult, color: boolean): string {
  const c = painter(color);
  const s = run.summary;
  const parts = [
    c.green(`${s.passed} passed`),
    s.failed > 0 ? c.red.bold(`${s.failed} failed`) : `${s.failed} failed`,
    `${s.skipped} skipped`,
    s.errored > 0 ? c.magenta.bold(`${s.errored} errored`) : `${s.errored} errored`,
  ];
  if (s.waived > 0) parts.push(c.cyan(`${s.waived} waived`));
  let line = `${parts.join(', ')} (${plural(s.requests, 'request')} in ${humanDuration(run.durationMs)})`;
  if (run.shard) line += `, shard ${run.shard.index}/${run.shard.total}`;
  if (run.interrupted) line += c.yellow.bold(' — interrupted: results are incomplete');
  return line;
}

/**
 * The whole console report: failures, errors, (verbose: passes,) waivers, skips, cleanup, summary.
 * `quiet`: failures, errors and the summary line only.
 */
export function renderConsole(run: RunResult, options: ReporterOptions): string {
  const c = painter(options.color);
  const blocks: string[][] = [failureBlock(run.results, c), erroredBlock(run.results, c)];
  if (!options.quiet) {
    if (options.verbose) {
      const passed = run.results.filter((r) => r.status === 'passed');
      if (passed.length > 0)
        blocks.push([c.bold.green(`Passed (${passed.length})`), ...passed.map((r) => resultLine(r, c))]);
    }
    blocks.push(waivedBlock(run.results, c), skippedBlock(run.results, c, options.verbose ?? false));
    blocks.push(notProbedBlock(run, c), cleanupBlock(run, c));
  }
  blocks.push([summaryLine(run, options.color)]);
  return `${blocks
    .filter((b) => b.length > 0)
    .map((b) => b.join('\n'))
    .join('\n\n')}\n`;
}

/** Printed to stdout by the CLI; writes no file. */
export const consoleReporter: Reporter = {
  name: 'console',
  render: renderConsole,
};
