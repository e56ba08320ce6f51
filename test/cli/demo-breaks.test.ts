// `conformance demo --break`: a newcomer sees what a failure looks like, in every report.
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import {
  BREAK_ALSO_FAILS,
  BREAK_DESCRIPTIONS,
  BREAK_NAMES,
  BREAK_RULES,
  breakFlagName,
} from '../../src/example-api/index.js';
import { runCli } from '../../src/testing/cli-runner.js';
import { FakeClock } from '../../src/testing/fake-clock.js';

const tempDir = () => mkdtemp(join(tmpdir(), 'conf-demo-'));

type FullAudit = Promise<{ r: Awaited<ReturnType<typeof runCli>>; out: string }>;

/**
 * Full audits of the demo that run at once. Each runs on a fake clock shared by the audit and the
 * example API (`runCli`'s clock), so the rate-limit burst meets the API's limit however slowly it
 * goes, and LIM-RETRY's wait takes no real time; create-not-readable still waits 5 s in real time
 * for each of two webhook events that never come. Few enough at once that a loaded machine keeps
 * up.
 */
const SIDE_BY_SIDE = 3;

let fullAudits: Map<string, FullAudit> | undefined;
/**
 * The full audit of the demo with one break, every report written: run once per break and shared,
 * so the test that reads every report and the one that counts the break's rules read the same run.
 * The first call starts every break's audit (the slowest first), SIDE_BY_SIDE at a time.
 */
function fullAudit(name: string): FullAudit {
  if (!fullAudits) {
    const inTurn = pLimit(SIDE_BY_SIDE);
    // The slowest first; then the one the first test reads.
    const first = ['create-not-readable', 'delete-noop'];
    const rank = (n: string) => (first.includes(n) ? first.indexOf(n) : first.length);
    const names = BREAK_NAMES.map(breakFlagName).sort((a, b) => rank(a) - rank(b));
    fullAudits = new Map(
      names.map((each) => {
        const audit = inTurn(async () => {
          const out = await tempDir();
          const args = ['demo', '--break', each, '--out', out, '--no-color'];
          const r = await runCli([...args, '--reporter', 'console,json,junit,html,markdown'], {
            clock: new FakeClock(),
          });
          return { r, out };
        });
        // A test not yet waiting for it still sees its failure when it does.
        audit.catch(() => undefined);
        return [each, audit] as const;
      }),
    );
  }
  return fullAudits.get(name)!;
}

// A run of some tests only (-t) still started every audit: none outlives the file.
afterAll(async () => {
  await Promise.allSettled(fullAudits?.values() ?? []);
}, 120_000);

interface Result {
  checkId: string;
  resource?: string;
  status: string;
  rules: string[];
  message?: string;
  followsFrom?: string[];
}

describe('conformance demo --list-breaks', () => {
  it('lists every break with the rules it breaks and one line on what it does', async () => {
    const r = await runCli(['demo', '--list-breaks']);
    expect(r.code).toBe(0);
    for (const name of BREAK_NAMES) {
      const line = r.stdout.split('\n').find((l) => l.trim().startsWith(`${breakFlagName(name)} `));
      expect([name, line]).toEqual([name, expect.stringContaining(BREAK_DESCRIPTIONS[name])]);
      expect(line).toContain(BREAK_RULES[name].join(','));
      if (BREAK_ALSO_FAILS[name].length > 0)
        expect(line).toContain(`also fails: ${BREAK_ALSO_FAILS[name].join(', ')}`);
    }
    expect(r.stdout).toContain('No break of the example API makes these rules fail');
    expect(r.stdout).toMatch(/No break .*AUTH-MISSING.*LIM-429/);
    expect(r.stdout).toMatch(/ {2}delete-others +MTH-DELETE +DELETE also removes/);
    expect(r.stdout).toContain('conformance demo --break <name>');
  });
});

