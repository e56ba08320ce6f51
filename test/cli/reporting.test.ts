// What a run prints and writes about warnings, cut messages and progress, as a user of the CLI sees it.
import { describe, expect, it, jest } from '@jest/globals';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { auditAndReport, type AuditFlags } from '../../src/cli/audit.js';
import { packagePath } from '../../src/core/paths.js';
import { jsonReporter } from '../../src/reporters/json.js';
import { runCli } from '../../src/testing/cli-runner.js';
import { exampleConfig, exampleEnv } from '../../src/testing/example-config.js';
import { startExampleFixture } from '../../src/testing/fixture-server.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { catalogue } from '../../suites/index.js';
import { fixtureRun, results } from '../reporters/fixture.js';

const exampleYaml = packagePath('config', 'example.yaml');

/** Text as a literal inside a RegExp. */
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `conformance run` against the example API with these breaks; returns the output and the report files. */
async function runOn(breaks: Record<string, boolean>, args: string[]) {
  // On a fake clock shared with the API: pacing and Retry-After waits take no real time.
  const clock = new FakeClock();
  const server = await startExampleFixture({ breaks, now: clock.now });
  const out = await mkdtemp(join(tmpdir(), 'conf-reporting-'));
  try {
    const r = await runCli(
      ['run', '--base-url', server.baseUrl, '--config', exampleYaml, '--out', out, '--no-color', ...args],
      { env: exampleEnv(server), clock },
    );
    const file = (name: string) => readFile(join(out, name), 'utf8').catch(() => undefined);
    return { ...r, out, junit: await file('junit.xml'), markdown: await file('summary.md') };
  } finally {
    await server.close();
  }
}

describe('warnings are told apart from failures, as the exit code treats them', () => {
  it('--fail-on error (default): WARN progress lines, counted as warnings, passing JUnit tests, exit 0', async () => {
    const r = await runOn({ noLocation: true }, [
      '--only',
      'create-location',
      '--reporter',
      'console,json,junit,markdown',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.includes('create-location'))).toEqual([
      'WARN create-location widgets',
      'WARN create-location orders',
    ]);
    expect(r.stdout).not.toContain('Failures');
    expect(r.stdout).toContain(
      'Warnings (2, not failing the run)\n⚠ MTH-CREATE create-location on widgets, orders:\n    widgets: POST /v1/widgets answered 201 with no Location header\n',
    );
    // The second resource's exchange is in the JSON report, which says so by its path.
    expect(r.stdout).toContain(`  + 1 more exchange in ${join(r.out, 'conformance.json')}\n`);
    expect(r.stdout).toMatch(/^0 passed, 0 failed, 2 warnings, 0 skipped, 0 errored \(/m);
    expect(r.junit).toMatch(/<testsuites name="conformance" tests="2" failures="0"/);
    expect(r.junit).not.toContain('<failure');
    expect(r.junit).toContain('<system-out>warning: POST /v1/widgets answered 201 with no Location header');
    expect(r.markdown?.split('\n')[0]).toMatch(/^## ⚠️ Conformance: no check failed, 2 warnings on http/);
    const json = JSON.parse(await readFile(join(r.out, 'conformance.json'), 'utf8'));
    expect(json.summary).toMatchObject({ failed: 2, warnings: 2 });
    expect(
      json.results.map((x: { status: string; severity: string }) => `${x.status} ${x.severity}`),
    ).toEqual(['failed warning', 'failed warning']);
  });

  it('--fail-on warning: FAIL progress lines, JUnit failures of type warning, exit 1', async () => {
    const r = await runOn({ noLocation: true }, [
      '--only',
      'create-location',
      '--fail-on',
      'warning',
      '--reporter',
      'console,junit,markdown',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('FAIL create-location widgets\n');
    expect(r.stdout).toContain('Warnings (2, failing the run: --fail-on warning)\n');
    expect(r.stdout).toContain('0 failed, 2 warnings (failing: --fail-on warning),');
    expect(r.junit).toMatch(/<testsuites name="conformance" tests="2" failures="2"/);
    expect(r.junit).toContain('type="warning"');
    expect(r.markdown?.split('\n')[0]).toMatch(
      /^## ❌ Conformance: 2 warnings on .* \(failing: --fail-on warning\)$/,
    );
    // Without the JSON report, a cut or extra exchange points at the next report that has it.
    expect(r.stdout).toContain(`  + 1 more exchange in ${join(r.out, 'junit.xml')}\n`);
  });

  it('merge judges warnings by its own --fail-on in every report', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'conf-reporting-merge-'));
    const input = join(dir, 'conformance.json');
    const warningsOnly = results.filter((r) => r.status === 'passed' || r.checkId === 'create-location');
    await writeFile(input, jsonReporter.render(fixtureRun({ results: warningsOnly }), { color: false }));
    for (const [failOn, code, failures] of [
      ['error', 0, '0'],
      ['warning', 1, '1'],
    ] as const) {
      const out = join(dir, failOn);
      const r = await runCli(['merge', input, '--out', out, '--fail-on', failOn, '--no-color']);
      expect(r.code).toBe(code);
      const junit = await readFile(join(out, 'junit.xml'), 'utf8');
      expect(junit).toMatch(new RegExp(`<testsuites name="conformance" tests="3" failures="${failures}"`));
      const md = await readFile(join(out, 'summary.md'), 'utf8');
      expect(md.startsWith(failOn === 'error' ? '## ⚠️' : '## ❌')).toBe(true);
      const html = await readFile(join(out, 'report.html'), 'utf8');
      expect(html).toContain(
        `<p class="verdict ${failOn === 'error' ? 'warning' : 'failed'}">No check failed; 1 warning`,
      );
      expect(JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8')).summary).toMatchObject({
        failed: 1,
        warnings: 1,
      });
    }
  });
});

