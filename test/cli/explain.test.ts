// `conformance explain`: rules as complete as checks, suites and wildcards as in --only, the shipped conventions quoted.
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { catalogue } from '../../suites/index.js';
import { packagePath } from '../../src/core/paths.js';
import { RULE_DOCS } from '../../src/core/rule-docs.js';
import { RULES } from '../../src/core/rules.js';
import { CONVENTIONS_FILE, conventionsRows, SOURCE_FILE } from '../../src/cli/conventions.js';
import { runCli } from '../../src/testing/cli-runner.js';

const source = readFileSync(packagePath(...SOURCE_FILE.split('/')), 'utf8').split('\n');

describe('the shipped conventions', () => {
  it('docs/CONVENTIONS.md has one row per rule id, with the rule, the probe and when it fails', () => {
    const rows = conventionsRows();
    expect([...rows.keys()].sort()).toEqual(RULES.map((r) => r.id).sort());
    for (const row of rows.values())
      for (const cell of Object.values(row)) expect(cell.length).toBeGreaterThan(2);
  });

  it('CONVENTIONS.md cites the source document by the path it ships under', () => {
    const text = readFileSync(packagePath(...CONVENTIONS_FILE.split('/')), 'utf8');
    const cited = /`(seeds\/[^`]+)` beside this file/.exec(text)?.[1];
    expect(`docs/${cited}`).toBe(SOURCE_FILE);
  });

  it('every rule has what passes, why it matters, and source passages each found on exactly one line', () => {
    expect(Object.keys(RULE_DOCS).sort()).toEqual(RULES.map((r) => r.id).sort());
    for (const [id, doc] of Object.entries(RULE_DOCS)) {
      expect([id, doc.passes.length > 20, doc.why.length > 20, doc.source.length > 0]).toEqual([
        id,
        true,
        true,
        true,
      ]);
      for (const snippet of doc.source) {
        expect([id, snippet, source.filter((line) => line.includes(snippet)).length]).toEqual([
          id,
          snippet,
          1,
        ]);
      }
    }
  });
});

describe('conformance explain', () => {
  it('a rule id shows what it sends, what passes, when it fails, why it matters, and quotes the conventions', async () => {
    const r = await runCli(['explain', 'auth-missing']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('AUTH-MISSING (§5) — A request without authentication is answered 401.');
    expect(r.stdout).toContain(`What it sends:  ${conventionsRows().get('AUTH-MISSING')?.probe}`);
    expect(r.stdout).toContain(`What passes:    ${RULE_DOCS['AUTH-MISSING'].passes}`);
    expect(r.stdout).toContain('Fails when:     Anything but 401');
    expect(r.stdout).toContain(`Why it matters: ${RULE_DOCS['AUTH-MISSING'].why}`);
    expect(r.stdout).toContain(`The conventions, §5 Authentication (${SOURCE_FILE}):`);
    expect(r.stdout).toContain('  > 3. A request with no valid authentication is answered 401.');
    expect(r.stdout).toContain('missing-credentials-401 (error)');
  });

  it('a quoted table row comes with its header', async () => {
    const r = await runCli(['explain', 'ERR-NOT-FOUND']);
    expect(r.stdout).toContain('  > | Status | Meaning |\n  > | 404 | No such resource |');
  });

  it('a check quotes the conventions of each of its rules', async () => {
    const r = await runCli(['explain', 'delete-removes']);
    expect(r.stdout).toContain('What passes:');
    expect(r.stdout).toContain('MTH-DELETE (§4): DELETE on an item removes it.');
    expect(r.stdout).toContain('    > | DELETE | `/<collection>/<id>` | Remove | Yes |');
  });

  it('a suite explains each of its checks, as --only selects them', async () => {
    const r = await runCli(['explain', 'auth']);
    expect(r.code).toBe(0);
    const auth = catalogue.filter((c) => c.suite === 'auth');
    expect(r.stdout.split('\n')[0]).toBe(
      `"auth" selects ${auth.length} checks (quotes from ${CONVENTIONS_FILE} and ${SOURCE_FILE}).`,
    );
    for (const check of auth) expect(r.stdout).toContain(`${check.id} — ${check.title}`);
  });

  it('a wildcard explains every rule (and check) it matches', async () => {
    const r = await runCli(['explain', 'IDEM-*']);
    expect(r.code).toBe(0);
    const idem = RULES.filter((rule) => rule.id.startsWith('IDEM-'));
    expect(r.stdout.split('\n')[0]).toContain(`selects ${idem.length} rules`);
    for (const rule of idem) expect(r.stdout).toContain(`${rule.id} (${rule.section}) — ${rule.statement}`);
    const checks = await runCli(['explain', '*-401']);
    expect(checks.stdout).toContain('missing-credentials-401 — ');
    expect(checks.stdout).toContain('invalid-credentials-401 — ');
  });

  it('a name that selects nothing is exit 2 with a suggestion', async () => {
    const r = await runCli(['explain', 'AUTH-MISING']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('(did you mean "AUTH-MISSING"?)');
  });
});
