// Every problem reachable: a result keeps each distinct problem (bounded, counting what it drops), evidence for the first ones.
import { describe, expect, it } from '@jest/globals';
import { defineCheck, NOT_JUDGED, type Exchange } from '../../src/core/check.js';
import { joinMessages, PROBLEM_CAP, problemList } from '../../src/engine/results.js';
import { jsonReporter } from '../../src/reporters/json.js';
import { readJsonReport } from '../../src/reporters/json-read.js';
import { auditFixture } from '../../src/testing/check-tester.js';
import readCollectionAndItem from '../../suites/methods/read-collection-and-item.js';

/** An active check that reports `count` distinct problems (and each one's exchange) on every resource. */
function failing(count: number, repeatEvidence = false) {
  return defineCheck({
    kind: 'active',
    id: `fails-${count}`,
    rules: ['MTH-READ'],
    suite: 'test',
    title: 'a check with many findings',
    severity: 'error',
    schedule: 'own-items',
    writes: 'none',
    messages: { numbered: 'a numbered problem' },
    description: { sends: '-', passes: '-', why: '-' },
    async run(ctx) {
      const x = await ctx.send({ method: 'GET', path: ctx.collectionPath() });
      for (let i = 1; i <= count; i++) {
        // The token must never reach a report, whatever a check writes into its messages.
        const evidence: Exchange[] = repeatEvidence
          ? [x]
          : [await ctx.send({ method: 'GET', path: `/nothing-${i}` })];
        ctx.fail({
          messageId: 'numbered',
          message: `problem number ${i} (token ${ctx.config.auth.token})`,
          evidence,
        });
      }
    },
  });
}

