// The catalogue stays in step with suites/, with the rule ids of CONVENTIONS.md, and with the dependency rules.
import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { catalogue } from '../../suites/index.js';
import { RULE_IDS, RULES } from '../../src/core/rules.js';
import { packagePath } from '../../src/core/paths.js';
import { CONVENTIONS_FILE } from '../../src/cli/conventions.js';
import { MANAGED_FIELDS } from '../../src/core/state.js';
import { RESOURCE_SCHEDULES, isResourceCheck, type ActiveCheck, type Check } from '../../src/core/check.js';

/** Shared helpers of checks: a folder of suites/, not a suite. */
const SUPPORT = 'support';

/** Every .ts file under a folder, as paths relative to the package root. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory()
      ? tsFiles(join(dir, d.name))
      : d.name.endsWith('.ts')
        ? [relative(packagePath(), join(dir, d.name))]
        : [],
  );
}

/** The modules a source file imports (relative specifiers, resolved against the package root, `.ts`). */
function importsOf(file: string): string[] {
  const text = readFileSync(packagePath(file), 'utf8');
  return [...text.matchAll(/^(?:import|export)\b[^;]*?from '(\.[^']+)';/gms)].map((m) =>
    relative(packagePath(), join(packagePath(file), '..', m[1])).replace(/\.js$/, '.ts'),
  );
}

