// HTML report (report.html): one self-contained page — summary, rule × resource matrix, failures with evidence.
import { createHash } from 'node:crypto';
import { RULES } from '../core/rules.js';
import type { CheckResult, RunResult, Severity } from '../core/types.js';
import { firstLine, humanDuration, messageHead, plural, truncate, visible } from './format.js';
import { STYLE, SCRIPT } from './html-assets.js';
import { evidenceBlock, problemList } from './html-evidence.js';
import { fragment, h, trusted, type Child, type Html } from './html-build.js';
import { API_WIDE, buildMatrix, outcomeCounts, outcomeOf, type Matrix, type Outcome } from './matrix.js';
import type { Reporter, ReporterOptions } from './types.js';
import { verdictOf, type Verdict } from './verdict.js';

const SYMBOL: Record<Outcome, string> = {
  failed: '✗',
  errored: '!',
  warning: '⚠',
  waived: '~',
  passed: '✓',
  skipped: '–',
};

/** The status filter's choices: outcomes, so warnings can be shown apart from failures. */
const STATUSES: readonly Outcome[] = ['failed', 'warning', 'errored', 'waived', 'passed', 'skipped'];

/** Each rule's statement, shown beside its id in the matrix. */
const STATEMENTS = new Map(RULES.map((r) => [r.id, r.statement]));

/** Filter key of a result's resource: `r:<name>`, or `api` for API-wide results. */
function resourceKey(resource: string | undefined): string {
  return resource === undefined || resource === API_WIDE ? 'api' : `r:${resource}`;
}

function filterAttrs(r: CheckResult): Record<string, string> {
  return {
    // The outcome, not the status: the status filter tells warnings from failures.
    'data-status': outcomeOf(r),
    'data-rules': r.rules.join(' '),
    'data-resource': resourceKey(r.resource),
  };
}

function badge(r: CheckResult): Html {
  const outcome = outcomeOf(r);
  return h('span', { class: `badge ${outcome}` }, `${SYMBOL[outcome]} ${outcome}`);
}

/** Text from the service: controls shown as \xNN, line breaks kept. */
function shown(text: string): string {
  return visible(text, true);
}

/** `2 checks failed and 1 warning`, judged by --fail-on like the exit code. */
function verdictText(v: Verdict): string {
  const warnings = plural(v.warnings, 'warning');
  const failing = v.warningsFail && v.warnings > 0 ? ' (failing: --fail-on warning)' : '';
  if (v.failed === 0) return v.warnings > 0 ? `No check failed; ${warnings}${failing}` : 'No check failed';
  return `${plural(v.failed, 'check')} failed${v.warnings > 0 ? ` and ${warnings}${failing}` : ''}`;
}

function headerBlock(run: RunResult, verdict: Verdict): Html {
  const meta = [
    `${run.tool.name} ${run.tool.version}`,
    `started ${run.startedAt}`,
    humanDuration(run.durationMs),
    plural(run.summary.requests, 'request'),
    ...(run.shard ? [`shard ${run.shard.index}/${run.shard.total}`] : []),
  ].join(' · ');
  const leftovers = run.cleanup?.leftovers ?? [];
  return h(
    'header',
    {},
    h('h1', {}, 'Conformance report'),
    h('p', { class: 'target' }, h('code', {}, shown(run.target.baseUrl))),
    h('p', { class: 'meta' }, meta),
    h('p', { class: `verdict ${verdict.level}` }, verdictText(verdict)),
    run.interrupted && h('p', { class: 'notice' }, 'The run was interrupted: results are incomplete.'),
    leftovers.length > 0 &&
      h(
        'p',
        { class: 'notice' },
        `Cleanup: ${plural(leftovers.length, 'item')} the audit created could not be deleted (see below).`,
      ),
  );
}

