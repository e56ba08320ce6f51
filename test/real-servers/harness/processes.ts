// Child processes of the real-server tests: free ports, captured output, readiness, stopping, leftovers.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Every process a real-server harness starts carries this variable, set to the temporary folder of
 * the server (or cluster) it belongs to. Descendants inherit it, daemons too (PostgreSQL's
 * postmaster is forked off by pg_ctl), so `/proc/<pid>/environ` finds them all after a stop.
 */
export const OWNER_VARIABLE = 'CONFORMANCE_REAL_SERVER_DIR';

/** A port nothing listens on right now (the server is started on it just after). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves when the child exits (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Whether the child is still running. */
export function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

const KEPT_PER_STREAM = 32 * 1024;

/**
 * What the processes of one server printed, by label ("initdb", "postgrest"...), for failure
 * messages. Each label keeps its last 32 KB, so a long audit's request log stays bounded.
 */
export class OutputLog {
  private readonly parts = new Map<string, string>();

  /** Appends text under a label. */
  add(label: string, text: string): void {
    const joined = (this.parts.get(label) ?? '') + text;
    this.parts.set(label, joined.length > KEPT_PER_STREAM ? joined.slice(-KEPT_PER_STREAM) : joined);
  }

  /** Captures a child's stdout and stderr under a label. */
  capture(label: string, child: ChildProcess): void {
    child.stdout?.on('data', (chunk: Buffer) => this.add(label, chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => this.add(label, chunk.toString()));
  }

  /** Everything kept, one block per label. */
  text(): string {
    return [...this.parts].map(([label, text]) => `--- ${label} ---\n${text.trimEnd()}`).join('\n');
  }
}

/** How to run one program for a server. */
export interface Command {
  /** Label of its output in the log. */
  label: string;
  file: string;
  args: string[];
  /** The server's (or cluster's) temporary folder: set as OWNER_VARIABLE. */
  owner: string;
  log: OutputLog;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/** Starts a long-running program with its output captured and the owner variable set. */
export function launch(command: Command): ChildProcess {
  const child = spawn(command.file, command.args, {
    cwd: command.cwd ?? command.owner,
    env: { ...process.env, ...command.env, [OWNER_VARIABLE]: command.owner },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  command.log.capture(command.label, child);
  // A program that cannot be started at all (ENOENT) reports it here, not as a throw.
  child.once('error', (error) => command.log.add(command.label, `${error.message}\n`));
  return child;
}

/**
 * Runs a program to completion (initdb, psql, manage.py migrate...) and resolves with what it
 * printed on stdout; rejects with its output when it fails or outlives `timeoutMs`.
 */
export async function run(command: Command, timeoutMs = 60_000): Promise<string> {
  const child = launch(command);
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(null));
    child.once('close', (status) => resolve(status));
  });
  clearTimeout(timer);
  if (code !== 0) {
    const shown = [command.file, ...command.args].join(' ');
    throw new Error(`${shown} failed (exit ${code ?? 'none'}):\n${command.log.text()}`);
  }
  return stdout;
}

/** Stops a child: `signal`, then SIGKILL if it is still running after `graceMs`. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 5000) {
  if (!running(child)) return;
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited(child);
  clearTimeout(timer);
}

/**
 * Resolves with the first line of the child's output that matches, or undefined when the child
 * exits first or `timeoutMs` passes (a bound on a hung start, not a synchronisation).
 */
export function outputMatch(child: ChildProcess, pattern: RegExp, timeoutMs = 60_000) {
  return new Promise<RegExpMatchArray | undefined>((resolve) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = seen.match(pattern);
      if (match) finish(match);
    };
    const onExit = () => finish(undefined);
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    function finish(result: RegExpMatchArray | undefined) {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      resolve(result);
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    if (!running(child)) finish(undefined);
  });
}

/**
 * Polls `url` until its status satisfies `ready` (PostgREST answers 503 while it loads its schema
 * cache; Parse's health route 200 once its database is connected). Each attempt has its own
 * time-out; gives up when the child exits or after `timeoutMs`. Resolves with whether it got one.
 */
export async function waitForAnswer(
  url: string,
  child: ChildProcess,
  ready: (status: number) => boolean = () => true,
  timeoutMs = 60_000,
): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end && running(child)) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (ready(res.status)) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

/** A running process that belongs to a server's temporary folder. */
export interface OwnedProcess {
  pid: number;
  command: string;
}

/**
 * Every process on the machine whose OWNER_VARIABLE is `dir` or a folder under it. Reads
 * /proc (Linux, where these servers run); processes that vanish while read are left out.
 */
export function processesOwnedBy(dir: string): OwnedProcess[] {
  const found: OwnedProcess[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0');
      const owner = environ.find((v) => v.startsWith(`${OWNER_VARIABLE}=`))?.slice(OWNER_VARIABLE.length + 1);
      if (owner === undefined || (owner !== dir && !owner.startsWith(`${dir}/`))) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'latin1').split('\0').join(' ').trim();
      found.push({ pid: Number(entry), command });
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/** Kills (SIGKILL) every process owned by `dir`; returns those it found. */
export function killOwnedBy(dir: string): OwnedProcess[] {
  const found = processesOwnedBy(dir);
  for (const p of found) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return found;
}

const started = new Set<string>();
let exitHookInstalled = false;

/**
 * Remembers a server's folder until `forget`: if the test process exits without stopping it (a
 * crash, a time-out that kills the worker), its processes are killed on the way out.
 */
export function remember(dir: string): void {
  started.add(dir);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const owner of started) killOwnedBy(owner);
  });
}

/** The server was stopped: nothing to kill on exit. */
export function forget(dir: string): void {
  started.delete(dir);
}
