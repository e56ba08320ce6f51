// Console report: failures, then warnings (grouped by check, with a curl line), errors, skips, cleanup, summary.
import { Chalk, type ChalkInstance } from 'chalk';
import type { CheckResult, RunResult, Severity } from '../core/types.js';
import {
  checkHead,
  lineStyle,
  mark,
  messageLines,
  reasonLines,
  reproduceLines,
  resultLines,
  type LineStyle,
} from './console-lines.js';
import { firstLine, humanDuration, plural, visible } from './format.js';
import type { Reporter, ReporterOptions } from './types.js';
import { isWarning, verdictOf } from './verdict.js';
import { ranInsecure } from '../core/insecure.js';
import { urlPath } from '../core/verdicts.js';
import { compareRules } from './matrix.js';

function painter(color: boolean): ChalkInstance {
  return new Chalk({ level: color ? 1 : 0 });
}

/** One plain line per result, for non-TTY output while the run goes on: `✗ RULE check resource: reason`. */
export function formatResultLine(r: CheckResult, color: boolean): string {
  return resultLines(r, painter(color), { verbose: false, files: undefined })[0];
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

/** Where a result is: its resource, or API-wide. */
function where(r: CheckResult): string {
  return r.resource ?? 'API-wide';
}

/**
 * One block for the failures of one check on several resources (one cause often shows on
 * every resource: an HTML error page fails GEN-JSON everywhere). Identical reasons are written
 * once; different ones one line per resource. One Reproduce line, and the count of the others.
 */
function groupLines(group: CheckResult[], c: ChalkInstance, style: LineStyle, inWarnings: boolean): string[] {
  const [first] = group;
  const lines =
    group.length === 1 ? resultLines(first, c, style, inWarnings) : groupHead(group, c, style, inWarnings);
  return [...lines, ...reproduceLines(group, c, style)];
}

function groupHead(group: CheckResult[], c: ChalkInstance, style: LineStyle, inWarnings: boolean): string[] {
  const [first] = group;
  const head = `${mark(first, c)} ${checkHead(first, c)} on ${group
    .map(where)
    .map((w) => visible(w))
    .join(', ')}`;
  const same = group.every((r) => (r.message ?? '').trim() === (first.message ?? '').trim());
  if (same) {
    const [reason, ...rest] = reasonLines(first, style, inWarnings);
    return [`${head}: ${reason}`, ...rest.map((l) => `    ${l}`)];
  }
  return [
    `${head}:`,
    ...group.flatMap((r) => {
      const [reason, ...rest] = messageLines(r.message?.trim() ? r.message : r.title, r, style);
      return [`    ${visible(where(r))}: ${reason}`, ...rest.map((l) => `      ${l}`)];
    }),
  ];
}

/**
 * Failed results of one severity, grouped by check: root causes first, then in the order of
 * their first rule id in CONVENTIONS.md, then of the run; a blank line between rules.
 */
function groupedLines(
  failed: CheckResult[],
  c: ChalkInstance,
  style: LineStyle,
  inWarnings: boolean,
): string[] {
  const sorted = failed
    .map((r, i) => ({ r, i }))
    // Root causes first, then by rule in the order of CONVENTIONS.md (reading, creating, changing...).
    .sort(
      (a, b) =>
        Number(a.r.followsFrom !== undefined) - Number(b.r.followsFrom !== undefined) ||
        compareRules(primaryRule(a.r), primaryRule(b.r)) ||
        a.i - b.i,
    )
    .map(({ r }) => r);
  const groups = new Map<string, CheckResult[]>();
  // Appended in place: a copy of the group per result made 20,000 failures of one check take 2 s.
  for (const r of sorted) {
    const group = groups.get(r.checkId);
    if (group) group.push(r);
    else groups.set(r.checkId, [r]);
  }
  const lines: string[] = [];
  let rule: string | undefined;
  for (const group of groups.values()) {
    if (rule !== undefined && primaryRule(group[0]) !== rule) lines.push('');
    rule = primaryRule(group[0]);
    // One by one: a check failing on 10,000 resources gives more lines than a call takes as arguments.
    for (const line of groupLines(group, c, style, inWarnings)) lines.push(line);
  }
  return lines;
}

/** Failures of error severity: they fail the run. */
function failureBlock(results: CheckResult[], c: ChalkInstance, style: LineStyle): string[] {
  const failed = results.filter((r) => r.status === 'failed' && !isWarning(r));
  if (failed.length === 0) return [];
  return [c.bold.red(`Failures (${failed.length})`), ...groupedLines(failed, c, style, false)];
}

/** Failures of warning severity: they fail the run only under --fail-on warning, and the heading says which. */
function warningBlock(
  results: CheckResult[],
  c: ChalkInstance,
  style: LineStyle,
  failOn: Severity,
): string[] {
  const warnings = results.filter(isWarning);
  if (warnings.length === 0) return [];
  const effect = failOn === 'warning' ? 'failing the run: --fail-on warning' : 'not failing the run';
  return [
    c.bold.yellow(`Warnings (${warnings.length}, ${effect})`),
    ...groupedLines(warnings, c, style, true),
  ];
}

function erroredBlock(results: CheckResult[], c: ChalkInstance, style: LineStyle): string[] {
  const errored = results.filter((r) => r.status === 'errored');
  if (errored.length === 0) return [];
  return [
    c.bold.magenta(`Errored (${errored.length})`),
    ...errored.flatMap((r) => [...resultLines(r, c, style), ...reproduceLines([r], c, style)]),
  ];
}

function waivedBlock(results: CheckResult[], c: ChalkInstance, style: LineStyle): string[] {
  const waived = results.filter((r) => r.status === 'waived');
  if (waived.length === 0) return [];
  return [c.bold.cyan(`Waived (${waived.length})`), ...waived.flatMap((r) => resultLines(r, c, style))];
}

/** Skips collapsed to counts per reason (most frequent first); `verbose` lists each one. */
function skippedBlock(results: CheckResult[], c: ChalkInstance, style: LineStyle): string[] {
  const skipped = results.filter((r) => r.status === 'skipped');
  if (skipped.length === 0) return [];
  const lines = [c.bold(`Skipped (${skipped.length})`)];
  if (style.verbose)
    return [...lines, ...skipped.flatMap((r) => resultLines(r, c, style).map((l) => `  ${l}`))];
  const byReason = new Map<string, number>();
  for (const r of skipped) {
    const why = r.message?.trim() ? messageLines(r.message, r, style)[0] : 'no reason given';
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

/** Items of one resource that cleanup handled the same way, for one line of the console. */
interface CleanupGroup {
  resource: string;
  reason: string;
  urls: string[];
}

/** Cleanup items grouped by resource, then by reason, in the order first met. */
function cleanupGroups(
  items: ReadonlyArray<{ resource: string; url: string; reason: string }>,
): CleanupGroup[] {
  const groups = new Map<string, CleanupGroup>();
  for (const item of items) {
    const reason = firstLine(item.reason);
    const key = JSON.stringify([item.resource, reason]);
    const group = groups.get(key) ?? { resource: item.resource, reason, urls: [] };
    group.urls.push(item.url);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) =>
    a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0,
  );
}

/** URLs a cleanup group names on the console; the JSON report (and --verbose) names every one. */
const CLEANUP_URLS_SHOWN = 3;

/**
 * One line per resource and reason (`widgets, 25 items: <reason>`) and one naming the first few
 * items: a run that left 40 items must not bury its failures. --verbose names every item.
 */
function cleanupLines(
  items: ReadonlyArray<{ resource: string; url: string; reason: string }>,
  style: LineStyle,
): string[] {
  return cleanupGroups(items).flatMap((g) => {
    const head = `  ${visible(g.resource)}, ${plural(g.urls.length, 'item')}: ${visible(g.reason)}`;
    const shown = style.verbose ? g.urls : g.urls.slice(0, CLEANUP_URLS_SHOWN);
    const more = g.urls.length - shown.length;
    const where = style.files?.json
      ? ` (every one in ${style.files.json}, or with --verbose)`
      : ' (--verbose names every one)';
    const tail = more > 0 ? `, and ${more} more${where}` : '';
    // Paths as the failure messages spell them; the JSON report keeps each full URL.
    return [head, `    ${shown.map((u) => visible(urlPath(u))).join(', ')}${tail}`];
  });
}

function cleanupBlock(run: RunResult, c: ChalkInstance, style: LineStyle): string[] {
  const leftovers = run.cleanup?.leftovers ?? [];
  const recovered = run.cleanup?.recovered ?? [];
  const errorBodies = run.cleanup?.deletedWithErrorBody ?? [];
  return [
    ...(errorBodies.length === 0
      ? []
      : [
          c.bold(
            `Cleanup: deleted ${plural(errorBodies.length, 'item')} whose read-back answers 2xx with an error body (see ERR-STATUS)`,
          ),
          ...cleanupLines(errorBodies, style),
        ]),
    ...(recovered.length === 0
      ? []
      : [
          c.bold(
            `Cleanup: found and deleted ${plural(recovered.length, 'item')} a create stored without naming ${recovered.length === 1 ? 'it' : 'them'}`,
          ),
          ...cleanupLines(recovered, style),
        ]),
    ...(leftovers.length === 0
      ? []
      : [
          c.yellow.bold(
            `⚠ Cleanup: ${plural(leftovers.length, 'item')} the audit created could not be deleted`,
          ),
          ...cleanupLines(leftovers, style).map((l) => c.yellow(l)),
        ]),
  ];
}

/**
 * `42 passed, 1 failed, 2 warnings, 5 skipped, 0 errored (812 requests in 1.8 s)`, plus
 * waived/shard/interrupted. "failed" counts what fails the run at error severity; warnings are
 * counted apart, and said to fail the run under `--fail-on warning`.
 */
export function summaryLine(run: RunResult, color: boolean, failOn: Severity = 'error'): string {
  const c = painter(color);
  const s = run.summary;
  const v = verdictOf(run, failOn);
  const warnings = `${plural(v.warnings, 'warning')}${v.warningsFail && v.warnings > 0 ? ' (failing: --fail-on warning)' : ''}`;
  const parts = [
    c.green(`${s.passed} passed`),
    v.failed > 0 ? c.red.bold(`${v.failed} failed`) : `${v.failed} failed`,
    v.warnings > 0 ? c.yellow.bold(warnings) : warnings,
    `${s.skipped} skipped`,
    s.errored > 0 ? c.magenta.bold(`${s.errored} errored`) : `${s.errored} errored`,
  ];
  if (s.waived > 0) parts.push(c.cyan(`${s.waived} waived`));
  let line = `${parts.join(', ')} (${plural(s.requests, 'request')} in ${humanDuration(run.durationMs)})`;
  if (run.shard) line += `, shard ${run.shard.index}/${run.shard.total}`;
  if (run.interrupted) line += c.yellow.bold(' — interrupted: results are incomplete');
  if (ranInsecure(run))
    line += c.red.bold(' — TLS certificates NOT verified (--insecure): nothing proves which server answered');
  if (v.noValidAnswer)
    line += c.red.bold(
      ` — the service gave no valid HTTP answer to any of the ${plural(s.requests, 'request')}: nothing could be judged, the run fails`,
    );
  return line;
}

/**
 * The whole console report: failures, warnings, errors, (verbose: passes,) waivers, skips,
 * cleanup, summary. `quiet`: failures, warnings, errors and the summary line only.
 */
export function renderConsole(run: RunResult, options: ReporterOptions): string {
  const c = painter(options.color);
  const style = lineStyle(options);
  const failOn = options.failOn ?? 'error';
  const blocks: string[][] = [
    failureBlock(run.results, c, style),
    warningBlock(run.results, c, style, failOn),
    erroredBlock(run.results, c, style),
  ];
  if (!options.quiet) {
    if (options.verbose) {
      const passed = run.results.filter((r) => r.status === 'passed');
      if (passed.length > 0)
        blocks.push([
          c.bold.green(`Passed (${passed.length})`),
          ...passed.flatMap((r) => resultLines(r, c, style)),
        ]);
    }
    blocks.push(waivedBlock(run.results, c, style), skippedBlock(run.results, c, style));
    blocks.push(notProbedBlock(run, c), cleanupBlock(run, c, style));
  }
  blocks.push([summaryLine(run, options.color, failOn)]);
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
