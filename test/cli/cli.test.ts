// The command line as a user meets it: exit codes, messages, report files.
import { describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startExampleFixture, startRawFixture } from '../../src/testing/fixture-server.js';
import { packagePath } from '../../src/core/paths.js';
import { exampleEnv, writeExampleConfig } from '../../src/testing/example-config.js';
import { runCli } from '../../src/testing/cli-runner.js';
import { FakeClock } from '../../src/testing/fake-clock.js';

// The audits run on a fake clock shared with the example API: pacing and the wait after the 429
// burst (LIM-RETRY) take no real time.
const clock = new FakeClock();
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { env, clock });

const exampleYaml = packagePath('config', 'example.yaml');

describe('conformance run', () => {
  it('exits 1 on a server that breaks a rule, naming the rule with evidence and a curl line', async () => {
    const server = await startExampleFixture({ breaks: { deleteNoop: true }, now: clock.now });
    const out = await mkdtemp(join(tmpdir(), 'conf-cli-'));
    try {
      const r = await cli(
        ['run', '--base-url', server.baseUrl, '--config', exampleYaml, '--out', out, '--no-color'],
        exampleEnv(server),
      );
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('MTH-DELETE');
      expect(r.stdout).toContain('still readable');
      const report = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8'));
      const failed = report.results.filter((x: { status: string }) => x.status === 'failed');
      expect(failed.map((x: { rules: string[] }) => x.rules[0])).toEqual(['MTH-DELETE', 'MTH-DELETE']);
      expect(failed[0].evidence[0].curl).toMatch(/^curl -i -X DELETE .*\$\{CONFORMANCE_TOKEN\}/);
      expect(failed[0].evidence[0].request.headers.authorization).toBe('Bearer [redacted]');
      const junit = await readFile(join(out, 'junit.xml'), 'utf8');
      expect(junit).toContain('MTH-DELETE');
      // The token never appears in any output.
      expect(JSON.stringify(report) + junit + r.stdout + r.stderr).not.toContain(server.tokens.full);
    } finally {
      await server.close();
    }
  });

  it('exits 0 on the example API with --fail-on error', async () => {
    const server = await startExampleFixture({ now: clock.now });
    const out = await mkdtemp(join(tmpdir(), 'conf-cli-'));
    try {
      const r = await cli(
        ['run', '--base-url', server.baseUrl, '--config', exampleYaml, '--out', out, '--quiet'],
        exampleEnv(server),
      );
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/\d+ passed, 0 failed/);
    } finally {
      await server.close();
    }
  });

  it('exits 2 with one line per config problem, no stack trace', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'conf-cli-'));
    const file = join(dir, 'bad.yaml');
    await writeFile(
      file,
      'baseUrl: http://127.0.0.1:1/v1\nresources:\n  - name: widgets\n    path: widgets\n    sampel: {}\n',
    );
    const r = await cli(['run', '--config', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('resources[0].path');
    expect(r.stderr).toContain('sampel');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 naming a missing environment variable', async () => {
    const r = await cli(['run', '--config', exampleYaml, '--base-url', 'http://127.0.0.1:1/v1'], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('CONFORMANCE_TOKEN');
  });

  it('exits 2 when the target is unreachable', async () => {
    const server = await startRawFixture((_req, res) => res.end());
    const url = server.baseUrl;
    await server.close();
    // Its own --out: an exit-2 run clears our reports there, and says so on stderr.
    const out = await mkdtemp(join(tmpdir(), 'conf-cli-'));
    const r = await cli(
      ['run', '--config', exampleYaml, '--base-url', url, '--out', out],
      exampleEnv({ tokens: { full: 'abcd1234', limited: 'efgh5678' } }),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot reach .*connection refused/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('exits 2 on bad arguments', async () => {
    expect((await cli(['run', '--concurrency', '0', '--config', exampleYaml])).code).toBe(2);
    expect((await cli(['run', '--bogus'])).code).toBe(2);
    const r = await cli(
      ['run', '--reporter', 'pdf', '--config', exampleYaml, '--base-url', 'http://127.0.0.1:1/v1'],
      exampleEnv({ tokens: { full: 'abcd1234', limited: 'efgh5678' } }),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown reporter "pdf"');
  });
});

describe('payload templates', () => {
  it('names a {{word}} in a payload that is no template (a typo), once, before the audit sends it as written', async () => {
    const server = await startExampleFixture({ now: clock.now });
    const dir = await mkdtemp(join(tmpdir(), 'conf-cli-'));
    const args = (config: string) => [
      'run',
      '--base-url',
      server.baseUrl,
      '--config',
      config,
      '--out',
      dir,
      '--only',
      'MTH-CREATE',
    ];
    try {
      const typos = await writeExampleConfig((text) =>
        text.replace('update: { price: 5 }', "update: { price: 5, name: 'n-{{uniq}}', code: '{{ id }}' }"),
      );
      const typo = await cli(args(typos), exampleEnv(server));
      expect(typo.code).toBe(0);
      const notes = typo.stderr.split('\n').filter((l) => l.includes('note:'));
      expect(notes).toEqual([
        'conformance: note: resource widgets, update: {{uniq}} is not a payload template ({{id}}, {{unique}}); it is sent as written',
        // Spaces inside make it no template either: it is sent as written too.
        'conformance: note: resource widgets, update: {{ id }} is not a payload template ({{id}}, {{unique}}); it is sent as written',
      ]);
      // The example config's payloads hold none: no note.
      const clean = await cli(args(await writeExampleConfig()), exampleEnv(server));
      expect(clean.code).toBe(0);
      expect(clean.stderr).not.toContain('note:');
    } finally {
      await server.close();
    }
  });
});

describe('selecting checks', () => {
  it('exits 2 on --only or --skip naming nothing, with a suggestion', async () => {
    const env = exampleEnv({ tokens: { full: 'abcd1234', limited: 'efgh5678' } });
    const args = ['run', '--config', exampleYaml, '--base-url', 'http://127.0.0.1:1/v1'];
    const only = await cli([...args, '--only', 'nonsense'], env);
    expect(only.code).toBe(2);
    expect(only.stderr).toContain('--only nonsense: no check, rule or suite of that name');
    const skip = await cli([...args, '--skip', 'MTH-DELET'], env);
    expect(skip.code).toBe(2);
    expect(skip.stderr).toContain('(did you mean "MTH-DELETE"?)');
  });

  it('--only an observed rule still sends the traffic it judges, reporting only that rule', async () => {
    const server = await startExampleFixture({ breaks: { htmlErrors: true }, now: clock.now });
    const out = await mkdtemp(join(tmpdir(), 'conf-cli-'));
    try {
      const r = await cli(
        ['run', '--base-url', server.baseUrl, '--config', exampleYaml, '--out', out, '--only', 'GEN-JSON'],
        exampleEnv(server),
      );
      expect(r.code).toBe(1);
      const report = JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8'));
      expect(new Set(report.results.map((x: { rules: string[] }) => x.rules.join()))).toEqual(
        new Set(['GEN-JSON']),
      );
      expect(report.results.filter((x: { status: string }) => x.status === 'failed').length).toBeGreaterThan(
        0,
      );
    } finally {
      await server.close();
    }
  });
});

describe('conformance list and explain', () => {
  it('lists every check with its rules', async () => {
    const r = await cli(['list', '--json']);
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout);
    expect(rows.find((x: { id: string }) => x.id === 'delete-removes')).toMatchObject({
      rules: ['MTH-DELETE'],
      severity: 'error',
    });
  });

  it('explains a check and a rule', async () => {
    const check = await cli(['explain', 'delete-removes']);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain('What it sends');
    const rule = await cli(['explain', 'MTH-DELETE']);
    expect(rule.stdout).toContain('delete-removes');
    const none = await cli(['explain', 'nope']);
    expect(none.code).toBe(2);
    const typo = await cli(['explain', 'delete-remove']);
    expect(typo.stderr).toContain('(did you mean "delete-removes"?)');
  });
});

describe('credentials the API refuses', () => {
  it('exits 2 naming the token and its variable instead of failing every check', async () => {
    const server = await startExampleFixture({ now: clock.now });
    try {
      const r = await cli(['run', '--base-url', server.baseUrl, '--config', exampleYaml], {
        ...exampleEnv(server),
        CONFORMANCE_TOKEN: 'expired-token-1234',
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('the API refused auth.token (from CONFORMANCE_TOKEN)');
      expect(r.stderr).not.toContain('expired-token-1234');
    } finally {
      await server.close();
    }
  });
});
