// `conformance list` and `conformance explain`: what the catalogue checks, and why.
import type { Check, Writes } from '../core/check.js';
import { RULE_DOCS } from '../core/rule-docs.js';
import { findRule, RULES, type Rule } from '../core/rules.js';
import { selectorPattern } from '../engine/plan.js';
import { CONVENTIONS_FILE, conventionsRows, SOURCE_FILE, sourcePassages } from './conventions.js';

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

/** Where the quoted conventions come from, as the explanation names them. */
const CITED = `${CONVENTIONS_FILE} and ${SOURCE_FILE}`;

/** A rule as CONVENTIONS.md states it and the passages of the source document it rests on. */
function ruleText(rule: Rule, indent: string): string[] {
  const row = conventionsRows().get(rule.id);
  const passages = sourcePassages(RULE_DOCS[rule.id]?.source ?? []);
  return [
    `${indent}Fails when: ${row?.failsWhen ?? rule.failsWhen}`,
    ...passages.flatMap((p) => [
      `${indent}The conventions, ${p.section} (${SOURCE_FILE}):`,
      ...p.lines.map((l) => `${indent}  > ${l}`),
    ]),
  ];
}

/** What `--read-only` does with an active check, as `explain` says it. */
const WRITES: Record<Writes, string> = {
  required: 'Writes test data (skipped under --read-only)',
  'when-allowed': 'Read-only safe (its writes are left out under --read-only)',
  none: 'Read-only safe',
};

/** One check: what it sends, what passes, why, and each of its rules with the conventions quoted. */
function explainCheck(check: Check): string {
  const rules = check.rules.map((id) => findRule(id)).filter((r) => r !== undefined);
  return [
    `${check.id} — ${check.title}`,
    `Rules: ${check.rules.join(', ')}   Severity: ${check.severity}   Suite: ${check.suite}   ${check.kind === 'observer' ? 'Judges every exchange' : WRITES[check.writes]}`,
    '',
    `What it sends:  ${check.description.sends}`,
    `What passes:    ${check.description.passes}`,
    `Why it matters: ${check.description.why}`,
    ...rules.flatMap((r) => ['', `${r.id} (${r.section}): ${r.statement}`, ...ruleText(r, '  ')]),
    '',
  ].join('\n');
}

/** One rule: what is probed, what passes, when it fails, why, the conventions quoted, its checks. */
function explainRule(rule: Rule, catalogue: Check[]): string {
  const doc = RULE_DOCS[rule.id];
  const row = conventionsRows().get(rule.id);
  const checks = catalogue.filter((c) => c.rules.includes(rule.id));
  return [
    `${rule.id} (${rule.section}) — ${rule.statement}`,
    '',
    ...(row ? [`What it sends:  ${row.probe}`] : []),
    ...(doc ? [`What passes:    ${doc.passes}`] : []),
    `Fails when:     ${row?.failsWhen ?? rule.failsWhen}`,
    ...(doc ? [`Why it matters: ${doc.why}`] : []),
    ...sourcePassages(doc?.source ?? []).flatMap((p) => [
      '',
      `The conventions, ${p.section} (${SOURCE_FILE}):`,
      ...p.lines.map((l) => `  > ${l}`),
    ]),
    '',
    checks.length > 0 ? 'Checked by:' : 'No check covers this rule yet.',
    ...checks.map((c) => `  ${c.id} (${c.severity}): ${c.title}`),
    '',
  ].join('\n');
}

/**
 * The explanation of a check id or a rule id, or of everything a suite name or a `*` wildcard
 * selects (as `--only` would: rules by id, checks by id or suite); undefined when nothing matches.
 */
export function renderExplain(catalogue: Check[], name: string): string | undefined {
  const check = catalogue.find((c) => c.id === name.toLowerCase());
  if (check) return explainCheck(check);
  const rule = findRule(name);
  if (rule) return explainRule(rule, catalogue);
  const pattern = selectorPattern(name);
  const rules = RULES.filter((r) => pattern.test(r.id));
  const checks = catalogue.filter((c) => pattern.test(c.id) || pattern.test(c.suite));
  if (rules.length === 0 && checks.length === 0) return undefined;
  const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
  const found = [
    rules.length > 0 ? count(rules.length, 'rule') : '',
    checks.length > 0 ? count(checks.length, 'check') : '',
  ]
    .filter(Boolean)
    .join(' and ');
  const parts = [...rules.map((r) => explainRule(r, catalogue)), ...checks.map((c) => explainCheck(c))];
  return `"${name}" selects ${found} (quotes from ${CITED}).\n\n${parts.join(`${'-'.repeat(72)}\n`)}`;
}
