// Reading a JSON report (conformance.json) back into a RunResult, for `merge`: the inverse of json.ts.
import type { CheckResult, Evidence, RunResult, Severity, Status } from '../core/types.js';

const STATUSES: readonly Status[] = ['passed', 'failed', 'skipped', 'errored', 'waived'];
const SEVERITIES: readonly Severity[] = ['error', 'warning'];

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Collects problems, each with its JSON path. */
class Problems {
  readonly list: string[] = [];
  add(path: string, what: string): void {
    this.list.push(`${path}: ${what}`);
  }
}

function str(p: Problems, obj: Json, key: string, path: string, optional = false): string | undefined {
  const value = obj[key];
  if (value === undefined && optional) return undefined;
  if (typeof value !== 'string') {
    p.add(`${path}.${key}`, value === undefined ? 'missing' : 'must be a string');
    return undefined;
  }
  return value;
}

function num(p: Problems, obj: Json, key: string, path: string): number {
  const value = obj[key];
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    p.add(`${path}.${key}`, value === undefined ? 'missing' : 'must be a number');
    return 0;
  }
  return value;
}

function headers(value: unknown): Record<string, string> {
  if (!isObject(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}

function evidence(p: Problems, value: unknown, path: string): Evidence | undefined {
  if (!isObject(value) || !isObject(value.request)) {
    p.add(path, 'must be an object with a request');
    return undefined;
  }
  const request = value.request;
  const response = isObject(value.response) ? value.response : null;
  const out: Evidence = {
    request: {
      method: String(request.method ?? ''),
      url: String(request.url ?? ''),
      headers: headers(request.headers),
      body: request.body ?? null,
    },
    response: response
      ? {
          status: Number(response.status ?? 0),
          headers: headers(response.headers),
          body: response.body ?? null,
          durationMs: Number(response.durationMs ?? 0),
          ...(response.truncated === true ? { truncated: true } : {}),
        }
      : null,
    curl: String(value.curl ?? ''),
  };
  if (typeof value.error === 'string') out.error = value.error;
  if (Array.isArray(value.notes)) out.notes = value.notes.map(String);
  return out;
}

function result(p: Problems, value: unknown, path: string): CheckResult | undefined {
  if (!isObject(value)) {
    p.add(path, 'must be an object');
    return undefined;
  }
  const before = p.list.length;
  const checkId = str(p, value, 'checkId', path);
  const rules = value.rules;
  if (!Array.isArray(rules) || rules.length === 0 || !rules.every((r) => typeof r === 'string'))
    p.add(`${path}.rules`, 'must be a non-empty list of rule ids');
  const status = value.status as Status;
  if (!STATUSES.includes(status)) p.add(`${path}.status`, `must be one of ${STATUSES.join(', ')}`);
  const severity = value.severity as Severity;
  if (!SEVERITIES.includes(severity)) p.add(`${path}.severity`, `must be one of ${SEVERITIES.join(', ')}`);
  const resource = str(p, value, 'resource', path, true);
  const message = str(p, value, 'message', path, true);
  const rerun = str(p, value, 'rerun', path, true);
  const reproduce = str(p, value, 'reproduce', path, true);
  const problems = value.problems;
  if (problems !== undefined && (!Array.isArray(problems) || !problems.every((x) => typeof x === 'string')))
    p.add(`${path}.problems`, 'must be a list of strings');
  const ids = value.problemIds;
  const idsOk =
    Array.isArray(ids) &&
    Array.isArray(problems) &&
    ids.length === problems.length &&
    ids.every((x) => typeof x === 'string');
  const dropped = value.problemsDropped;
  if (dropped !== undefined && !(Number.isInteger(dropped) && (dropped as number) >= 0))
    p.add(`${path}.problemsDropped`, 'must be a whole number');
  const list = Array.isArray(value.evidence) ? value.evidence : [];
  const ev = list.map((e, i) => evidence(p, e, `${path}.evidence[${i}]`));
  if (p.list.length > before) return undefined;
  const out: CheckResult = {
    checkId: checkId!,
    rules: rules as string[],
    suite: typeof value.suite === 'string' ? value.suite : '',
    ...(resource !== undefined ? { resource } : {}),
    title: typeof value.title === 'string' ? value.title : checkId!,
    status,
    severity,
    ...(message !== undefined ? { message } : {}),
    ...(problems !== undefined ? { problems: problems as string[] } : {}),
    // Reports written before message ids existed (or with a list out of step) merge without them.
    ...(idsOk ? { problemIds: [...(ids as string[])] } : {}),
    ...(dropped ? { problemsDropped: dropped as number } : {}),
    evidence: ev.filter((e): e is Evidence => e !== undefined),
    durationMs: typeof value.durationMs === 'number' ? value.durationMs : 0,
    ...(reproduce !== undefined ? { reproduce } : {}),
    ...(rerun !== undefined ? { rerun } : {}),
  };
  const follows = value.followsFrom;
  if (Array.isArray(follows) && follows.every((x) => typeof x === 'string')) out.followsFrom = [...follows];
  if (isObject(value.waiver)) {
    out.waiver = { reason: String(value.waiver.reason ?? ''), expires: String(value.waiver.expires ?? '') };
  }
  return out;
}

/**
 * Parses the text of a conformance JSON report. Returns the run, or the problems (each with
 * its JSON path) that make it unusable: not JSON, not a conformance report, or malformed.
 * The summary's counts are recounted from the results (only `requests` is read), so
 * `summary.warnings` is too, and a report written before it existed reads the same.
 */
export function readJsonReport(text: string): { run?: RunResult; problems: string[] } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return { problems: [`not JSON (${err instanceof Error ? err.message : String(err)})`] };
  }
  if (
    !isObject(doc) ||
    !isObject(doc.tool) ||
    doc.tool.name !== 'conformance' ||
    !Array.isArray(doc.results)
  ) {
    return {
      problems: ['not a conformance JSON report (expected tool.name "conformance" and a results list)'],
    };
  }
  const p = new Problems();
  const tool = doc.tool;
  const target = isObject(doc.target) ? doc.target : {};
  const summary = isObject(doc.summary) ? doc.summary : {};
  if (!isObject(doc.summary)) p.add('summary', 'missing');
  const results = doc.results.map((r, i) => result(p, r, `results[${i}]`));
  const startedAt = str(p, doc, 'startedAt', '$') ?? '';
  const durationMs = num(p, doc, 'durationMs', '$');
  const requests = typeof summary.requests === 'number' ? summary.requests : 0;
  const answered = typeof summary.answered === 'number' ? summary.answered : undefined;
  let shard: RunResult['shard'];
  if (isObject(doc.shard)) {
    const { index, total } = doc.shard;
    if (
      !Number.isInteger(index) ||
      !Number.isInteger(total) ||
      (index as number) < 1 ||
      (index as number) > (total as number)
    )
      p.add('shard', 'must be {index, total} with 1 <= index <= total');
    else shard = { index: index as number, total: total as number };
  }
  const cleanup = isObject(doc.cleanup) ? doc.cleanup : {};
  if (p.list.length > 0) return { problems: p.list.map((x) => x.replace(/^\$\./, '')) };
  const kept = results as CheckResult[];
  return {
    problems: [],
    run: {
      tool: { name: 'conformance', version: String(tool.version ?? '') },
      target: { baseUrl: String(target.baseUrl ?? '') },
      startedAt,
      durationMs,
      summary: {
        total: kept.length,
        passed: kept.filter((r) => r.status === 'passed').length,
        failed: kept.filter((r) => r.status === 'failed').length,
        skipped: kept.filter((r) => r.status === 'skipped').length,
        errored: kept.filter((r) => r.status === 'errored').length,
        waived: kept.filter((r) => r.status === 'waived').length,
        requests,
        ...(answered !== undefined ? { answered } : {}),
      },
      results: kept,
      cleanup: {
        created: typeof cleanup.created === 'number' ? cleanup.created : 0,
        deleted: typeof cleanup.deleted === 'number' ? cleanup.deleted : 0,
        leftovers: cleanupEntries(cleanup.leftovers),
        ...(Array.isArray(cleanup.recovered) ? { recovered: cleanupEntries(cleanup.recovered) } : {}),
        ...(Array.isArray(cleanup.deletedWithErrorBody)
          ? { deletedWithErrorBody: cleanupEntries(cleanup.deletedWithErrorBody) }
          : {}),
      },
      ...(doc.interrupted === true ? { interrupted: true } : {}),
      ...(shard ? { shard } : {}),
      ...(Array.isArray(doc.notProbed)
        ? {
            notProbed: doc.notProbed
              .filter(isObject)
              .map((n) => ({ path: String(n.path ?? ''), reason: String(n.reason ?? '') })),
          }
        : {}),
      ...(Array.isArray(doc.notes) ? { notes: doc.notes.map(String) } : {}),
    },
  };
}

/** The `{resource, url, reason}` entries of a cleanup list (leftovers, recovered), as text. */
function cleanupEntries(list: unknown): Array<{ resource: string; url: string; reason: string }> {
  return (Array.isArray(list) ? list : []).filter(isObject).map((l) => ({
    resource: String(l.resource ?? ''),
    url: String(l.url ?? ''),
    reason: String(l.reason ?? ''),
  }));
}
