// Counting results for the report summary.
import type { CheckResult, RunSummary } from '../core/types.js';

export function summarise(results: CheckResult[], requests: number, answered?: number): RunSummary {
  const count = (status: CheckResult['status']): number => results.filter((r) => r.status === status).length;
  return {
    total: results.length,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    errored: count('errored'),
    waived: count('waived'),
    requests,
    ...(answered !== undefined ? { answered } : {}),
  };
}
