// `conformance merge`: what it refuses (exit 2, named problems), how it combines, exit codes from the merged results.
import { describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mergeRuns } from '../../src/cli/merge.js';
import type { RunResult } from '../../src/core/types.js';
import { packagePath } from '../../src/core/paths.js';
import { jsonReporter } from '../../src/reporters/json.js';
import { fixtureRun, results } from '../reporters/fixture.js';
import { runCli } from '../../src/testing/cli-runner.js';

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { env });

/** Writes runs as JSON reports into a fresh directory; returns their paths. */
async function reports(...runs: RunResult[]): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'conf-merge-in-'));
  return Promise.all(
    runs.map(async (run, i) => {
      const file = join(dir, `shard-${i + 1}.json`);
      await writeFile(file, jsonReporter.render(run, { color: false }));
      return file;
    }),
  );
}

const shard = (index: number, total: number, overrides: Partial<RunResult> = {}) =>
  fixtureRun({ shard: { index, total }, ...overrides });

describe('mergeRuns', () => {
  it('concatenates in shard order, recounts, adds requests and cleanup, keeps the longest duration', () => {
    const a = shard(2, 2, {
      results: results.slice(5),
      durationMs: 900,
      startedAt: '2026-11-22T10:00:05.000Z',
    });
    const b = shard(1, 2, { results: results.slice(0, 5), durationMs: 1200 });
    const merged = mergeRuns([a, b]);
    expect(merged.results).toEqual(results);
    expect(merged.summary).toEqual({
      total: 10,
      passed: 2,
      failed: 3,
      skipped: 3,
      errored: 1,
      waived: 1,
      requests: 812 * 2,
    });
    expect(merged.durationMs).toBe(1200);
    expect(merged.startedAt).toBe('2026-11-22T10:00:00.123Z');
    expect(merged.cleanup.created).toBe(8);
    expect(merged.cleanup.leftovers).toHaveLength(2);
    expect(merged.shard).toBeUndefined();
    expect(merged.interrupted).toBeUndefined();
    expect(mergeRuns([a, { ...b, interrupted: true }]).interrupted).toBe(true);
    // Every shard lists the config's not-probed paths: the merged run lists each once.
    const notProbed = [{ path: '/widgets/{id}/parts', reason: 'nested collection' }];
    expect(
      mergeRuns([
        { ...a, notProbed },
        { ...b, notProbed },
      ]).notProbed,
    ).toEqual(notProbed);
    expect(merged.notProbed).toBeUndefined();
    // Warnings about the run (a short secret...) are said once, whichever shards said them.
    const notes = ['the secret from T is only 3 characters long'];
    expect(mergeRuns([{ ...a, notes }, { ...b, notes }, b]).notes).toEqual(notes);
    expect(merged.notes).toBeUndefined();
  });

  it('keeps a check × resource once, with its worst outcome', () => {
    const pass = { ...results[0] };
    const skip = { ...results[0], status: 'skipped' as const, message: 'no exchange' };
    const fail = { ...results[0], status: 'failed' as const, message: 'not JSON' };
    const merged = mergeRuns([
      shard(1, 3, { results: [skip] }),
      shard(2, 3, { results: [fail] }),
      shard(3, 3, { results: [pass] }),
    ]);
    expect(merged.results).toEqual([fail]);
    expect(mergeRuns([shard(1, 2, { results: [skip] }), shard(2, 2, { results: [pass] })]).results).toEqual([
      pass,
    ]);
  });
});

