// Root causes before their consequences: a failure of a check that relies on another's failed step says so.
import type { Check } from '../core/check.js';
import type { CheckResult } from '../core/types.js';

/**
 * Marks each failed result whose check declares `dependsOn` a check that failed (at error
 * severity, with a problem among the ones it declares as `causes`) on the same resource, or on any
 * resource for an API-wide result: its message starts with the root cause ("may follow from
 * MTH-CREATE failing on widgets (see create-answers-201): …"), and `followsFrom` names that check.
 * Then orders the results so every root cause comes before the failures that follow from it
 * (stable otherwise). The check's own words are kept whole after it, never substituted.
 */
export function markConsequences(results: CheckResult[], catalogue: readonly Check[]): CheckResult[] {
  const byId = new Map(catalogue.map((c) => [c.id, c]));
  const causes = (r: CheckResult): boolean => {
    const declared: readonly string[] | undefined = byId.get(r.checkId)?.causes;
    return declared === undefined || (r.problemIds ?? []).some((id) => declared.includes(id));
  };
  // Failed error results by check, in order, gathered once: a scan of every result per failure
  // would make a run of many resources quadratic.
  const failedBy = new Map<string, CheckResult[]>();
  for (const r of results) {
    if (r.status !== 'failed' || r.severity !== 'error' || !causes(r)) continue;
    const list = failedBy.get(r.checkId);
    if (list) list.push(r);
    else failedBy.set(r.checkId, [r]);
  }
  const rootFailed = (checkId: string, resource: string | undefined): CheckResult[] =>
    (failedBy.get(checkId) ?? []).filter((r) => resource === undefined || r.resource === resource);
  const marked = results.map((result) => {
    if (result.status !== 'failed' && result.status !== 'waived') return result;
    const roots = (byId.get(result.checkId)?.dependsOn ?? []).flatMap((id) =>
      rootFailed(id, result.resource),
    );
    if (roots.length === 0 || roots.includes(result)) return result;
    const rules = [...new Set(roots.flatMap((r) => r.rules))];
    const ids = [...new Set(roots.map((r) => r.checkId))];
    const on =
      result.resource ?? [...new Set(roots.flatMap((r) => (r.resource ? [r.resource] : [])))].join(', ');
    // In front, so that a console line cut at its first problems still shows it.
    const note = `may follow from ${rules.join(', ')} failing${on ? ` on ${on}` : ''} (see ${ids.join(', ')})`;
    return {
      ...result,
      message: result.message ? `${note}: ${result.message}` : note,
      followsFrom: ids,
    };
  });
  const followers = marked.filter((r) => r.followsFrom !== undefined);
  return [...marked.filter((r) => r.followsFrom === undefined), ...followers];
}
