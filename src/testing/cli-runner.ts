// Runs the CLI in-process with captured output, as tests need it.
import { PassThrough } from 'node:stream';
import { main } from '../cli/main.js';
import type { Clock } from '../http/client.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  /** The environment the CLI sees, exactly (nothing of process.env leaks in). */
  env?: NodeJS.ProcessEnv;
  /** Aborting it is what SIGINT does to bin/conformance. */
  signal?: AbortSignal;
  clock?: Clock;
}

/** Runs `conformance <args>` and returns its exit code and everything it printed. */
export async function runCli(args: string[], options: CliRunOptions = {}): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (d: Buffer) => out.push(Buffer.from(d)));
  stderr.on('data', (d: Buffer) => err.push(Buffer.from(d)));
  const io = { stdout, stderr, env: options.env ?? {}, ...(options.clock ? { clock: options.clock } : {}) };
  const code = await main(args, { io, signal: options.signal });
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}
