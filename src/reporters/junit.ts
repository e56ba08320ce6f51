// JUnit report (junit.xml): valid against the common JUnit XSDs (Jenkins' junit-4 and junit-10, Apache Ant's).
import type { CheckResult, RunResult, Severity } from '../core/types.js';
import { failureText, firstLine, seconds, truncate } from './format.js';
import type { Reporter } from './types.js';
import { failsRun } from './verdict.js';
import { ranInsecure } from '../core/insecure.js';
import { el, serialiseXml, type XmlElement } from './xml.js';

/*
 * What the two schemas demand, and so what this file writes:
 * - Ant (windyroad JUnit.xsd): each <testsuite> needs name, timestamp (no zone, no fraction),
 *   hostname, tests, failures, errors, time, and inside <testsuites> also package and id; its
 *   children are exactly <properties>, <testcase>*, <system-out>, <system-err> in that order; a
 *   <testcase> needs name, classname, time and holds at most one of skipped/error/failure, and
 *   no <system-out> (so waiver notes go to the suite's <system-out>).
 * - Jenkins junit-10.xsd: <testsuites> may carry name, time, tests, failures, errors (not skipped).
 * - Jenkins junit-4.xsd (test/fixtures/junit/jenkins-junit-4.xsd, validated in the tests): <skipped>
 *   is text only, and <properties> holds at least one <property>; a <testcase> holds skipped,
 *   error, failure, system-out, system-err in that order.
 * One exception to the Ant schema, on purpose: a warning below --fail-on is a passing testcase
 * with its finding in the testcase's own <system-out>. Jenkins and GitLab show that output with
 * the test; in the suite's <system-out> GitLab would not show it at all. As a <failure>, CI would
 * mark the run failed (Jenkins: UNSTABLE) while the audit exits 0.
 */

/** Longest `message` attribute; the element text carries the whole message. */
const MESSAGE_ATTR_LIMIT = 500;

/** "2026-11-22T10:00:00": xs:dateTime without fraction or zone, as the Ant schema's pattern wants. */
export function junitTimestamp(startedAt: string): string {
  const date = new Date(startedAt);
  if (!Number.isNaN(date.getTime())) return date.toISOString().slice(0, 19);
  const match = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.exec(startedAt);
  return match ? match[0] : '1970-01-01T00:00:00';
}

/** `<suite>.<resource>`, or `<suite>.api` for API-wide checks. */
export function junitClassname(result: CheckResult): string {
  return `${result.suite || 'conformance'}.${result.resource || 'api'}`;
}

/** `<checkId> [<rules joined by ', '>]`. */
export function junitTestName(result: CheckResult): string {
  return `${result.checkId} [${result.rules.join(', ')}]`;
}

function oneLine(text: string | undefined, fallback: string): string {
  return truncate(firstLine(text) || fallback, MESSAGE_ATTR_LIMIT);
}

function testcase(result: CheckResult, failOn: Severity): XmlElement {
  const attrs = {
    name: junitTestName(result),
    classname: junitClassname(result),
    time: seconds(result.durationMs),
  };
  switch (result.status) {
    case 'failed':
      // A warning below the threshold passes, as it does for the exit code; the finding stays readable.
      if (!failsRun(result, failOn))
        return el('testcase', attrs, el('system-out', {}, `warning: ${failureText(result)}\n`));
      return el(
        'testcase',
        attrs,
        el(
          'failure',
          { message: oneLine(result.message, result.title), type: result.severity },
          failureText(result),
        ),
      );
    case 'errored':
      return el(
        'testcase',
        attrs,
        el(
          'error',
          { message: oneLine(result.message, 'the check broke'), type: 'errored' },
          failureText(result),
        ),
      );
    case 'skipped':
      // The reason as text: Jenkins' junit-4.xsd allows no attributes on <skipped>, and Jenkins,
      // GitLab and GitHub reporters all read the text.
      return el('testcase', attrs, el('skipped', {}, result.message ?? 'skipped'));
    default:
      // passed, and waived (a failure covered by a waiver) pass: the note is in <system-out>.
      return el('testcase', attrs);
  }
}