describe('conformance merge', () => {
  it('writes JSON, JUnit, HTML and Markdown by default, and exits 1 when the merged run has failures', async () => {
    const files = await reports(
      shard(1, 2, { results: results.slice(0, 5) }),
      shard(2, 2, { results: results.slice(5) }),
    );
    const out = await mkdtemp(join(tmpdir(), 'conf-merge-out-'));
    const r = await cli(['merge', ...files, '--out', out, '--no-color']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Failures (2)');
    expect(r.stdout).toContain('Warnings (1, not failing the run)');
    expect(r.stdout).toContain(
      '2 passed, 2 failed, 1 warning, 3 skipped, 1 errored, 1 waived (1624 requests in 1.8 s)',
    );
    for (const name of ['conformance.json', 'junit.xml', 'report.html', 'summary.md']) {
      expect(r.stdout).toContain(join(out, name));
    }
    const merged = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8'));
    expect(merged.results).toHaveLength(10);
    expect(merged.shard).toBeUndefined();
  });

  it('exits 0 when the merged results have no failure, and honours --fail-on warning', async () => {
    const passing = results.filter((r) => r.status === 'passed' || r.checkId === 'create-location');
    const files = await reports(shard(1, 1, { results: passing }));
    const out = await mkdtemp(join(tmpdir(), 'conf-merge-out-'));
    expect((await cli(['merge', ...files, '--out', out, '--quiet'])).code).toBe(0);
    expect((await cli(['merge', ...files, '--out', out, '--quiet', '--fail-on', 'warning'])).code).toBe(1);
  });

  it('appends the Markdown summary to $GITHUB_STEP_SUMMARY', async () => {
    const files = await reports(fixtureRun());
    const out = await mkdtemp(join(tmpdir(), 'conf-merge-out-'));
    const summaryFile = join(out, 'step-summary.md');
    await writeFile(summaryFile, '# Earlier step\n');
    const r = await cli(['merge', ...files, '--out', out, '--reporter', 'markdown'], {
      GITHUB_STEP_SUMMARY: summaryFile,
    });
    expect(r.code).toBe(1);
    const md = await readFile(join(out, 'summary.md'), 'utf8');
    expect(await readFile(summaryFile, 'utf8')).toBe(`# Earlier step\n${md}`);
    expect(md.startsWith('## ❌ Conformance: 2 checks failed and 1 warning')).toBe(true);
  });

  it.each([
    ['a file that is not JSON', async () => [await writeText('{ nope')], /: not JSON \(/],
    [
      'a JSON file that is not a report',
      async () => [packagePath('package.json')],
      /package\.json: not a conformance JSON report/,
    ],
    [
      'a missing file',
      async () => ['/nonexistent/conformance.json'],
      /conformance\.json: cannot read it: no such file/,
    ],
    [
      'a missing shard',
      () => reports(shard(1, 3), shard(3, 3)),
      /missing shard 2\/3: a merged report without it/,
    ],
    [
      'a shard given twice',
      () => reports(shard(1, 2), shard(1, 2)),
      /shard 1\/2 given twice: .*shard-1\.json and .*shard-2\.json/,
    ],
    ['different shard counts', () => reports(shard(1, 2), shard(2, 3)), /different shard counts/],
    [
      'sharded and unsharded reports',
      () => reports(shard(1, 2), fixtureRun()),
      /shard-2\.json: not a shard's report/,
    ],
    [
      'different targets',
      () => reports(shard(1, 2), shard(2, 2, { target: { baseUrl: 'https://other.example/v1' } })),
      /audit different targets: .*https:\/\/api\.example\.com\/v1.*https:\/\/other\.example\/v1/,
    ],
  ])('exits 2 on %s, naming the problem', async (_name, files, problem) => {
    const out = await mkdtemp(join(tmpdir(), 'conf-merge-out-'));
    const r = await cli(['merge', ...(await files()), '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(problem);
    expect(r.stderr).toMatch(/^conformance: /);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });

  it('refuses --reporter har (a JSON report does not hold every exchange) and needs a report', async () => {
    const files = await reports(fixtureRun());
    const har = await cli(['merge', ...files, '--reporter', 'json,har']);
    expect(har.code).toBe(2);
    expect(har.stderr).toContain(`merge cannot write "har"`);
    const none = await cli(['merge']);
    expect(none.code).toBe(2);
  });
});

async function writeText(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'conf-merge-in-'));
  const file = join(dir, 'broken.json');
  await writeFile(file, text);
  return file;
}
