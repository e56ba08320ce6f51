// Markdown summary (summary.md) for a CI job summary: totals, the rule × resource table, first failures with curl.
import type { CheckResult, RunResult, Severity } from '../core/types.js';
import { firstLine, humanDuration, plural, truncate, visible } from './format.js';
import { buildMatrix, outcomeCounts, outcomeOf, type Outcome } from './matrix.js';
import type { Reporter, ReporterOptions } from './types.js';
import { verdictOf } from './verdict.js';

/** Longest script shown (characters); the JSON report and --reporter repro have every one. */
const SCRIPT_LIMIT = 20_000;

/** Failures shown in full (message and curl line); the rest are counted. */
export const MARKDOWN_FAILURE_LIMIT = 10;

/** Longest message and curl line shown (characters): GitHub caps a job summary at 1 MiB. */
const MESSAGE_LIMIT = 1500;
const CURL_LIMIT = 3000;

const ICON: Record<Outcome, string> = {
  failed: '❌',
  errored: '💥',
  warning: '⚠️',
  waived: '🔕',
  passed: '✅',
  skipped: '⏭️',
};

// Characters with a meaning in Markdown or HTML: backslash-escaped so text reads as written.
const MARKDOWN_SPECIAL = /[\\`*_{}[\]<>()#+!|~&$]/g;

/** Text for a heading, list item or table cell: one line, controls shown, Markdown characters escaped. */
export function mdText(text: string): string {
  return visible(text.replace(/\r\n|\r|\n/g, ' ')).replace(MARKDOWN_SPECIAL, (c) => `\\${c}`);
}

/** A fenced code block whose fence is longer than any run of backticks inside it. */
export function mdCode(text: string, lang = ''): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${visible(text, true)}\n${fence}`;
}

function where(r: CheckResult): string {
  return r.resource !== undefined ? mdText(r.resource) : 'API-wide';
}

/**
 * ❌ when the run fails under --fail-on (as the exit code does), 💥 when checks broke, ⚠️ when
 * only warnings (which do not fail it) were found, ✅ otherwise.
 */
function headline(run: RunResult, failOn: Severity): string {
  const v = verdictOf(run, failOn);
  const target = mdText(run.target.baseUrl);
  const warnings = plural(v.warnings, 'warning');
  if (v.level === 'failed') {
    if (v.failed === 0) return `## ❌ Conformance: ${warnings} on ${target} (failing: --fail-on warning)`;
    const also =
      v.warnings > 0 ? ` and ${warnings}${v.warningsFail ? ' (failing: --fail-on warning)' : ''}` : '';
    return `## ❌ Conformance: ${plural(v.failed, 'check')} failed${also} on ${target}`;
  }
  const also = v.warnings > 0 ? `, ${warnings}` : '';
  if (run.summary.errored > 0)
    return `## 💥 Conformance: ${plural(run.summary.errored, 'check')} errored${also} on ${target}`;
  if (v.level === 'warning') return `## ⚠️ Conformance: no check failed, ${warnings} on ${target}`;
  return `## ✅ Conformance: no check failed on ${target}`;
}

function totals(run: RunResult): string[] {
  const s = run.summary;
  const v = verdictOf(run);
  const lines = [
    '| Passed | Failed | Warnings | Skipped | Errored | Waived | Total | Requests | Duration |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${s.passed} | ${v.failed} | ${v.warnings} | ${s.skipped} | ${s.errored} | ${s.waived} | ${s.total} | ${s.requests} | ${humanDuration(run.durationMs)} |`,
  ];
  const notes: string[] = [];
  if (run.shard) notes.push(`Shard ${run.shard.index} of ${run.shard.total}.`);
  if (run.interrupted) notes.push('⚠️ The run was interrupted: results are incomplete.');
  for (const note of run.notes ?? []) notes.push(`⚠️ ${mdText(note)}`);
  return notes.length > 0 ? [...lines, '', ...notes] : lines;
}

/**
 * A counted list folded into <details> (GitHub renders it; the summary line shows the count), so
 * long lists of paths never push the failures down the page.
 */
function folded(summary: string, items: string[]): string[] {
  if (items.length === 0) return [];
  return ['<details>', `<summary>${summary}</summary>`, '', ...items, '', '</details>'];
}

/** What the audit created and could not delete: after the failures, folded and counted. */
function cleanupBlock(run: RunResult): string[] {
  const line = (l: { resource: string; url: string; reason: string }): string =>
    `- ${mdText(l.resource)} ${mdText(l.url)}: ${mdText(firstLine(l.reason))}`;
  const recovered = run.cleanup?.recovered ?? [];
  const leftovers = run.cleanup?.leftovers ?? [];
  const found = folded(
    `Cleanup: found and deleted ${plural(recovered.length, 'item')} a create stored without naming`,
    recovered.map(line),
  );
  const left = folded(
    `⚠️ Cleanup: ${plural(leftovers.length, 'item')} the audit created could not be deleted`,
    leftovers.map(line),
  );
  const errorBodies = run.cleanup?.deletedWithErrorBody ?? [];
  const odd = folded(
    `Cleanup: deleted ${plural(errorBodies.length, 'item')} whose read-back answers 2xx with an error body (see ERR-STATUS)`,
    errorBodies.map(line),
  );
  return [found, odd, left].filter((b) => b.length > 0).flatMap((b, i) => (i === 0 ? b : ['', ...b]));
}

/** Declared paths (from an OpenAPI document) that were not probed: after the failures, folded and counted. */
function notProbedBlock(run: RunResult): string[] {
  const notProbed = run.notProbed ?? [];
  return folded(
    `${plural(notProbed.length, 'declared path')} not probed`,
    notProbed.map((n) => `- ${mdText(n.path)}: ${mdText(firstLine(n.reason))}`),
  );
}