function waiverLine(result: CheckResult): string {
  const reason = result.waiver?.reason ?? 'no reason given';
  const until = result.waiver?.expires ? ` (until ${result.waiver.expires})` : '';
  const was = result.message ? `; ${firstLine(result.message)}` : '';
  return `${junitClassname(result)} ${junitTestName(result)}: waived: ${reason}${until}${was}`;
}

/** Run-wide notes (warnings, interruption, cleanup: items found and deleted, leftovers), written once into the first suite's <system-err>. */
function runNotes(run: RunResult): string[] {
  const notes: string[] = (run.notes ?? []).map((note) => `Warning: ${note}`);
  if (run.interrupted) notes.push('The run was interrupted before it finished: results are incomplete.');
  for (const l of run.cleanup?.recovered ?? []) {
    notes.push(`Cleanup found and deleted: ${l.resource} ${l.url}: ${l.reason}`);
  }
  for (const l of run.cleanup?.leftovers ?? []) {
    notes.push(`Cleanup leftover: ${l.resource} ${l.url}: ${l.reason}`);
  }
  for (const l of run.cleanup?.deletedWithErrorBody ?? []) {
    notes.push(`Cleanup deleted: ${l.resource} ${l.url}: ${l.reason}`);
  }
  return notes;
}

function suiteElement(
  name: string,
  results: CheckResult[],
  id: number,
  run: RunResult,
  notes: string[],
  failOn: Severity,
): XmlElement {
  const count = (status: CheckResult['status']) => results.filter((r) => r.status === status).length;
  const properties = el(
    'properties',
    {},
    el('property', { name: 'baseUrl', value: run.target.baseUrl }),
    el('property', { name: 'tool', value: `${run.tool.name} ${run.tool.version}` }),
    ...(run.shard ? [el('property', { name: 'shard', value: `${run.shard.index}/${run.shard.total}` })] : []),
    ...(run.interrupted ? [el('property', { name: 'interrupted', value: 'true' })] : []),
    ...(ranInsecure(run)
      ? [
          el('property', {
            name: 'tls-verification',
            value: 'OFF (--insecure): certificates were not verified',
          }),
        ]
      : []),
  );
  const waived = results.filter((r) => r.status === 'waived').map(waiverLine);
  return el(
    'testsuite',
    {
      name,
      tests: results.length,
      failures: results.filter((r) => failsRun(r, failOn)).length,
      errors: count('errored'),
      skipped: count('skipped'),
      time: seconds(results.reduce((sum, r) => sum + (r.durationMs > 0 ? r.durationMs : 0), 0)),
      timestamp: junitTimestamp(run.startedAt),
      hostname: 'localhost',
      package: name,
      id,
    },
    properties,
    ...results.map((r) => testcase(r, failOn)),
    el('system-out', {}, waived.length > 0 ? `${waived.join('\n')}\n` : ''),
    el('system-err', {}, notes.length > 0 ? `${notes.join('\n')}\n` : ''),
  );
}

/**
 * The document as a tree (exported for tests and for reporters that embed it). Failed warnings
 * below `failOn` (default 'error') are passing testcases, as they pass for the exit code.
 */
export function junitTree(run: RunResult, failOn: Severity = 'error'): XmlElement {
  const suites = new Map<string, CheckResult[]>();
  for (const result of run.results) {
    const name = result.suite || 'conformance';
    const list = suites.get(name) ?? [];
    list.push(result);
    suites.set(name, list);
  }
  const notes = runNotes(run);
  const children = [...suites].map(([name, results], i) =>
    suiteElement(name, results, i, run, i === 0 ? notes : [], failOn),
  );
  return el(
    'testsuites',
    {
      name: 'conformance',
      tests: run.results.length,
      failures: run.results.filter((r) => failsRun(r, failOn)).length,
      errors: run.results.filter((r) => r.status === 'errored').length,
      time: seconds(run.durationMs),
    },
    ...children,
  );
}

/** `junit.xml`: one <testsuite> per suite, one <testcase> per check x resource. */
export const junitReporter: Reporter = {
  name: 'junit',
  fileName: 'junit.xml',
  render: (result, options) => serialiseXml(junitTree(result, options.failOn)),
};
