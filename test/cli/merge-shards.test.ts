// The same audit as 3 shards and merged gives the results of one unsharded run (the CI matrix promise).
import { describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { packagePath } from '../../src/core/paths.js';
import { exampleEnv } from '../../src/testing/example-config.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { startExampleFixture, type FixtureServer } from '../../src/testing/fixture-server.js';
import { parseXml, childElements } from '../reporters/xml-parse.js';
import { runCli } from '../../src/testing/cli-runner.js';

// Every audit here runs on a fake clock shared with its server: pacing and the wait after the 429
// burst (LIM-RETRY) take no real time, and the burst meets its 429 on any machine.
const clock = new FakeClock();
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { env, clock });

type Json = Record<string, any>;

/**
 * config/example.yaml with four resources (things1 and things2 are widgets-shaped collections
 * of the example API), so 3 shards each get at least one, and two waivers: one active, one expired.
 */
async function writeConfig(dir: string): Promise<string> {
  const config = parse(await readFile(packagePath('config', 'example.yaml'), 'utf8')) as Json;
  for (const r of config.resources as Json[])
    r.schema = packagePath('config', 'schemas', String(r.schema).slice(10));
  const widgets = (config.resources as Json[]).find((r) => r.name === 'widgets')!;
  for (const name of ['things1', 'things2']) config.resources.push({ ...widgets, name, path: `/${name}` });
  config.waivers = [
    { check: 'delete-removes', resource: 'widgets', reason: 'soft delete until v2', expires: '2999-12-31' },
    { rule: 'MTH-DELETE', resource: 'orders', reason: 'old gateway', expires: '2000-01-01' },
  ];
  const file = join(dir, 'conformance.config.json');
  await writeFile(file, JSON.stringify(config, null, 2));
  return file;
}

/** What must match between the runs: each check × resource with its outcome. */
function outcomes(report: Json): string[] {
  return (report.results as Json[])
    .map((r) => `${r.checkId} | ${r.resource ?? '(api)'} | ${r.status} | ${r.severity}`)
    .sort();
}

const SERVER = { extraResources: 2, breaks: { deleteNoop: true }, now: clock.now } as const;

describe('sharding and merging', () => {
  it('3 shards merged give the same results as one unsharded run', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'conf-shards-'));
    const config = await writeConfig(dir);
    const audit = async (server: FixtureServer, out: string, extra: string[] = []) => {
      const r = await cli(
        [
          'run',
          '--config',
          config,
          '--base-url',
          server.baseUrl,
          '--out',
          out,
          '--reporter',
          'json',
          ...extra,
        ],
        exampleEnv(server),
      );
      expect(r.stderr).not.toContain('conformance:');
      return r.code;
    };

    const whole = await startExampleFixture(SERVER);
    try {
      expect(await audit(whole, join(dir, 'whole'))).toBe(1);
    } finally {
      await whole.close();
    }

    // The shards share one server, as the jobs of a CI matrix share one deployment.
    const shared = await startExampleFixture(SERVER);
    const shardFiles: string[] = [];
    try {
      for (const i of [1, 2, 3]) {
        const out = join(dir, `shard-${i}`);
        await audit(shared, out, ['--shard', `${i}/3`]);
        shardFiles.push(join(out, 'conformance.json'));
      }
    } finally {
      await shared.close();
    }

    const shards = await Promise.all(
      shardFiles.map(async (f) => JSON.parse(await readFile(f, 'utf8')) as Json),
    );
    // Each shard audited some resources, and no resource was audited twice.
    const resourcesOf = (r: Json) =>
      [...new Set((r.results as Json[]).map((x) => x.resource).filter(Boolean))].sort();
    expect(shards.map(resourcesOf)).toEqual([['orders', 'widgets'], ['things1'], ['things2']]);

    const merged = join(dir, 'merged');
    const r = await cli(['merge', ...shardFiles, '--out', merged, '--quiet'], {});
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);

    const wholeReport = JSON.parse(await readFile(join(dir, 'whole', 'conformance.json'), 'utf8')) as Json;
    const mergedReport = JSON.parse(await readFile(join(merged, 'conformance.json'), 'utf8')) as Json;
    expect(outcomes(mergedReport)).toEqual(outcomes(wholeReport));
    // Requests (and the answers they got) are the shards' sums: each shard sends its own probes.
    const counts = ({ requests: _r, answered: _a, ...rest }: Json) => rest;
    expect(counts(mergedReport.summary)).toEqual(counts(wholeReport.summary));
    expect(mergedReport.summary.requests).toBe(shards.reduce((sum, s) => sum + s.summary.requests, 0));
    expect(mergedReport.summary.answered).toBe(shards.reduce((sum, s) => sum + s.summary.answered, 0));
    expect(mergedReport.durationMs).toBe(Math.max(...shards.map((s) => s.durationMs)));

    // The run had passed, failed and waived results, the waivers as configured.
    expect(mergedReport.summary.passed).toBeGreaterThan(0);
    const del = (resource: string) =>
      (mergedReport.results as Json[]).find(
        (x) => x.checkId === 'delete-removes' && x.resource === resource,
      )!;
    expect(del('widgets').status).toBe('waived');
    expect(del('orders').status).toBe('failed');
    expect(del('orders').message).toMatch(/^waiver expired on 2000-01-01: old gateway — /);
    expect(del('things1').status).toBe('failed');
    expect(del('things2').status).toBe('failed');

    // The other formats come from the same merged run.
    const junit = parseXml(await readFile(join(merged, 'junit.xml'), 'utf8'));
    const cases = childElements(junit, 'testsuite').flatMap((s) => childElements(s, 'testcase'));
    expect(cases).toHaveLength(mergedReport.results.length);
    const html = await readFile(join(merged, 'report.html'), 'utf8');
    expect(html).toContain(`All results (${mergedReport.results.length})`);
    const md = await readFile(join(merged, 'summary.md'), 'utf8');
    expect(md.split('\n')[0]).toBe(
      `## ❌ Conformance: ${mergedReport.summary.failed} checks failed on ${mergedReport.target.baseUrl}`,
    );
    expect(md).toContain('| Rule | orders | widgets | things1 | things2 |');

    // The order the reports are given in does not matter.
    const again = join(dir, 'merged-again');
    await cli(['merge', ...[...shardFiles].reverse(), '--out', again, '--quiet', '--reporter', 'json'], {});
    expect(await readFile(join(again, 'conformance.json'), 'utf8')).toBe(
      await readFile(join(merged, 'conformance.json'), 'utf8'),
    );
  }, 60_000);
});