describe('catalogue', () => {
  const suitesDir = packagePath('suites');
  const files = readdirSync(suitesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== SUPPORT)
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

  it('declares dependencies only on checks of the catalogue, never on itself', () => {
    const ids = new Set(catalogue.map((c) => c.id));
    const declared = catalogue.flatMap((c) => (c.dependsOn ?? []).map((d) => [c.id, d]));
    expect(declared.length).toBeGreaterThan(0);
    for (const [id, dep] of declared) expect([id, dep, ids.has(dep) && dep !== id]).toEqual([id, dep, true]);
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

  it('knows the same rule ids as CONVENTIONS.md (which must be there: a missing file fails, never passes)', () => {
    const conventions = packagePath(...CONVENTIONS_FILE.split('/'));
    expect({ conventions, found: existsSync(conventions) }).toEqual({ conventions, found: true });
    const ids = new Set(
      [...readFileSync(conventions, 'utf8').matchAll(/^\| ([A-Z]+-[A-Z0-9-]+) \|/gm)].map((m) => m[1]),
    );
    expect(ids.size).toBeGreaterThan(20);
    expect([...ids].sort()).toEqual(RULES.map((r) => r.id).sort());
  });

  it('has a state-comparison policy for every rule of a check that compares state', () => {
    // The checks that read state around a request (ctx.state) and the rule each is judged by.
    const comparing = ['put-repeatable', 'delete-repeatable', 'malformed-400', 'delete-removes'];
    const auth = ['missing-credentials-401', 'invalid-credentials-401', 'forbidden-403'];
    const rules = catalogue.filter((c) => [...comparing, ...auth].includes(c.id)).flatMap((c) => c.rules);
    expect(rules.filter((r) => MANAGED_FIELDS[r] === undefined)).toEqual([]);
    expect(rules).toHaveLength(comparing.length + auth.length);
  });
});

/** A check's file and the suites/support files it reaches through imports, as one text. */
function reachedText(file: string, seen = new Set<string>()): string {
  if (seen.has(file)) return '';
  seen.add(file);
  const own = readFileSync(packagePath(file), 'utf8');
  const helpers = importsOf(file).filter((m) => m.startsWith(`suites/${SUPPORT}/`));
  return [own, ...helpers.map((m) => reachedText(m, seen))].join('\n');
}

describe('schedules', () => {
  const active = catalogue.filter((c): c is ActiveCheck => c.kind === 'active');
  const fileOf = (c: ActiveCheck): string => `suites/${c.suite}/${c.id}.ts`;

  it('every active check declares one schedule of the union and what it writes; observers declare neither', () => {
    const schedules = ['own-items', 'compares-collection', 'api-read', 'api-writes', 'alone-last'];
    const wrong = active
      .filter(
        (c) => !schedules.includes(c.schedule) || !['required', 'when-allowed', 'none'].includes(c.writes),
      )
      .map((c) => `${c.id}: ${String(c.schedule)} / ${String(c.writes)}`);
    expect(wrong).toEqual([]);
    const observers = catalogue.filter((c) => c.kind === 'observer');
    expect(observers.filter((c) => 'schedule' in c || 'writes' in c).map((c) => c.id)).toEqual([]);
    expect(active.filter(isResourceCheck).every((c) => RESOURCE_SCHEDULES.includes(c.schedule))).toBe(true);
  });

  it('a check that compares its collection (ctx.state with the list, or looks for ids in the list) runs alone on its resource', () => {
    const comparesCollection = (c: ActiveCheck): boolean => {
      const text = reachedText(fileOf(c));
      const stateWithList = /\.state\.read\(/.test(text) && !/collection: false/.test(text);
      return stateWithList || /\bfindListed\(|\blistIds\(/.test(text);
    };
    const found = active.filter(comparesCollection);
    expect(found.length).toBeGreaterThanOrEqual(6);
    expect(found.filter((c) => c.schedule !== 'compares-collection').map((c) => c.id)).toEqual([]);
  });

  it("a check that writes 'none' never creates test data", () => {
    const creates = /\bctx\.(create|items|track)\(/;
    const wrong = active.filter((c) => c.writes === 'none' && creates.test(reachedText(fileOf(c))));
    expect(wrong.map((c) => c.id)).toEqual([]);
  });

  it("a check that needs to write is never 'api-read'", () => {
    const wrong = active.filter((c) => c.schedule === 'api-read' && c.writes === 'required');
    expect(wrong.map((c) => c.id)).toEqual([]);
  });

  it("'alone-last' is the rate-limit budget's alone: only rate-limit checks, which write nothing", () => {
    const last = active.filter((c) => c.schedule === 'alone-last');
    expect(last.length).toBeGreaterThan(0);
    expect(last.filter((c) => !c.rules.every((r) => r.startsWith('LIM-')) || c.writes !== 'none')).toEqual(
      [],
    );
  });
});

describe('dependency rules', () => {
  const checks = tsFiles(packagePath('suites')).filter(
    (f) => !f.startsWith(`suites/${SUPPORT}/`) && f !== 'suites/index.ts',
  );
  const support = tsFiles(packagePath('suites', SUPPORT));

  it('finds the checks and their helpers', () => {
    expect(checks.length).toBe(catalogue.length);
    expect(support.length).toBeGreaterThan(3);
  });

  it('a check imports only src/core and suites/support: never the engine, another check, or other modules', () => {
    const wrong = checks.flatMap((file) =>
      importsOf(file)
        .filter((m) => !m.startsWith('src/core/') && !m.startsWith(`suites/${SUPPORT}/`))
        .map((m) => `${file} imports ${m}`),
    );
    expect(wrong).toEqual([]);
  });

  it('suites/support never imports the engine or a check file', () => {
    const wrong = support.flatMap((file) =>
      importsOf(file)
        .filter(
          (m) =>
            m.startsWith('src/engine/') || (m.startsWith('suites/') && !m.startsWith(`suites/${SUPPORT}/`)),
        )
        .map((m) => `${file} imports ${m}`),
    );
    expect(wrong).toEqual([]);
  });

  it('the engine never imports suites/ (it receives the catalogue)', () => {
    const wrong = tsFiles(packagePath('src', 'engine')).flatMap((file) =>
      importsOf(file)
        .filter((m) => m.startsWith('suites/'))
        .map((m) => `${file} imports ${m}`),
    );
    expect(wrong).toEqual([]);
  });
});

describe('messages', () => {
  const fileOf = (c: Check): string => `suites/${c.suite}/${c.id}.ts`;
  /** The quoted words on the lines that name a message id (`messageId: 'x'`, `messageId = c ? 'x' : 'y'`). */
  const namedIds = (text: string): string[] =>
    text
      .split('\n')
      .filter((line) => /\bmessageId\b/.test(line))
      .flatMap((line) => [...line.matchAll(/'(\w+)'/g)].map((m) => m[1]));

  it('every check declares its messages: camelCase ids, each described in one line', () => {
    const wrong = catalogue.flatMap((c) => {
      const entries = Object.entries(c.messages ?? {});
      if (entries.length === 0) return [`${c.id}: declares no messages`];
      return entries
        .filter(([id, text]) => !/^[a-z][a-zA-Z0-9]*$/.test(id) || text.length < 10 || /\n/.test(text))
        .map(([id, text]) => `${c.id}: ${id}: ${JSON.stringify(text)}`);
    });
    expect(wrong).toEqual([]);
  });

  it('every message id a check (or a helper it imports) names is one it declares', () => {
    const checked = catalogue.map((c) => [c, namedIds(reachedText(fileOf(c)))] as const);
    // The scan must find ids, or it proves nothing.
    expect(checked.filter(([, ids]) => ids.length > 0).length).toBeGreaterThan(catalogue.length / 2);
    const wrong = checked.flatMap(([c, ids]) =>
      ids.filter((id) => !(id in c.messages)).map((id) => `${c.id} names undeclared ${id}`),
    );
    expect(wrong).toEqual([]);
  });

  it('every declared message id is used by the check (or a helper it imports)', () => {
    const wrong = catalogue.flatMap((c) => {
      const text = reachedText(fileOf(c));
      return Object.keys(c.messages)
        .filter((id) => !text.includes(`'${id}'`))
        .map((id) => `${c.id} never reports ${id}`);
    });
    expect(wrong).toEqual([]);
  });
});