describe('problems of a failed result', () => {
  it('keeps every distinct problem, one line each, and numbers the first five in the message', async () => {
    const { result } = await auditFixture([failing(37)]);
    const r = result.results.find((x) => x.resource === 'widgets')!;
    expect(r.problems).toHaveLength(37);
    expect(r.problems![36]).toBe('problem number 37 (token [redacted])');
    expect(r.problemsDropped).toBeUndefined();
    expect(r.message).toMatch(
      /^37 problems: \(1\) problem number 1 .*; \(5\) problem number 5 [^;]*; … and 32 more$/,
    );
    // Evidence proves the first problems (ten of them), not all 37.
    expect(r.evidence.map((e) => new URL(e.request.url).pathname)).toEqual(
      Array.from({ length: 10 }, (_, i) => `/v1/nothing-${i + 1}`),
    );
    // The JSON report holds them all, and `merge` reads them back.
    const text = jsonReporter.render(result, { color: false });
    expect(text).not.toContain('demo-full-token');
    const json = JSON.parse(text);
    const fromJson = json.results.find((x: { resource?: string }) => x.resource === 'widgets');
    expect(typeof fromJson.message).toBe('string');
    expect(fromJson.problems).toEqual(r.problems);
    // Each problem's message id, in the same order: what tools match instead of the wording.
    expect(fromJson.problemIds).toEqual(Array.from({ length: 37 }, () => 'numbered'));
    const back = readJsonReport(text);
    expect(back.problems).toEqual([]);
    const merged = back.run!.results.find((x) => x.resource === 'widgets')!;
    expect([merged.problems, merged.problemIds]).toEqual([r.problems, fromJson.problemIds]);
  });

  it('cites an exchange once, however many findings it proves', async () => {
    const { result } = await auditFixture([failing(3, true)]);
    const r = result.results.find((x) => x.resource === 'widgets')!;
    expect(r.problems).toHaveLength(3);
    expect(r.evidence).toHaveLength(1);
  });

  it('stops keeping at the cap and says how many it dropped', async () => {
    const { result } = await auditFixture([failing(PROBLEM_CAP + 25, true)], {
      config: (config) => ({ ...config, resources: config.resources.slice(0, 1) }),
    });
    const r = result.results[0];
    expect(r.problems).toHaveLength(PROBLEM_CAP);
    expect(r.problemsDropped).toBe(25);
    expect(r.message).toMatch(
      new RegExp(`^${PROBLEM_CAP + 25} problems: .* … and ${PROBLEM_CAP + 20} more$`),
    );
    const json = JSON.parse(jsonReporter.render(result, { color: false }));
    expect(json.results[0].problemsDropped).toBe(25);
    expect(readJsonReport(JSON.stringify(json)).run!.results[0].problemsDropped).toBe(25);
  });

  it('an observer keeps every distinct finding too, with evidence of the first five', async () => {
    // Every answer to a GET breaks this observer's rule, each with its own URL.
    const everyGet = defineCheck({
      kind: 'observer',
      id: 'every-get',
      rules: ['GEN-JSON'],
      suite: 'test',
      title: 'an observer that dislikes every GET',
      severity: 'error',
      messages: { get: 'a GET' },
      description: { sends: '-', passes: '-', why: '-' },
      inspect: (x) =>
        x.method === 'GET'
          ? { messageId: 'get', message: `${x.method} ${new URL(x.url).pathname}` }
          : NOT_JUDGED,
    });
    const { result } = await auditFixture([everyGet, failing(12)]);
    const r = result.results.find((x) => x.checkId === 'every-get' && x.resource === 'widgets')!;
    expect(r.status).toBe('failed');
    expect(r.problems!.length).toBeGreaterThan(12);
    expect(new Set(r.problems).size).toBe(r.problems!.length);
    expect(r.evidence).toHaveLength(5);
    expect(r.message).toMatch(
      new RegExp(`^\\d+ of \\d+ responses broke the rule: ${r.problems!.length} problems: \\(1\\) `),
    );
  });
  it("an observer's head counts what it lists: repeats say how often, summary findings count, evidence once", async () => {
    // Every answered GET of the collection breaks the rule with the same words; a summary finding
    // cites the first of them again.
    let first: Exchange['evidence'] | undefined;
    const sameWords = defineCheck({
      kind: 'observer',
      id: 'same-words',
      rules: ['GEN-JSON'],
      suite: 'test',
      title: 'an observer that says the same of every read of the collection',
      severity: 'error',
      messages: { read: 'a read', summary: 'the run as a whole' },
      description: { sends: '-', passes: '-', why: '-' },
      inspect: (x) => {
        if (x.method !== 'GET' || x.status === undefined || !/\/widgets\/?(\?.*)?$/.test(x.url))
          return NOT_JUDGED;
        if (x.resource === 'widgets') first ??= x.evidence;
        return { messageId: 'read', message: 'the collection was read' };
      },
      summaryNoun: { one: 'thing about the run', many: 'things about the run' },
      summarise: () =>
        first
          ? [{ messageId: 'summary', message: 'the run as a whole', evidence: [first], resource: 'widgets' }]
          : [],
    });
    const { result } = await auditFixture([sameWords, readCollectionAndItem]);
    const r = result.results.find((x) => x.checkId === 'same-words' && x.resource === 'widgets')!;
    expect(r.status).toBe('failed');
    const head =
      /^(\d+) of \d+ responses broke the rule and 1 thing about the run: 2 problems: \(1\) the collection was read \((\d+) times\); \(2\) the run as a whole$/.exec(
        r.message ?? '',
      );
    expect(head).not.toBeNull();
    expect(head![2]).toBe(head![1]);
    expect(Number(head![1])).toBeGreaterThan(1);
    expect(r.problems).toEqual([`the collection was read (${head![1]} times)`, 'the run as a whole']);
    expect(r.problemIds).toEqual(['read', 'summary']);
    expect(r.evidence).toHaveLength(1);
  });
});

describe('problem lists', () => {
  it('are distinct, in order, capped, and counted in the message', () => {
    const failures = ['a', 'b', 'a', 'c', 'd'].map((message, i) => ({ message, messageId: `id${i}` }));
    const list = problemList(failures, 3);
    expect([list.kept, list.dropped, list.total]).toEqual([['a', 'b', 'c'], 1, 4]);
    // Each kept problem keeps the id it was first reported with.
    expect(list.fields()).toEqual({
      problems: ['a', 'b', 'c'],
      problemIds: ['id0', 'id1', 'id3'],
      problemsDropped: 1,
    });
    expect(joinMessages(list.kept, list.total)).toBe('4 problems: (1) a; (2) b; (3) c; … and 1 more');
    expect(joinMessages(['only'])).toBe('only');
  });

  it('a passing run has none', async () => {
    const { result } = await auditFixture([readCollectionAndItem]);
    expect(result.results.every((r) => r.problems === undefined)).toBe(true);
  });
});
