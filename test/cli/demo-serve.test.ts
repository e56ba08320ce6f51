// `conformance demo --serve`: the broken example API keeps answering after the audit, so its failures' scripts reproduce as pasted.
import { describe, expect, it } from '@jest/globals';
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packagePath } from '../../src/core/paths.js';

const run = promisify(execFile);
const bin = packagePath('bin', 'conformance');

describe('demo --serve', () => {
  it('serves the broken API until SIGINT; a script run meanwhile reproduces; the exit code is the audit’s', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'conformance-serve-')), 'reports');
    const args = [
      'demo',
      '--break',
      'delete-noop',
      '--only',
      'delete-removes',
      '--reporter',
      'console,repro',
    ];
    const child = spawn(process.execPath, [bin, ...args, '--out', out, '--serve', '--no-color'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // The line that says the API is still up, read as it comes (no sleep: the child's own output).
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        if (/Still serving the example API on http:\/\/127\.0\.0\.1:\d+\/v1 until Ctrl-C/.test(stdout))
          resolve();
      });
      child.on('close', () => reject(new Error(`exited before serving:\n${stdout}`)));
    });
    expect(stdout).toContain(`the scripts in ${join(out, 'repro')}`);
    const script = join(out, 'repro', 'delete-removes--widgets.sh');
    // Served: the script's default BASE_URL still answers, so its header sends nobody to --serve.
    expect(await readFile(script, 'utf8')).toContain(
      '# BASE_URL: the API to try it on (default: the audited one).\n',
    );
    const outcome = await run('bash', [script], {
      env: { PATH: process.env.PATH, HOME: tmpdir(), CONFORMANCE_TOKEN: 'demo-full-token' },
    }).then(
      (r) => ({ code: 0, out: r.stdout }),
      (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
    );
    expect(outcome).toEqual({ code: 1, out: expect.stringMatching(/^reproduced: DELETE \/widgets/m) });
    child.kill('SIGINT');
    expect(await exited).toBe(1);
    expect(stdout).toContain('Stopped serving the example API');
    // The audit was over: Ctrl-C announces no cleanup or partial reports.
    expect(stderr).not.toContain('cleaning up');
  }, 60_000);
});