describe('output flags', () => {
  it('prints no per-result lines when the console reporter is not chosen', async () => {
    const r = await runOn({}, ['--only', 'create-location', '--reporter', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    // One summary line still goes to stdout, where people and CI logs look.
    expect(r.stdout).toMatch(
      new RegExp(
        `^2 passed, 0 failed, 0 warnings, 0 skipped, 0 errored \\(\\d+ requests in [^)]+\\)\\nReports: ${escape(join(r.out, 'conformance.json'))}\\n$`,
      ),
    );
    const quiet = await runOn({}, ['--only', 'create-location', '--reporter', 'json', '--quiet']);
    expect([quiet.code, quiet.stdout, quiet.stderr]).toEqual([0, '', '']);
    const failing = await runOn({ noLocation: true }, [
      '--only',
      'create-location',
      '--reporter',
      'json,html',
    ]);
    expect(failing.stdout.split('\n')[0]).toMatch(/^0 passed, 0 failed, 2 warnings, 0 skipped, 0 errored \(/);
    const withConsole = await runOn({}, ['--only', 'create-location', '--reporter', 'console']);
    expect(withConsole.stderr).toBe('ok   create-location widgets\nok   create-location orders\n');
  });

  it('refuses --quiet with --verbose (exit 2, saying why), for run, demo and merge', async () => {
    for (const args of [
      ['run', '--config', exampleYaml, '--quiet', '--verbose'],
      ['demo', '--quiet', '--verbose'],
      ['merge', 'a.json', '--quiet', '--verbose'],
    ]) {
      const r = await runCli(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe('conformance: --quiet and --verbose cannot be used together: choose one\n');
    }
  });

  it('--help says what --verbose adds', async () => {
    // yargs prints help through console.log, not through the CLI's io.
    const printed: string[] = [];
    const log = jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      printed.push(args.map(String).join(' '));
    });
    try {
      expect((await runCli(['run', '--help'])).code).toBe(0);
    } finally {
      log.mockRestore();
    }
    expect(printed.join('\n').replace(/\s+/g, ' ')).toContain(
      '--verbose Console: also list every passed and skipped check, and print messages in full (not with --quiet)',
    );
  });
});

describe('progress on a terminal', () => {
  it('never shows 100% before the last result, and ends at [n/n]', async () => {
    const clock = new FakeClock();
    const server = await startExampleFixture({ breaks: { htmlErrors: true }, now: clock.now });
    try {
      const config = await exampleConfig(server);
      const stderr = Object.assign(new PassThrough(), { isTTY: true, columns: 200 });
      const chunks: string[] = [];
      stderr.on('data', (d: Buffer) => chunks.push(d.toString('utf8')));
      const flags: AuditFlags = {
        reporter: ['json'],
        out: await mkdtemp(join(tmpdir(), 'conf-progress-')),
        only: [],
        skip: [],
        concurrency: 8,
        timeout: 10_000,
        readOnly: false,
        failOn: 'error',
        color: false,
        quiet: false,
        verbose: false,
      };
      const { result } = await auditAndReport(config, catalogue, flags, {
        stdout: new PassThrough(),
        stderr,
        env: {},
        clock,
      });
      const drawn = chunks
        .join('')
        .split('\r\x1b[2K')
        .map((l) => /^\[ *(\d+)\/(\d+)\] +(\d+)%/.exec(l))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => ({ done: Number(m[1]), total: Number(m[2]), pct: Number(m[3]) }));
      // One line per result, the last one complete.
      expect(drawn).toHaveLength(result.results.length);
      expect(drawn.at(-1)).toEqual({ done: result.results.length, total: result.results.length, pct: 100 });
      // Observers found API-wide traffic (an HTML error page): their rows were in the total from the start.
      expect(result.results.some((r) => r.checkId === 'json-responses' && r.resource === undefined)).toBe(
        true,
      );
      for (const line of drawn.slice(0, -1)) {
        expect(line.pct).toBeLessThan(100);
        expect(line.done).toBeLessThan(line.total);
      }
    } finally {
      await server.close();
    }
  });
});
