// Console lines of single results: marks, one-line reasons cut with a pointer to the full text, Reproduce lines.
import type { ChalkInstance } from 'chalk';
import type { CheckResult } from '../core/types.js';
import { cutPoint, firstLine, messageHead, plural, visible } from './format.js';
import { reproFileName } from './repro.js';
import type { ReporterOptions } from './types.js';

/** Longest one-line reason printed; the JSON and JUnit reports (and --verbose) keep the whole message. */
export const REASON_LIMIT = 300;

/** How the lines are written: whole messages or cut ones, and where the cut text can be read. */
export interface LineStyle {
  verbose: boolean;
  /** Report files of the run by reporter name; undefined when not known (rendered outside the CLI). */
  files: Record<string, string> | undefined;
}

/** The style of a console report rendered with these options. */
export function lineStyle(options: ReporterOptions): LineStyle {
  return { verbose: options.verbose ?? false, files: options.reportFiles };
}

/**
 * Where a cut message can be read whole: the JSON or JUnit report (they keep every message),
 * the HTML report (it keeps those of failures, errors and waivers), or else --verbose.
 */
function messageHome(r: CheckResult, style: LineStyle): string {
  if (!style.files) return 'full message in the JSON report';
  const html = r.status === 'skipped' || r.status === 'passed' ? undefined : style.files.html;
  const file = style.files.json ?? style.files.junit ?? html;
  return file ? `full message in ${file}` : '--verbose prints it whole';
}

/** Where the exchanges the console does not show are: the JSON and HTML reports of the run. */
function exchangesHome(style: LineStyle): string {
  if (!style.files) return 'in the JSON and HTML reports';
  const files = [style.files.json, style.files.html].filter((f): f is string => f !== undefined);
  if (files.length === 0 && style.files.junit) files.push(style.files.junit);
  return files.length > 0
    ? `in ${files.join(' and ')}`
    : 'in the JSON and HTML reports (--reporter json,html writes them)';
}

/** Problems a message numbers before "… and N more" (src/engine/results.ts joinMessages). */
const NUMBERED_IN_MESSAGE = 5;

/** How many distinct problems a result found, those left out of its list included. */
function problemCount(r: CheckResult): number {
  return (r.problems?.length ?? 0) + (r.problemsDropped ?? 0);
}

/** Where every problem of a result can be read: the report files that list them all, and --verbose. */
function problemsHome(r: CheckResult, style: LineStyle): string {
  const home = messageHome(r, style);
  const where = home.startsWith('full message in ') ? home.slice('full message in '.length) : undefined;
  return where ? `every one in ${where}, or with --verbose` : 'every one with --verbose';
}

/**
 * A verbose message with several problems: its head ("37 problems:", "3 of 54 responses broke
 * the rule:"), then every problem on a line of its own, numbered, and how many were not kept.
 */
function problemLines(full: string, r: CheckResult): string[] {
  const problems = r.problems ?? [];
  const oneLine = (text: string): string => visible(text.replace(/\s*(\r\n|\r|\n)\s*/g, ' '));
  // The message numbers the first problems after its head: print the head, then the whole list.
  const cut = messageHead(r);
  const head =
    cut !== undefined && full === r.message?.trim()
      ? [oneLine(cut)]
      : [...full.split(/\r\n|\r|\n/).map((l) => visible(l.trimEnd())), 'every problem:'];
  const dropped = r.problemsDropped
    ? [`… and ${r.problemsDropped} more, not kept (a result keeps the first ${problems.length})`]
    : [];
  return [...head, ...problems.map((p, i) => `(${i + 1}) ${oneLine(p)}`), ...dropped];
}

/**
 * A message as console lines. Verbose: every line of it, whole, and every problem of a result
 * that found several. Otherwise its first line, cut at REASON_LIMIT; when anything was left out
 * (the rest of a long line, later lines, problems the message does not number) it says how much
 * and where it is.
 */
export function messageLines(message: string, r: CheckResult, style: LineStyle): string[] {
  const full = message.trim();
  const own = message === r.message && (r.problems?.length ?? 0) > 1;
  if (style.verbose) {
    return own ? problemLines(full, r) : full.split(/\r\n|\r|\n/).map((l) => visible(l.trimEnd()));
  }
  const first = firstLine(full);
  // Never a surrogate pair cut in half, nor an id or UUID where the cut can move before it.
  const end = cutPoint(first, REASON_LIMIT);
  const shown = visible(first.slice(0, end));
  const left = full.length - end;
  const count = problemCount(r);
  if (own && (left > 0 || count > NUMBERED_IN_MESSAGE)) {
    // Point at the list, which holds every problem: the message only numbers the first few.
    return [`${shown}${left > 0 ? '…' : ''} [${count} problems: ${problemsHome(r, style)}]`];
  }
  if (left === 0) return [shown];
  const note = `… [${plural(left, 'more character')}; ${messageHome(r, style)}]`;
  // A note longer than what it hides saves nothing: print the whole message, its lines joined.
  const whole = visible(
    full
      .split(/\r\n|\r|\n/)
      .map((l) => l.trim())
      .filter((l) => l !== '')
      .join(' '),
  );
  return [whole.length - shown.length <= note.length ? whole : `${shown}${note}`];
}

