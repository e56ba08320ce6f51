// Reproduction scripts from the command line: --reporter repro, --resource, and a hostile token that injects nothing.
import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packagePath } from '../../src/core/paths.js';
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
      // Its default BASE_URL is the demo's API, gone once the demo ended: the header says what to do.
      expect(f.reproduce).toContain(
        "# BASE_URL: the API to try it on (default: the audited one; the demo's API stops when the demo ends: run the demo again with --serve and use the scripts that run writes).\n",
      );
      // The demo's own command, with its break: pasted, it runs just that check on that resource.
      expect(f.rerun).toBe(
        `conformance demo --break delete-noop --only delete-removes --resource ${f.resource} --reporter console`,
      );
    }
    // The console shows a check's failures as one block: every resource's script and re-run command.
    for (const name of ['orders', 'widgets']) {
      expect(r.stdout).toContain(`    ${name}: ${join(out, 'repro')}/delete-removes--${name}.sh\n`);
      expect(r.stdout).toContain(
        `    ${name}: conformance demo --break delete-noop --only delete-removes --resource ${name} --reporter console\n`,
      );
    }
    expect(r.stdout).toContain('Scripts that replay them, state and all:\n');
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

/** The words a shell makes of a pasted command line (without its leading `conformance`). */
async function pasted(line: string): Promise<string[]> {
  expect(line).toMatch(/^conformance /);
  const { stdout } = await promisify(execFile)('bash', [
    '-c',
    `set -f; words() { printf '%s\\0' "$@"; }; words ${line.slice('conformance '.length)}`,
  ]);
  return stdout.split('\0').slice(0, -1);
}

/** The failed results of a conformance.json: check, resource, problem ids. */
async function failures(out: string): Promise<Array<{ key: string; ids: string[]; rerun?: string }>> {
  const report = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8'));
  return (report.results as Array<Result & { problemIds?: string[] }>)
    .filter((x) => x.status === 'failed')
    .map((x) => ({ key: `${x.checkId} ${x.resource ?? '-'}`, ids: x.problemIds ?? [], rerun: x.rerun }));
}

describe('the command that runs a failed check again, pasted as printed', () => {
  it("repeats the run's config and base URL (no secret), runs just that check on that resource, and fails the same way", async () => {
    const broken = await startExampleFixture({ breaks: { deleteNoop: true } });
    try {
      const env = exampleEnv(broken);
      const out = await tempDir();
      const config = packagePath('config', 'example.yaml');
      const first = await runCli(
        [
          'run',
          '--config',
          config,
          '--base-url',
          broken.baseUrl,
          '--only',
          'methods',
          // At its default (AUDIT_DEFAULTS): left out of the re-run; not at its default: repeated.
          '--timeout',
          '10000',
          '--concurrency',
          '4',
          '--reporter',
          'json',
          '--out',
          out,
        ],
        { env },
      );
      expect(first.code).toBe(1);
      const failed = await failures(out);
      const widgets = failed.find((f) => f.key === 'delete-removes widgets');
      expect(widgets?.rerun).toBe(
        `conformance run --config ${config} --base-url ${broken.baseUrl} --concurrency 4 --only delete-removes --resource widgets --reporter console`,
      );
      for (const secret of Object.values(env)) expect(widgets!.rerun).not.toContain(secret);
      const again = await tempDir();
      const rerun = await runCli([...(await pasted(widgets!.rerun!)), '--reporter', 'json', '--out', again], {
        env,
      });
      expect(rerun.code).toBe(1);
      expect((await failures(again)).map(({ key, ids }) => ({ key, ids }))).toEqual([
        { key: widgets!.key, ids: widgets!.ids },
      ]);
    } finally {
      await broken.close();
    }
  });

  it('under demo repeats the breaks, and for a failed warning adds --fail-on warning so that it exits 1 too', async () => {
    const out = await tempDir();
    const first = await runCli([
      'demo',
      '--break',
      'no-location',
      '--only',
      'create-location',
      '--reporter',
      'json',
      '--out',
      out,
    ]);
    expect(first.code).toBe(0);
    const failed = await failures(out);
    expect(failed.length).toBeGreaterThan(0);
    for (const f of failed) {
      expect(f.rerun).toMatch(
        /^conformance demo --break no-location --fail-on warning --only create-location --resource \S+ --reporter console$/,
      );
      const again = await tempDir();
      const rerun = await runCli([...(await pasted(f.rerun!)), '--reporter', 'json', '--out', again]);
      expect(rerun.code).toBe(1);
      expect((await failures(again)).map(({ key, ids }) => ({ key, ids }))).toEqual([
        { key: f.key, ids: f.ids },
      ]);
    }
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
