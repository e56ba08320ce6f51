// The GitHub Action (action.yml): its script run locally as the runner would, against the example API.
import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { packagePath } from '../../src/core/paths.js';
import { startExampleFixture } from '../../src/testing/fixture-server.js';
import { exampleEnv } from '../../src/testing/example-config.js';

const script = packagePath('scripts', 'action.mjs');
const exampleYaml = packagePath('config', 'example.yaml');

interface Step {
  code: number;
  stdout: string;
  stderr: string;
  summary: string;
  outputs: Record<string, string>;
  out: string;
}

/** Runs the action's step as the runner does: inputs as INPUT_*, summary and outputs in files. */
async function runStep(inputs: Record<string, string>, env: NodeJS.ProcessEnv = {}): Promise<Step> {
  const dir = await mkdtemp(join(tmpdir(), 'conf-action-'));
  const out = join(dir, 'reports');
  const files = { GITHUB_STEP_SUMMARY: join(dir, 'summary'), GITHUB_OUTPUT: join(dir, 'output') };
  await writeFile(files.GITHUB_STEP_SUMMARY, '');
  await writeFile(files.GITHUB_OUTPUT, '');
  const inputEnv = Object.fromEntries(
    Object.entries({ out, ...inputs }).map(([k, v]) => [`INPUT_${k.toUpperCase().replace(/-/g, '_')}`, v]),
  );
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>(
    (resolve) => {
      execFile(
        process.execPath,
        [script],
        {
          cwd: dir,
          // The repository's own build stands in for the installed package.
          env: {
            PATH: process.env.PATH,
            CONFORMANCE_ACTION_BIN: packagePath('bin', 'conformance'),
            ...files,
            ...inputEnv,
            ...env,
          },
        },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    },
  );
  const outputs = Object.fromEntries(
    (await readFile(files.GITHUB_OUTPUT, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
  );
  return { code, stdout, stderr, summary: await readFile(files.GITHUB_STEP_SUMMARY, 'utf8'), outputs, out };
}

describe('action.yml', () => {
  const action = parse(readFileSync(packagePath('action.yml'), 'utf8')) as {
    runs: { using: string; steps: Array<{ run: string; env: Record<string, string> }> };
    inputs: Record<string, { description: string; default: string }>;
  };

  it('is a composite action whose step hands every input to the script', async () => {
    expect(action.runs.using).toBe('composite');
    const { INPUTS } = (await import(pathToFileURL(script).href)) as { INPUTS: string[] };
    expect(Object.keys(action.inputs).sort()).toEqual([...INPUTS].sort());
    expect(Object.keys(action.inputs)).toEqual(
      expect.arrayContaining(['config', 'base-url', 'reporters', 'fail-on']),
    );
    const step = action.runs.steps[0];
    expect(step.run).toBe('node "$GITHUB_ACTION_PATH/scripts/action.mjs"');
    for (const name of INPUTS)
      expect(step.env[`INPUT_${name.toUpperCase().replace(/-/g, '_')}`]).toBe(`\${{ inputs.${name} }}`);
    // Uploading is the workflow's business: the action has no step that uses another action.
    expect(action.runs.steps.every((s) => !('uses' in s))).toBe(true);
  });

  it('without an installed package it runs this action version through npx, with the inputs as flags', async () => {
    const { actionCommand } = (await import(pathToFileURL(script).href)) as {
      actionCommand: (env: NodeJS.ProcessEnv, cwd: string) => { command: string[]; args: string[] };
    };
    const dir = await mkdtemp(join(tmpdir(), 'conf-action-'));
    const plan = actionCommand(
      {
        INPUT_CONFIG: 'api/conformance.yaml',
        INPUT_BASE_URL: 'https://staging.example.com/v1',
        INPUT_REPORTERS: 'console,junit',
        INPUT_FAIL_ON: 'warning',
        INPUT_ARGS: `--skip 'LIM-*' --read-only`,
        GITHUB_STEP_SUMMARY: '/tmp/summary',
      },
      dir,
    );
    const manifest = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as {
      name: string;
      version: string;
    };
    expect(plan.command).toEqual([
      'npx',
      '--yes',
      '-p',
      `${manifest.name}@${manifest.version}`,
      'conformance',
    ]);
    expect(plan.args).toEqual([
      'run',
      '--reporter',
      'console,junit,markdown',
      '--fail-on',
      'warning',
      '--out',
      'reports',
      '--config',
      'api/conformance.yaml',
      '--base-url',
      'https://staging.example.com/v1',
      '--skip',
      'LIM-*',
      '--read-only',
    ]);
  });
});

describe('the action step, run locally', () => {
  it('audits, writes the reports and the job summary, and sets its outputs (exit 0)', async () => {
    const server = await startExampleFixture();
    try {
      const step = await runStep(
        {
          config: exampleYaml,
          'base-url': server.baseUrl,
          reporters: 'console,json,junit',
          'fail-on': 'error',
        },
        exampleEnv(server),
      );
      expect(step.code).toBe(0);
      expect(step.summary).toMatch(/^## ✅ Conformance: no check failed on /);
      expect(step.outputs).toEqual({ 'exit-code': '0', 'report-dir': step.out });
      expect((await readdir(step.out)).sort()).toEqual(['conformance.json', 'junit.xml', 'summary.md']);
      expect(step.stdout + step.stderr + step.summary).not.toContain(server.tokens.full);
    } finally {
      await server.close();
    }
  });

  it('a failing audit fails the step (exit 1) with the failure in the summary', async () => {
    const server = await startExampleFixture({ breaks: { deleteNoop: true } });
    try {
      const step = await runStep(
        { config: exampleYaml, 'base-url': server.baseUrl, args: '--only MTH-DELETE' },
        exampleEnv(server),
      );
      expect(step.code).toBe(1);
      expect(step.outputs['exit-code']).toBe('1');
      expect(step.summary).toMatch(/❌[\s\S]*MTH-DELETE[\s\S]*still readable/);
    } finally {
      await server.close();
    }
  });

  it('an audit that cannot run (exit 2) says why in the summary', async () => {
    const step = await runStep({ config: 'missing.yaml', 'base-url': 'http://127.0.0.1:1/v1' });
    expect(step.code).toBe(2);
    expect(step.outputs['exit-code']).toBe('2');
    expect(step.summary).toContain('### ❌ Conformance audit could not run (exit 2)');
    expect(step.summary).toContain('missing.yaml');
  });

  it('a fail-on it does not know is refused before anything runs', async () => {
    const step = await runStep({ 'fail-on': 'critical' });
    expect(step.code).toBe(2);
    expect(step.stderr).toContain(
      '::error title=conformance::fail-on must be "error" or "warning" (got "critical")',
    );
    expect(step.summary).toContain('could not run');
  });
});
