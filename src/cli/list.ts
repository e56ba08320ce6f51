// `conformance list` and `conformance explain`: what the catalogue checks, and why.
import type { Check } from '../core/check.js';
import { findRule, RULES } from '../core/rules.js';

/** One line per check (id, rules, severity, title), or the same as JSON. */
export function renderList(catalogue: Check[], json: boolean): string {
  if (json) {
    const rows = catalogue.map((c) => ({
      id: c.id,
      suite: c.suite,
      rules: c.rules,
      severity: c.severity,
      title: c.title,
    }));
    return `${JSON.stringify(rows, null, 2)}\n`;
  }
  const width = Math.max(...catalogue.map((c) => c.id.length));
  const rulesWidth = Math.max(...catalogue.map((c) => c.rules.join(',').length));
  const lines = catalogue.map(
    (c) =>
      `${c.id.padEnd(width)}  ${c.rules.join(',').padEnd(rulesWidth)}  ${c.severity.padEnd(7)}  ${c.title}`,
  );
  return `${lines.join('\n')}\n\n${catalogue.length} checks covering ${new Set(catalogue.flatMap((c) => c.rules)).size} of ${RULES.length} rules. \`conformance explain <id>\` tells more.\n`;
}

/** The explanation of a check id or a rule id; undefined when neither matches. */
export function renderExplain(catalogue: Check[], name: string): string | undefined {
  const check = catalogue.find((c) => c.id === name.toLowerCase());
  if (check) {
    const rules = check.rules.map((id) => findRule(id)).filter((r) => r !== undefined);
    return [
      `${check.id} — ${check.title}`,
      `Rules: ${check.rules.join(', ')}   Severity: ${check.severity}   Suite: ${check.suite}   ${check.kind === 'observer' ? 'Judges every exchange' : check.mutates ? 'Writes test data (skipped under --read-only)' : 'Read-only safe'}`,
      '',
      `What it sends: ${check.description.sends}`,
      `What passes:   ${check.description.passes}`,
      `Why it matters: ${check.description.why}`,
      ...rules.map((r) => `\n${r.id} (${r.section}): ${r.statement}\n  Fails when: ${r.failsWhen}`),
      '',
    ].join('\n');
  }
  const rule = findRule(name);
  if (rule) {
    const checks = catalogue.filter((c) => c.rules.includes(rule.id));
    return [
      `${rule.id} (${rule.section}) — ${rule.statement}`,
      `Fails when: ${rule.failsWhen}`,
      '',
      checks.length > 0 ? 'Checked by:' : 'No check covers this rule yet.',
      ...checks.map((c) => `  ${c.id} (${c.severity}): ${c.title}\n    sends: ${c.description.sends}`),
      '',
    ].join('\n');
  }
  return undefined;
}
