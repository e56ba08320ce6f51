// A run writes a fresh set of report files: none of an earlier run is left beside the new ones, nothing else is touched.
import { describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reporters } from '../../src/reporters/index.js';
import { REPORT_MARKERS } from '../../src/cli/stale-reports.js';
import { runCli } from '../../src/testing/cli-runner.js';
import { packagePath } from '../../src/core/paths.js';
import { exampleEnv } from '../../src/testing/example-config.js';
import { startRawFixture } from '../../src/testing/fixture-server.js';

const demo = (out: string, reporter: string) =>
  runCli(['demo', '--only', 'MTH-READ', '--out', out, '--reporter', reporter, '--no-color']);

describe('fresh report files per run', () => {
  it('removes our report files of an earlier run that this run does not write, and says so', async () => {
    const out = await mkdtemp(join(tmpdir(), 'conf-fresh-'));
    const first = await demo(out, 'json,junit,html,markdown,har');
    expect(first.code).toBe(0);
    const all = Object.values(reporters).flatMap((r) => (r.fileName ? [r.fileName] : []));
    expect((await readdir(out)).sort()).toEqual([...all].sort());
    // Files of the user's own in the same folder.
    await writeFile(join(out, 'notes.txt'), 'mine');
    await mkdir(join(out, 'older'));
    await writeFile(join(out, 'older', 'junit.xml'), '<testsuites name="conformance"/>');

    const before = await readFile(join(out, 'conformance.json'), 'utf8');
    const second = await demo(out, 'console,json,html');
    expect(second.code).toBe(0);
    expect((await readdir(out)).sort()).toEqual(['conformance.json', 'notes.txt', 'older', 'report.html']);
    expect(await readFile(join(out, 'conformance.json'), 'utf8')).not.toBe(before);
    expect(await readFile(join(out, 'notes.txt'), 'utf8')).toBe('mine');
    expect(await readdir(join(out, 'older'))).toEqual(['junit.xml']);
    expect(second.stdout).toContain(
      `Removed from ${out} the earlier run's junit.xml, summary.md, exchanges.har (not written by this run)`,
    );
  });

  it('a run that cannot audit (exit 2) removes the reports of an earlier run instead of leaving them to pass for its own', async () => {
    const out = await mkdtemp(join(tmpdir(), 'conf-fresh-'));
    expect((await demo(out, 'json,junit,markdown')).code).toBe(0);
    await writeFile(join(out, 'notes.txt'), 'mine');
    const server = await startRawFixture((_req, res) => res.end());
    await server.close();
    const env = exampleEnv({ tokens: { full: 'abcd1234', limited: 'efgh5678' } });
    const args = ['run', '--config', packagePath('config', 'example.yaml'), '--base-url', server.baseUrl];
    const r = await runCli([...args, '--out', out, '--reporter', 'console,json,junit'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot reach .*connection refused/);
    expect(r.stderr).toContain(
      `conformance: removed from ${out} the earlier run's conformance.json, junit.xml, summary.md: this run could not audit, so it wrote no reports`,
    );
    expect(await readdir(out)).toEqual(['notes.txt']);
  });

  it('a file with a report name that another tool wrote is left alone, and the run says so', async () => {
    const out = await mkdtemp(join(tmpdir(), 'conf-fresh-'));
    const foreign = '<?xml version="1.0"?>\n<testsuites name="jest tests"></testsuites>\n';
    await writeFile(join(out, 'junit.xml'), foreign);
    const r = await demo(out, 'console,json');
    expect(r.code).toBe(0);
    expect(await readFile(join(out, 'junit.xml'), 'utf8')).toBe(foreign);
    expect(r.stdout).toContain(`Left alone in ${out}: junit.xml (not a report of this tool`);
  });

  it('a run that writes no file leaves the folder as it was', async () => {
    const out = await mkdtemp(join(tmpdir(), 'conf-fresh-'));
    await demo(out, 'json,junit');
    const r = await demo(out, 'console');
    expect(r.code).toBe(0);
    expect((await readdir(out)).sort()).toEqual(['conformance.json', 'junit.xml']);
  });

  it('merge never removes its own inputs, even in their folder', async () => {
    const out = await mkdtemp(join(tmpdir(), 'conf-fresh-'));
    expect(
      (
        await runCli([
          'demo',
          '--only',
          'MTH-READ',
          '--shard',
          '1/1',
          '--out',
          out,
          '--reporter',
          'json,junit',
        ])
      ).code,
    ).toBe(0);
    const merged = await runCli([
      'merge',
      join(out, 'conformance.json'),
      '--out',
      out,
      '--reporter',
      'markdown',
    ]);
    expect(merged.code).toBe(0);
    expect((await readdir(out)).sort()).toEqual(['conformance.json', 'summary.md']);
  });

  it('knows how every report file of ours begins', () => {
    const names = Object.values(reporters).flatMap((r) => (r.fileName ? [r.fileName] : []));
    expect(Object.keys(REPORT_MARKERS).sort()).toEqual([...names].sort());
  });
});