describe('conformance demo --break', () => {
  it('an unknown break is exit 2 with a suggestion, before the API starts', async () => {
    const r = await runCli(['demo', '--break', 'delete-nop']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'conformance: --break delete-nop: no such break (did you mean "delete-noop"?) (conformance demo --list-breaks shows them)\n',
    );
    expect(r.stdout).toBe('');
  });

  it('--rate-limit takes a whole number of requests per second: anything else is exit 2', async () => {
    for (const value of ['0', '2.5', 'many']) {
      const r = await runCli(['demo', '--rate-limit', value]);
      expect([value, r.code]).toEqual([value, 2]);
      expect(r.stderr).toMatch(/--rate-limit .*: give a whole number of requests per second, 1 to 100000/);
    }
  });

  it('shows the failure in every report: console, JSON, JUnit, HTML, Markdown (exit 1)', async () => {
    const { r, out } = await fullAudit('delete-noop');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'with a break: delete-noop (DELETE answers 204 but the item stays readable: MTH-DELETE)',
    );
    expect(r.stdout).toMatch(/MTH-DELETE[\s\S]*still readable/);
    const report = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8'));
    const failed = (report.results as Result[]).filter((x) => x.status === 'failed');
    expect(new Set(failed.flatMap((x) => x.rules))).toEqual(new Set(['MTH-DELETE']));
    expect(await readFile(join(out, 'junit.xml'), 'utf8')).toMatch(/<failure[^>]*>[^<]*still readable/);
    const html = await readFile(join(out, 'report.html'), 'utf8');
    expect(html).toContain('MTH-DELETE');
    expect(html).toContain('still readable');
    expect(await readFile(join(out, 'summary.md'), 'utf8')).toMatch(
      /❌[\s\S]*MTH-DELETE[\s\S]*still readable/,
    );
  });

  it('puts a root cause before the failures that follow from it, and those say so (create-not-readable)', async () => {
    const out = await tempDir();
    const r = await runCli([
      'demo',
      '--break',
      'create-not-readable',
      '--only',
      'ERR-MALFORMED,MTH-CHANGE,MTH-CREATE,RES-NOUN',
      '--reporter',
      'console,json',
      '--out',
      out,
      '--no-color',
    ]);
    expect(r.code).toBe(1);
    const results = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8')).results as Result[];
    const failed = results.filter((x) => x.status === 'failed');
    const at = (checkId: string, resource: string) =>
      failed.findIndex((x) => x.checkId === checkId && x.resource === resource);
    for (const resource of ['widgets', 'orders']) {
      const root = at('create-answers-201', resource);
      expect(root).toBeGreaterThanOrEqual(0);
      expect(failed[root].followsFrom).toBeUndefined();
      for (const id of ['malformed-400', 'change-visible', 'create-location']) {
        const follower = failed[at(id, resource)];
        expect([id, resource, follower.followsFrom]).toEqual([id, resource, ['create-answers-201']]);
        expect(follower.message).toMatch(
          new RegExp(`^may follow from MTH-CREATE failing on ${resource} \\(see create-answers-201\\): `),
        );
        expect(at(id, resource)).toBeGreaterThan(root);
      }
    }
    // The console lists the root cause first: MTH-CREATE before MTH-CHANGE and ERR-MALFORMED.
    const order = [
      '✗ MTH-CREATE create-answers-201',
      '✗ MTH-CHANGE change-visible',
      '✗ ERR-MALFORMED malformed-400',
    ];
    const positions = order.map((head) => r.stdout.indexOf(head));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('a failure with no failed root cause is not marked (delete-noop)', async () => {
    const out = await tempDir();
    await runCli(['demo', '--break', 'delete-noop', '--only', 'MTH-*', '--reporter', 'json', '--out', out]);
    const results = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8')).results as Result[];
    const failed = results.filter((x) => x.status === 'failed');
    expect(failed.map((x) => x.checkId)).toEqual(['delete-removes', 'delete-removes']);
    expect(failed.every((x) => x.followsFrom === undefined && !x.message?.includes('may follow'))).toBe(true);
  });

  it('a create answered 200 that made its item is no root cause (create-status-200 with change-status-204)', async () => {
    const out = await tempDir();
    const args = ['demo', '--break', 'create-status-200,change-status-204', '--only', 'MTH-*'];
    await runCli([...args, '--reporter', 'json', '--out', out]);
    const results = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8')).results as Result[];
    const failed = results.filter((x) => x.status === 'failed');
    expect(failed.map((x) => x.checkId).sort()).toEqual([
      'change-visible',
      'change-visible',
      'create-answers-201',
      'create-answers-201',
    ]);
    // The PUT and PATCH answering 204 are change-visible's own: the items they change were made.
    expect(failed.every((x) => x.followsFrom === undefined && !x.message?.includes('may follow'))).toBe(true);
  });

  it('takes several breaks, comma-separated or repeated, in either spelling', async () => {
    const out = await tempDir();
    const r = await runCli([
      'demo',
      '--break',
      'read-status,notFound500',
      '--break',
      'TEXT_JSON',
      '--only',
      'MTH-READ,ERR-NOT-FOUND,GEN-JSON',
      '--reporter',
      'console,json',
      '--out',
      out,
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('with 3 breaks: read-status (');
    expect(r.stdout).toContain('not-found-500 (');
    expect(r.stdout).toContain('text-json (');
    const report = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8'));
    const failedRules = (report.results as Result[])
      .filter((x) => x.status === 'failed')
      .flatMap((x) => x.rules);
    expect(new Set(failedRules)).toEqual(new Set(['MTH-READ', 'ERR-NOT-FOUND', 'GEN-JSON']));
  });

  // The listing is true: in a full audit each break makes exactly its rules and its "also fails"
  // rules fail, no fewer (delete-others once listed IDEM-DELETE, which it does not break) and no more.
  it.each(
    BREAK_NAMES.map((name) => [breakFlagName(name), BREAK_RULES[name], BREAK_ALSO_FAILS[name]] as const),
  )('%s fails exactly its rules %p and also %p', async (name, rules, also) => {
    const { r, out } = await fullAudit(name);
    expect([0, 1]).toContain(r.code);
    const report = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8'));
    const failed = (report.results as Result[]).filter((x) => x.status === 'failed');
    expect(new Set(failed.flatMap((x) => x.rules))).toEqual(new Set([...rules, ...also]));
  });
});
