// Building result records shared by active and observer checks.
import type { Check } from '../core/check.js';
import type { CheckResult } from '../core/types.js';

export function baseResult(check: Check, resource: string | undefined): CheckResult {
  return {
    checkId: check.id,
    rules: check.rules,
    suite: check.suite,
    ...(resource !== undefined ? { resource } : {}),
    title: check.title,
    status: 'passed',
    severity: check.severity,
    evidence: [],
    durationMs: 0,
  };
}

/** One message, or the first few numbered (a report line stays readable). */
export function joinMessages(messages: string[]): string {
  const unique = [...new Set(messages)];
  if (unique.length === 1) return unique[0];
  const shown = unique.slice(0, 5).map((m, i) => `(${i + 1}) ${m}`);
  if (unique.length > 5) shown.push(`… and ${unique.length - 5} more`);
  return `${unique.length} problems: ${shown.join('; ')}`;
}