function summaryBlock(run: RunResult, verdict: Verdict): Html {
  const s = run.summary;
  const item = (cls: string, n: number, label: string) =>
    h('li', { class: `count ${cls}`, 'data-count': cls }, h('span', { class: 'n' }, n), label);
  return section(
    'summary',
    'Summary',
    h(
      'ul',
      { class: 'counts' },
      item('passed', s.passed, 'passed'),
      item('failed', verdict.failed, 'failed'),
      item('warning', verdict.warnings, 'warnings'),
      item('skipped', s.skipped, 'skipped'),
      item('errored', s.errored, 'errored'),
      item('waived', s.waived, 'waived'),
      item('total', s.total, 'total'),
    ),
  );
}

function cellLink(matrix: Matrix, rule: string, column: string, ids: Map<CheckResult, string>): Html {
  const cell = matrix.cell(rule, column);
  const col = resourceKey(column);
  if (!cell) return h('td', { class: 'none', 'data-col': col, title: 'not checked here' }, '·');
  const counts = outcomeCounts(cell);
  const worst = cell.results.find((r) => outcomeOf(r) === cell.outcome)!;
  const title = cell.results.map((r) => `${r.checkId}: ${outcomeOf(r)}`).join('\n');
  // Mixed outcomes are spelled out; several results with one outcome are just counted.
  const many = cell.results.length > 1 ? `${cell.results.length} checks` : '';
  const detail = counts.length > 1 ? counts.map(([o, n]) => `${n} ${o}`).join(', ') : many;
  return h(
    'td',
    { class: `cell ${cell.outcome}`, 'data-col': col, title },
    h(
      'a',
      { href: `#${ids.get(worst)}` },
      `${SYMBOL[cell.outcome]} ${cell.outcome}`,
      detail && h('span', { class: 'k' }, detail),
    ),
  );
}

function matrixBlock(results: CheckResult[], ids: Map<CheckResult, string>): Html {
  const matrix = buildMatrix(results);
  const legend = h(
    'ul',
    { class: 'legend', 'aria-label': 'Legend' },
    (['failed', 'warning', 'errored', 'waived', 'passed', 'skipped'] as Outcome[]).map((o) =>
      h('li', { class: `badge ${o}` }, `${SYMBOL[o]} ${o}`),
    ),
    h('li', { class: 'muted' }, '· not checked'),
  );
  const head = h(
    'tr',
    {},
    h('th', { scope: 'col' }, 'Rule'),
    matrix.columns.map((c) => h('th', { scope: 'col', 'data-col': resourceKey(c.key) }, shown(c.label))),
  );
  const rows = matrix.rules.map((rule) =>
    h(
      'tr',
      { 'data-rule': rule },
      h(
        'th',
        { scope: 'row' },
        h('code', {}, rule),
        STATEMENTS.has(rule) && h('span', { class: 'rule-title' }, STATEMENTS.get(rule)),
      ),
      matrix.columns.map((c) => cellLink(matrix, rule, c.key, ids)),
    ),
  );
  return section(
    'matrix',
    'Rules × resources',
    legend,
    results.length === 0
      ? h('p', { class: 'muted' }, 'No check ran.')
      : h(
          'div',
          { class: 'matrix-wrap' },
          h('table', { class: 'matrix' }, h('thead', {}, head), h('tbody', {}, rows)),
        ),
  );
}

function resultHeading(r: CheckResult): Html {
  return h(
    'h3',
    {},
    badge(r),
    ' ',
    h('code', {}, r.checkId),
    r.resource !== undefined ? ` · ${shown(r.resource)}` : ' · API-wide',
    ' · ',
    r.rules.join(', '),
  );
}

function problemArticle(r: CheckResult, id: string): Html {
  return h(
    'article',
    { class: `result ${outcomeOf(r)}`, id, ...filterAttrs(r) },
    resultHeading(r),
    h('p', { class: 'title' }, r.title),
    r.waiver &&
      h(
        'p',
        { class: 'waiver' },
        `${r.status === 'waived' ? 'Waived' : 'Waiver expired'}: ${shown(r.waiver.reason)} (until ${r.waiver.expires})`,
      ),
    // With every problem listed below, the message is shown up to where it starts numbering them.
    h('pre', { class: 'message' }, shown(messageHead(r) ?? r.message ?? r.title)),
    problemList(r),
    r.evidence.map((e, i) => evidenceBlock(e, i, r.evidence.length)),
    reproBlock(r, id),
  );
}

