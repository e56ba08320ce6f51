// Reproduction scripts from the command line: --reporter repro, --resource, and a hostile token that injects nothing.
import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { auditFixture } from '../../src/testing/check-tester.js';
import { exampleEnv } from '../../src/testing/example-config.js';
import { startExampleFixture } from '../../src/testing/fixture-server.js';
import { runCli } from '../../src/testing/cli-runner.js';
import { catalogue } from '../../suites/index.js';
import { HOSTILE_TOKEN } from '../safety/spellings.js';

const tempDir = () => mkdtemp(join(tmpdir(), 'conf-repro-cli-'));

interface Result {
  checkId: string;
  resource?: string;
  status: string;
  rerun?: string;
  reproduce?: string;
}

describe('--reporter repro', () => {
  it('writes each failure its executable script, as conformance.json holds it, with how to run the check again', async () => {
    const out = await tempDir();
    await writeFile(join(out, 'placeholder'), 'not ours');
    const r = await runCli([
      'demo',
      '--break',
      'delete-noop',
      '--only',
      'delete-removes',
      '--reporter',
      'console,json,repro',
      '--out',
      out,
      '--no-color',
    ]);
    expect(r.code).toBe(1);
    const report = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8'));
    const failed = (report.results as Result[]).filter((x) => x.status === 'failed');
    expect(failed.map((f) => f.resource).sort()).toEqual(['orders', 'widgets']);
    expect((await readdir(join(out, 'repro'))).sort()).toEqual([
      'delete-removes--orders.sh',
      'delete-removes--widgets.sh',
    ]);
    for (const f of failed) {
      const file = join(out, 'repro', `delete-removes--${f.resource}.sh`);
      expect(await readFile(file, 'utf8')).toBe(f.reproduce);
      expect((await stat(file)).mode & 0o111).toBe(0o111);
      expect(f.rerun).toBe(`conformance run --only delete-removes --resource ${f.resource}`);
    }
    // The console shows a check's failures as one block: its first script, and how to run it again.
    expect(r.stdout).toMatch(
      new RegExp(
        `Script that replays it, state and all: ${join(out, 'repro')}/delete-removes--(orders|widgets)\\.sh`,
      ),
    );
    expect(r.stdout).toMatch(
      /Run this check again alone: conformance run --only delete-removes --resource (orders|widgets)/,
    );
    expect(await readFile(join(out, 'placeholder'), 'utf8')).toBe('not ours');
  });

  it('--resource audits only the named resource; an unknown name is exit 2 with a suggestion', async () => {
    const out = await tempDir();
    const r = await runCli([
      'demo',
      '--only',
      'read-collection-and-item',
      '--resource',
      'orders',
      '--reporter',
      'json',
      '--out',
      out,
    ]);
    expect(r.code).toBe(0);
    const report = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8'));
    expect(new Set((report.results as Result[]).map((x) => x.resource))).toEqual(new Set(['orders']));
    const bad = await runCli(['demo', '--resource', 'widgts', '--reporter', 'json', '--out', out]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '--resource widgts: no such resource in the config (did you mean "widgets"?)',
    );
  });
});

describe('a reproduction script with a token full of shell metacharacters', () => {
  it('sends it byte for byte, runs nothing it holds, never prints it, and reproduces the failure', async () => {
    const broken = await startExampleFixture({
      breaks: { deleteNoop: true },
      tokens: { full: HOSTILE_TOKEN },
    });
    try {
      const { result } = await auditFixture(
        catalogue.filter((c) => c.id === 'delete-removes'),
        {
          server: async () => ({ ...broken, close: async () => undefined }),
        },
      );
      const failure = result.results.find((x) => x.status === 'failed' && x.resource === 'widgets');
      expect(failure?.reproduce).toBeDefined();
      expect(failure!.reproduce).not.toContain(HOSTILE_TOKEN);
      const cwd = await tempDir();
      const file = join(cwd, '..', `${cwd.split('/').pop()}.sh`);
      await writeFile(file, failure!.reproduce!);
      const run = await promisify(execFile)('bash', [file], {
        cwd,
        env: { PATH: process.env.PATH, ...exampleEnv(broken) },
      }).then(
        () => ({ code: 0, out: '' }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
      );
      expect(run.code).toBe(1);
      expect(run.out).toMatch(/^reproduced: /m);
      expect(run.out).not.toContain(HOSTILE_TOKEN);
      expect(await readdir(cwd)).toEqual([]);
    } finally {
      await broken.close();
    }
  });
});
