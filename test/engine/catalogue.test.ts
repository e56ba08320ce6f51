// The catalogue stays in step with suites/ and with the rule ids of CONVENTIONS.md.
import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogue } from '../../suites/index.js';
import { RULE_IDS, RULES } from '../../src/core/rules.js';
import { packagePath, packageRoot } from '../../src/core/paths.js';

describe('catalogue', () => {
  const suitesDir = packagePath('suites');
  const files = readdirSync(suitesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(suitesDir, d.name))
        .filter((f) => f.endsWith('.ts'))
        .map((f) => `${d.name}/${f.replace(/\.ts$/, '')}`),
    );

  it('lists exactly the check files, each id equal to its file name and suite to its folder', () => {
    expect(catalogue.map((c) => `${c.suite}/${c.id}`).sort()).toEqual(files.sort());
  });

  it('has unique ids', () => {
    expect(new Set(catalogue.map((c) => c.id)).size).toBe(catalogue.length);
  });

  it('names only rule ids that exist, at least one per check', () => {
    for (const check of catalogue) {
      expect(check.rules.length).toBeGreaterThan(0);
      for (const rule of check.rules) expect([check.id, RULE_IDS.has(rule)]).toEqual([check.id, true]);
    }
  });

  it('covers every rule of CONVENTIONS.md with at least one check', () => {
    const covered = new Set(catalogue.flatMap((c) => c.rules));
    expect(RULES.map((r) => r.id).filter((id) => !covered.has(id))).toEqual([]);
  });

  it('describes every check: what it sends, what passes, why', () => {
    for (const check of catalogue) {
      expect(check.title.length).toBeGreaterThan(10);
      for (const text of Object.values(check.description)) expect(text.length).toBeGreaterThan(10);
    }
  });

  it('knows the same rule ids as CONVENTIONS.md (when the shared docs are beside the repo)', () => {
    const conventions = join(packageRoot, '..', 'shared', 'CONVENTIONS.md');
    if (!existsSync(conventions)) return;
    const ids = new Set(
      [...readFileSync(conventions, 'utf8').matchAll(/^\| ([A-Z]+-[A-Z0-9-]+) \|/gm)].map((m) => m[1]),
    );
    expect([...ids].sort()).toEqual(RULES.map((r) => r.id).sort());
  });
});