/** ✓ ✗ ⚠ ! ~ - by outcome. */
export function mark(r: CheckResult, c: ChalkInstance): string {
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

/**
 * The reason lines: labelled for everything but failures (`skipped: ...`); a failed warning is
 * labelled `warning:` unless `inWarnings` (it is listed under a Warnings heading already).
 */
export function reasonLines(r: CheckResult, style: LineStyle, inWarnings = false): string[] {
  const text = (fallback: string) => messageLines(r.message?.trim() ? r.message : fallback, r, style);
  const label = (prefix: string, lines: string[]) => [`${prefix}${lines[0]}`, ...lines.slice(1)];
  switch (r.status) {
    case 'failed':
      return r.severity === 'warning' && !inWarnings ? label('warning: ', text(r.title)) : text(r.title);
    case 'errored':
      return label('errored: ', text('the check broke'));
    case 'skipped':
      return label('skipped: ', text('no reason given'));
    case 'waived': {
      const until = r.waiver?.expires ? ` (until ${r.waiver.expires})` : '';
      return [`waived: ${visible(r.waiver?.reason ?? 'no reason given')}${until}`];
    }
    default:
      return [];
  }
}

/** `RULES checkId`: what every result line starts with after its mark. */
export function checkHead(r: CheckResult, c: ChalkInstance): string {
  return `${c.bold(r.rules.join(',') || '-')} ${r.checkId}`;
}

/** `✗ RULE check resource: reason`, with the rest of a verbose message indented below. */
export function resultLines(
  r: CheckResult,
  c: ChalkInstance,
  style: LineStyle,
  inWarnings = false,
): string[] {
  const head = [mark(r, c), checkHead(r, c), ...(r.resource ? [r.resource] : [])].join(' ');
  const [first, ...rest] = reasonLines(r, style, inWarnings);
  if (first === undefined) return [head];
  return [`${head}: ${first}`, ...rest.map((l) => `    ${l}`)];
}

/**
 * The curl line of the first exchange of these results, and how many more exchanges they hold
 * and where (a multi-step failure's later requests, or the other resources of a group).
 */
export function reproduceLines(results: CheckResult[], c: ChalkInstance, style: LineStyle): string[] {
  const curl = results.flatMap((r) => r.evidence.map((e) => e.curl)).find((x) => x);
  if (!curl) return [];
  const lines = [`  ${c.dim('Reproduce:')} ${visible(curl, true)}`];
  const more = results.reduce((n, r) => n + r.evidence.length, 0) - 1;
  if (more > 0) lines.push(`  ${c.dim(`+ ${plural(more, 'more exchange')} ${exchangesHome(style)}`)}`);
  return [...lines, ...scriptLines(results, c, style)];
}

/**
 * Where the script that replays each of these failures is (state and all), and how to run the
 * check again alone, per resource when a group spans several; under --verbose the scripts too.
 */
function scriptLines(results: CheckResult[], c: ChalkInstance, style: LineStyle): string[] {
  const scripted = results.filter((x) => x.reproduce !== undefined);
  const reruns = results.filter((x) => x.rerun !== undefined);
  const folder = style.files?.repro;
  const many = scripted.length > 1;
  const lines: string[] = [];
  if (scripted.length > 0) {
    const head = many ? 'Scripts that replay them, state and all:' : 'Script that replays it, state and all:';
    const where = (r: CheckResult): string => (folder ? `${folder}/${reproFileName(r)}` : '');
    if (!folder) {
      const how = style.verbose
        ? 'below'
        : `--reporter repro writes ${many ? `them (one per resource: ${scripted.map(label).join(', ')})` : 'it'}, --verbose prints ${many ? 'them' : 'it'}`;
      lines.push(`  ${c.dim(head)} ${how}`);
    } else if (!many) lines.push(`  ${c.dim(head)} ${where(scripted[0])}`);
    else lines.push(`  ${c.dim(head)}`, ...perResource(scripted, where, `in ${folder}/`));
  }
  if (reruns.length === 1) lines.push(`  ${c.dim('Run this check again alone:')} ${reruns[0].rerun}`);
  else if (reruns.length > 1) {
    lines.push(
      `  ${c.dim('Run this check again alone:')}`,
      ...perResource(reruns, (r) => r.rerun!, 'in the JSON report (rerun)'),
    );
  }
  if (style.verbose) {
    for (const r of scripted.slice(0, PER_RESOURCE)) {
      if (many) lines.push(`  ${c.dim(`Script for ${label(r)}:`)}`);
      lines.push(...r.reproduce!.split('\n').map((l) => `    ${visible(l, true)}`));
    }
  }
  return lines;
}

/** Lines per resource a group shows (its scripts, its re-run commands); the rest are counted. */
const PER_RESOURCE = 5;

function label(r: CheckResult): string {
  return r.resource ?? 'API';
}

/** `    widgets: <text>` for the first few results, then where the others are. */
function perResource(results: CheckResult[], text: (r: CheckResult) => string, home: string): string[] {
  const lines = results.slice(0, PER_RESOURCE).map((r) => `    ${label(r)}: ${text(r)}`);
  const more = results.length - PER_RESOURCE;
  if (more > 0) lines.push(`    …and ${plural(more, 'more resource')} ${home}`);
  return lines;
}