/**
 * The failure's reproduction script (folded; a copy button when JavaScript runs) and the command
 * that runs the check again alone. The script has no control characters (quoted as $'\x01').
 */
function reproBlock(r: CheckResult, id: string): Html | undefined {
  if (r.reproduce === undefined && r.rerun === undefined) return undefined;
  return h(
    'details',
    { class: 'repro' },
    h('summary', {}, 'Reproduce it: a script that sets up the state, replays the requests and cleans up'),
    r.rerun && h('p', {}, 'Run this check again alone: ', h('code', {}, r.rerun)),
    r.reproduce &&
      fragment(
        h('button', { type: 'button', 'data-copy': `${id}-script`, hidden: true }, 'Copy script'),
        h('pre', { class: 'curl', id: `${id}-script` }, h('code', {}, r.reproduce)),
      ),
  );
}

function problemsBlock(results: CheckResult[], ids: Map<CheckResult, string>): Html {
  // Errors first, then warnings, then checks that broke: what most likely needs a fix comes first.
  const rank: Partial<Record<Outcome, number>> = { failed: 0, warning: 1, errored: 2 };
  const failed = results
    .filter((r) => rank[outcomeOf(r)] !== undefined)
    .sort((a, b) => rank[outcomeOf(a)]! - rank[outcomeOf(b)]!);
  const waived = results.filter((r) => r.status === 'waived');
  return fragment(
    section(
      'failures',
      `Failures, warnings and errors (${failed.length})`,
      failed.length === 0 && h('p', { class: 'muted' }, 'None.'),
      failed.map((r) => problemArticle(r, ids.get(r)!)),
    ),
    waived.length > 0 &&
      section(
        'waived',
        `Waived (${waived.length})`,
        waived.map((r) => problemArticle(r, ids.get(r)!)),
      ),
  );
}

function resultsTable(results: CheckResult[], ids: Map<CheckResult, string>): Html {
  const rows = results.map((r, i) =>
    h(
      'tr',
      { id: ids.get(r) === `row-${i}` ? `row-${i}` : undefined, ...filterAttrs(r) },
      h('td', {}, badge(r)),
      h(
        'td',
        {},
        ids.get(r)?.startsWith('result-') ? h('a', { href: `#${ids.get(r)}` }, r.checkId) : r.checkId,
      ),
      h('td', {}, r.rules.join(', ')),
      h('td', {}, r.resource !== undefined ? shown(r.resource) : 'API-wide'),
      h('td', { class: 'msg' }, truncate(visible(firstLine(r.message) || r.title), 300)),
    ),
  );
  return section(
    'results',
    `All results (${results.length})`,
    h(
      'table',
      { class: 'results' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Status', 'Check', 'Rules', 'Resource', 'Detail'].map((t) => h('th', { scope: 'col' }, t)),
        ),
      ),
      h('tbody', {}, rows),
    ),
  );
}

function filterBar(results: CheckResult[]): Html {
  const rules = buildMatrix(results).rules;
  const resources = [...new Set(results.map((r) => r.resource))];
  const select = (id: string, label: string, options: Array<[string, string]>) =>
    h(
      'label',
      { for: id },
      label,
      h(
        'select',
        { id },
        h('option', { value: '' }, 'all'),
        options.map(([v, t]) => h('option', { value: v }, t)),
      ),
    );
  return h(
    'form',
    { id: 'filters', hidden: true, 'aria-label': 'Filters' },
    select(
      'f-status',
      'Status',
      STATUSES.map((s) => [s, s]),
    ),
    select(
      'f-rule',
      'Rule',
      rules.map((r) => [r, r]),
    ),
    select(
      'f-resource',
      'Resource',
      resources.map((r) => [resourceKey(r), r === undefined ? 'API-wide' : shown(r)]),
    ),
    h('button', { type: 'reset' }, 'Clear filters'),
    h('output', { id: 'f-count' }),
  );
}