function matrixTable(results: CheckResult[]): string[] {
  if (results.length === 0) return ['### Rules × resources', '', 'No check ran.'];
  const matrix = buildMatrix(results);
  const cellText = (rule: string, column: string): string => {
    const cell = matrix.cell(rule, column);
    if (!cell) return '';
    const counts = outcomeCounts(cell);
    if (counts.length === 1 && cell.results.length === 1) return ICON[cell.outcome];
    return counts.map(([o, n]) => `${ICON[o]}${n}`).join(' ');
  };
  return [
    '### Rules × resources',
    '',
    `| Rule | ${matrix.columns.map((c) => mdText(c.label)).join(' | ')} |`,
    `|---|${matrix.columns.map(() => ':-:').join('|')}|`,
    ...matrix.rules.map(
      (rule) => `| \`${rule}\` | ${matrix.columns.map((c) => cellText(rule, c.key)).join(' | ')} |`,
    ),
    '',
    `${(Object.keys(ICON) as Outcome[]).map((o) => `${ICON[o]} ${o}`).join(' · ')} · blank: not checked`,
    '',
    'A number after an icon counts checks: `✅2 ⚠️1` = on that resource, two checks of the rule passed and one found a warning.',
  ];
}

function failureEntry(r: CheckResult): string[] {
  const heading = `#### ${ICON[outcomeOf(r)]} \`${r.checkId}\` · ${where(r)} · ${r.rules.map(mdText).join(', ')}`;
  const lines = [
    heading,
    '',
    mdText(r.title),
    '',
    mdCode(truncate(r.message ?? r.title, MESSAGE_LIMIT), 'text'),
  ];
  const curl = r.evidence[0]?.curl;
  if (curl) lines.push('', 'Reproduce:', '', mdCode(truncate(curl, CURL_LIMIT), 'sh'));
  if (r.evidence.length > 1) {
    const more = r.evidence.length - 1;
    lines.push('', `_${plural(more, 'more exchange')} in the JSON and HTML reports._`);
  }
  if (r.rerun) lines.push('', `Run this check again alone: \`${r.rerun}\``);
  if (r.reproduce && r.reproduce.length <= SCRIPT_LIMIT) {
    lines.push('', '<details><summary>Script that replays it, state and all</summary>', '');
    lines.push(mdCode(r.reproduce, 'sh'), '', '</details>');
  }
  return lines;
}

/** `1 failure, 2 warnings and 1 errored check`: what a failures section holds. */
function problemCounts(problems: CheckResult[]): string {
  const count = (o: Outcome) => problems.filter((r) => outcomeOf(r) === o).length;
  const parts = [
    count('failed') > 0 && plural(count('failed'), 'failure'),
    count('warning') > 0 && plural(count('warning'), 'warning'),
    count('errored') > 0 && `${count('errored')} errored ${count('errored') === 1 ? 'check' : 'checks'}`,
  ].filter((p): p is string => typeof p === 'string');
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0];
}

function failuresBlock(results: CheckResult[]): string[] {
  // Errors before warnings before errored checks: what most likely needs a fix comes first.
  const rank: Partial<Record<Outcome, number>> = { failed: 0, warning: 1, errored: 2 };
  const problems = results
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => rank[outcomeOf(r)] !== undefined)
    .sort((a, b) => rank[outcomeOf(a.r)]! - rank[outcomeOf(b.r)]! || a.i - b.i)
    .map(({ r }) => r);
  if (problems.length === 0) return [];
  const shown = problems.slice(0, MARKDOWN_FAILURE_LIMIT);
  const title =
    shown.length < problems.length
      ? `### ${problemCounts(problems)} (first ${shown.length} shown)`
      : `### ${problemCounts(problems)}`;
  const lines = [title];
  for (const r of shown) lines.push('', ...failureEntry(r));
  if (shown.length < problems.length) {
    lines.push('', `_${problems.length - shown.length} more in the JSON, JUnit and HTML reports._`);
  }
  return lines;
}

function waivedBlock(results: CheckResult[]): string[] {
  const waived = results.filter((r) => r.status === 'waived');
  if (waived.length === 0) return [];
  return [
    `### Waived (${waived.length})`,
    '',
    ...waived.map(
      (r) =>
        `- \`${r.checkId}\` · ${where(r)} · ${r.rules.map(mdText).join(', ')}: ${mdText(r.waiver?.reason ?? 'no reason given')} (until ${mdText(r.waiver?.expires ?? '?')})`,
    ),
  ];
}

/** The summary as Markdown (GitHub-flavoured: tables, fenced code); the headline judges by `failOn`. */
export function renderMarkdown(run: RunResult, options: Pick<ReporterOptions, 'failOn'> = {}): string {
  const blocks = [
    [headline(run, options.failOn ?? 'error'), '', ...totals(run)],
    matrixTable(run.results),
    failuresBlock(run.results),
    waivedBlock(run.results),
    // Failures first: what the audit left behind or did not probe follows, folded.
    cleanupBlock(run),
    notProbedBlock(run),
  ].filter((b) => b.length > 0);
  return `${blocks.map((b) => b.join('\n')).join('\n\n')}\n`;
}

/** `summary.md`; with `--reporter markdown` the CLI also appends it to `$GITHUB_STEP_SUMMARY` when set. */
export const markdownReporter: Reporter = {
  name: 'markdown',
  fileName: 'summary.md',
  stepSummary: true,
  render: (result, options) => renderMarkdown(result, options),
};
