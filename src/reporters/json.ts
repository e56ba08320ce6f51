// JSON report (conformance.json): CONTRACT.md's shape, contract keys first in contract order, then additions.
import type { CheckResult, Evidence, RunResult } from '../core/types.js';
import type { Reporter } from './types.js';
import { isWarning } from './verdict.js';

/** Evidence in report form: request, response, curl, then `error` and `notes` when present. */
function evidenceJson(evidence: Evidence): Record<string, unknown> {
  const { request, response } = evidence;
  const out: Record<string, unknown> = {
    request: {
      method: request.method,
      url: request.url,
      headers: { ...request.headers },
      body: request.body ?? null,
    },
    response: response
      ? {
          status: response.status,
          headers: { ...response.headers },
          body: response.body ?? null,
          durationMs: response.durationMs,
          ...(response.truncated ? { truncated: true } : {}),
        }
      : null,
    curl: evidence.curl,
  };
  if (evidence.error !== undefined) out.error = evidence.error;
  if (evidence.notes !== undefined && evidence.notes.length > 0) out.notes = [...evidence.notes];
  return out;
}

/** One result: `resource`, `message`, `problems` and `waiver` only when the result has them. */
function resultJson(result: CheckResult): Record<string, unknown> {
  const out: Record<string, unknown> = { checkId: result.checkId, rules: [...result.rules] };
  out.suite = result.suite;
  if (result.resource !== undefined) out.resource = result.resource;
  out.title = result.title;
  out.status = result.status;
  out.severity = result.severity;
  if (result.message !== undefined) out.message = result.message;
  // Every problem, one line each (the message numbers only the first few): tools read this list.
  if (result.problems !== undefined) out.problems = [...result.problems];
  // Which declared message each problem is (same order): stable where the wording is not.
  if (result.problemIds !== undefined) out.problemIds = [...result.problemIds];
  if (result.problemsDropped) out.problemsDropped = result.problemsDropped;
  out.durationMs = result.durationMs;
  if (result.followsFrom) out.followsFrom = [...result.followsFrom];
  if (result.waiver) out.waiver = { reason: result.waiver.reason, expires: result.waiver.expires };
  out.evidence = result.evidence.map(evidenceJson);
  // Failed results: the command that runs the check again alone, and the script that replays it.
  if (result.rerun !== undefined) out.rerun = result.rerun;
  if (result.reproduce !== undefined) out.reproduce = result.reproduce;
  return out;
}

/**
 * The report object, with a fixed key order (CONTRACT.md's keys in contract order, additions
 * among them) so diffs stay readable. `summary.failed` counts every failed result, as the
 * contract says; `summary.warnings` says how many of them are of warning severity (they fail the
 * run only under --fail-on warning).
 */
export function jsonReport(result: RunResult): Record<string, unknown> {
  const { summary } = result;
  const out: Record<string, unknown> = {
    tool: { name: result.tool.name, version: result.tool.version },
    target: { baseUrl: result.target.baseUrl },
    startedAt: result.startedAt,
    durationMs: result.durationMs,
    summary: {
      total: summary.total,
      passed: summary.passed,
      failed: summary.failed,
      warnings: result.results.filter(isWarning).length,
      skipped: summary.skipped,
      errored: summary.errored,
      waived: summary.waived,
      requests: summary.requests,
      ...(summary.answered !== undefined ? { answered: summary.answered } : {}),
    },
    results: result.results.map(resultJson),
  };
  if (result.cleanup) {
    out.cleanup = {
      created: result.cleanup.created,
      deleted: result.cleanup.deleted,
      leftovers: result.cleanup.leftovers.map(entry),
      ...(result.cleanup.recovered ? { recovered: result.cleanup.recovered.map(entry) } : {}),
      ...(result.cleanup.deletedWithErrorBody
        ? { deletedWithErrorBody: result.cleanup.deletedWithErrorBody.map(entry) }
        : {}),
    };
  }
  if (result.interrupted !== undefined) out.interrupted = result.interrupted;
  if (result.shard) out.shard = { index: result.shard.index, total: result.shard.total };
  if (result.notProbed) out.notProbed = result.notProbed.map((p) => ({ path: p.path, reason: p.reason }));
  if (result.notes?.length) out.notes = [...result.notes];
  return out;
}

/** `conformance.json`: the report pretty-printed with two spaces and a trailing newline. */
export const jsonReporter: Reporter = {
  name: 'json',
  fileName: 'conformance.json',
  render: (result) => `${JSON.stringify(jsonReport(result), null, 2)}\n`,
};

/** A cleanup entry with only its three fields, in their order. */
function entry(l: { resource: string; url: string; reason: string }): Record<string, string> {
  return { resource: l.resource, url: l.url, reason: l.reason };
}