/** Warnings about the run itself (e.g. a secret too short for its echoes to be redacted reliably). */
function notesBlock(run: RunResult): Html | false {
  return listSection('notes', 'Warnings about the run', (run.notes ?? []).map(shown));
}

function notProbedBlock(run: RunResult): Html | false {
  const paths = run.notProbed ?? [];
  return listSection(
    'not-probed',
    'Not probed',
    paths.map((p) => [h('code', {}, shown(p.path)), `: ${shown(p.reason)}`]),
  );
}

function cleanupBlock(run: RunResult): Html | false {
  const leftovers = run.cleanup?.leftovers ?? [];
  const errorBodies = run.cleanup?.deletedWithErrorBody ?? [];
  if (leftovers.length === 0 && errorBodies.length === 0) return false;
  const entries = (list: typeof leftovers): Html =>
    h(
      'ul',
      {},
      list.map((l) =>
        h('li', {}, h('code', {}, shown(l.url)), ` (${shown(l.resource)}): ${shown(l.reason)}`),
      ),
    );
  return section(
    'cleanup',
    leftovers.length > 0 ? `Cleanup leftovers (${leftovers.length})` : 'Cleanup',
    leftovers.length > 0 && entries(leftovers),
    errorBodies.length > 0 &&
      h(
        'p',
        {},
        `Deleted, but the read-back answers 2xx with an error body (see ERR-STATUS): ${plural(errorBodies.length, 'item')}`,
      ),
    errorBodies.length > 0 && entries(errorBodies),
  );
}

/** A titled section: `id` for links, its heading (`<id>-h`) labelling it for screen readers. */
function section(id: string, heading: string, ...children: Child[]): Html {
  return h('section', { id, 'aria-labelledby': `${id}-h` }, h('h2', { id: `${id}-h` }, heading), ...children);
}

/** A section listing one line per item, its count in the heading; nothing when there is none. */
function listSection(id: string, heading: string, items: Child[]): Html | false {
  if (items.length === 0) return false;
  return section(
    id,
    `${heading} (${items.length})`,
    h(
      'ul',
      {},
      items.map((item) => h('li', {}, item)),
    ),
  );
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** Anchor of each result: problems link to their article, the rest to their row in the table. */
function anchors(results: CheckResult[]): Map<CheckResult, string> {
  const ids = new Map<CheckResult, string>();
  results.forEach((r, i) =>
    ids.set(r, r.status === 'passed' || r.status === 'skipped' ? `row-${i}` : `result-${i}`),
  );
  return ids;
}

/**
 * The page. A Content-Security-Policy allows only this page's own style and script (by hash)
 * and no network at all, so even a mistake in escaping could not load or run anything.
 */
export function renderHtml(run: RunResult, options: { failOn?: Severity } = {}): string {
  const ids = anchors(run.results);
  const verdict = verdictOf(run, options.failOn);
  const csp = `default-src 'none'; style-src ${sha256(STYLE)}; script-src ${sha256(SCRIPT)}; img-src data:; base-uri 'none'; form-action 'none'`;
  const page = h(
    'html',
    { lang: 'en' },
    h(
      'head',
      {},
      h('meta', { charset: 'utf-8' }),
      h('meta', { 'http-equiv': 'Content-Security-Policy', content: csp }),
      h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
      h('title', {}, `Conformance report: ${visible(run.target.baseUrl)}`),
      h('style', {}, trusted(STYLE)),
    ),
    h(
      'body',
      {},
      headerBlock(run, verdict),
      summaryBlock(run, verdict),
      notesBlock(run),
      filterBar(run.results),
      matrixBlock(run.results, ids),
      problemsBlock(run.results, ids),
      resultsTable(run.results, ids),
      notProbedBlock(run),
      cleanupBlock(run),
      h('script', {}, trusted(SCRIPT)),
    ),
  );
  return `<!DOCTYPE html>\n${page.value}\n`;
}

/** `report.html`: self-contained (no network), readable without JavaScript, filterable with it. */
export const htmlReporter: Reporter = {
  name: 'html',
  fileName: 'report.html',
  render: (result, options: ReporterOptions) => renderHtml(result, options),
};
