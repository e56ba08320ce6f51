// Runs the CLI in a process of its own, as bin/conformance does, and reads that process's peak memory.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The compiled CLI of this build (the tests' own compile, so the code measured is the code tested). */
const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

/**
 * The child: the bin's V8 flag, main(), and its peak resident memory written to fd 3 as it exits.
 * VmHWM, not resourceUsage().maxRSS: on Linux a child's maxRSS starts at its parent's resident
 * size at fork (a test runner's hundreds of megabytes), VmHWM at its own.
 */
const CHILD = `
import { readFileSync, writeSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
setFlagsFromString('--liftoff-only');
const { main } = await import(${JSON.stringify(MAIN)});
process.on('exit', () => {
  let kb = process.resourceUsage().maxRSS;
  try {
    kb = Number(/VmHWM:\\s*(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]);
  } catch {}
  writeSync(3, String(kb / 1024));
});
process.exitCode = await main(process.argv.slice(1));
`;

export interface MeasuredRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Peak resident memory of the audit process, MB. */
  peakMb: number;
}

/** Runs `conformance <args>` in a child process with `env` (and nothing else of this one's). */
export async function runMeasured(args: string[], env: NodeJS.ProcessEnv): Promise<MeasuredRun> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD, '--', ...args], {
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, NO_COLOR: '1', ...env },
  });
  let stdout = '';
  let stderr = '';
  let peak = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => (peak += d.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  return { code, stdout, stderr, peakMb: Math.round(Number(peak) * 10) / 10 };
}
