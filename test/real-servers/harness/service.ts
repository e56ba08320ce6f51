// What a started real server gives a test, and the stop every one of them ends with.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packagePath } from '../../../src/core/paths.js';
import type { ChildProcess } from 'node:child_process';
import type { PgCluster } from './postgres.js';
import {
  forget,
  freePort,
  killOwnedBy,
  launch,
  outputMatch,
  OutputLog,
  remember,
  running,
  stopChild,
  waitForAnswer,
  type Command,
} from './processes.js';
import type { RealServerName } from './software.js';

/** Records by the resource name the server's config declares, as the API answers them. */
export type Records = Record<string, Array<Record<string, unknown>>>;

/** A real server started on 127.0.0.1 for a test, seeded, with its credentials. */
export interface RealService {
  name: RealServerName;
  /** Name and version, for test titles and messages ("PostgREST 12.0.2"). */
  label: string;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The API's base URL, what the config's `baseUrl` is (`${PGRST_URL}` etc.). */
  baseUrl: string;
  /** The server's temporary folder: its files and, through OWNER_VARIABLE, its processes. Gone after stop. */
  dir: string;
  /** The variables its conformance.config.yaml refers to (URL, users, passwords, keys), for loadConfig's env. */
  env: Record<string, string>;
  /** Values no report may contain (passwords, keys, tokens known at start). */
  secrets: string[];
  /** Milliseconds from the start call until it answered (cluster and seeding included). */
  startupMs: number;
  /** What its processes printed, for failure messages. */
  output(): string;
  /** Every record of every declared resource, read with full rights (to prove data left as found). */
  records(): Promise<Records>;
  /** Stops every process, removes its database and folder; rejects naming any process it had to kill. */
  stop(): Promise<void>;
}

/** The draft audit config of a server: test/real-servers/<name>/conformance.config.yaml. */
export function configPath(name: RealServerName): string {
  return packagePath('test', 'real-servers', name, 'conformance.config.yaml');
}

/** A fresh temporary folder for one server or cluster, remembered until its stop. */
export async function ownFolder(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `conformance-${prefix}-`));
  remember(dir);
  return dir;
}

/**
 * The stop of a server or cluster: runs `steps` in order (each is attempted even when an earlier
 * one failed), kills whatever still runs under `dir`, removes `dir`. Idempotent. Rejects when a
 * step failed or a process had to be killed: a leak is a test failure, not a silent cleanup.
 */
export function stopper(dir: string, steps: Array<() => Promise<void>>): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= (async () => {
      const problems: string[] = [];
      for (const step of steps) {
        try {
          await step();
        } catch (error) {
          problems.push(error instanceof Error ? error.message : String(error));
        }
      }
      const killed = killOwnedBy(dir);
      await rm(dir, { recursive: true, force: true });
      forget(dir);
      if (killed.length > 0)
        problems.push(
          `still running after the stop, killed: ${killed.map((p) => `${p.pid} ${p.command}`).join('; ')}`,
        );
      if (problems.length > 0) throw new Error(`stopping ${dir}: ${problems.join('\n')}`);
    })();
    return stopping;
  };
}

/** What a server start has made so far; `stop` undoes it all. */
export interface ServerStart {
  began: number;
  /** The server's temporary folder (ownFolder). */
  dir: string;
  log: OutputLog;
  /** The server's process, once launched: stopped first. */
  child?: ChildProcess;
  /** Its database in the cluster, once created: dropped next. */
  database?: string;
  stop(): Promise<void>;
  /** Runs the rest of the start; when it fails, stops what was made and rethrows. */
  finish<T>(rest: () => Promise<T>): Promise<T>;
}

/**
 * Begins a server start: a folder, a log, and the stop of whatever the start goes on to make (its
 * process, with `signal` first and SIGKILL after a grace; its database in `cluster`).
 */
export async function beginServer(
  prefix: string,
  options: { cluster?: PgCluster; signal?: NodeJS.Signals } = {},
): Promise<ServerStart> {
  const start: ServerStart = {
    began: Date.now(),
    dir: await ownFolder(prefix),
    log: new OutputLog(),
    stop: () => Promise.resolve(),
    finish: async (rest) => {
      try {
        return await rest();
      } catch (error) {
        await start.stop().catch(() => undefined);
        throw error;
      }
    },
  };
  start.stop = stopper(start.dir, [
    async () => {
      if (start.child) await stopChild(start.child, options.signal);
    },
    async () => {
      if (start.database && options.cluster) await options.cluster.dropDatabase(start.database);
    },
  ]);
  return start;
}

/** How a server process is given its port, and how it is known to be ready. */
export interface Listening {
  /** The command that runs the server on `port` (0 when it `announces` the port it binds). */
  command(port: number): Command;
  /**
   * For a server that binds port 0 itself and prints the port it got: that line (the port in group
   * 1). Without it a free port is picked first and passed in, and the start is retried on another
   * one (three in all) when it was taken meanwhile.
   */
  announces?: RegExp;
  /** The path (from the origin) polled until its status satisfies `ready` (default: any answer). */
  readyPath: string;
  ready?: (status: number) => boolean;
}

/**
 * Launches a server process as `start.child` on 127.0.0.1 and resolves with its origin once it
 * answers as `listening` says. Waits by polling, within one deadline for the whole start (a bound
 * on a hung start, never a synchronisation); a process that did not become ready is stopped before
 * the next attempt. Rejects when none did; the caller's `finish` then stops whatever is left.
 */
export async function listen(start: ServerStart, listening: Listening, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const left = () => Math.max(0, deadline - Date.now());
  const failures: string[] = [];
  for (let attempt = 0; attempt < (listening.announces ? 1 : 3) && left() > 0; attempt++) {
    const chosen = listening.announces ? 0 : await freePort();
    const child = (start.child = launch(listening.command(chosen)));
    const announced = listening.announces ? await outputMatch(child, listening.announces, left()) : undefined;
    const port = listening.announces ? Number(announced?.[1] ?? 0) : chosen;
    const origin = `http://127.0.0.1:${port}`;
    const ready =
      port > 0 && (await waitForAnswer(`${origin}${listening.readyPath}`, child, listening.ready, left()));
    if (ready && running(child)) return origin;
    const exit = child.exitCode ?? child.signalCode;
    failures.push(
      running(child)
        ? `port ${port}: no ready answer within ${timeoutMs} ms`
        : `port ${port}: exited (${exit})`,
    );
    await stopChild(child);
  }
  throw new Error(`no ready answer from ${listening.readyPath} (${failures.join('; ')})`);
}

/** A random value for passwords and keys: hex, so it needs no quoting in SQL, JSON or URLs. */
export function randomSecret(bytes = 16): string {
  return randomBytes(bytes).toString('hex');
}

/** GETs JSON with headers; rejects with the status and body unless the answer is 200. */
export async function getJson(url: string, headers: Record<string, string>): Promise<unknown> {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as unknown;
}

/** POSTs JSON; resolves with the status and the parsed body (undefined when it is not JSON). */
export function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  return post(url, JSON.stringify(body), { 'content-type': 'application/json', ...headers });
}

/** POSTs an HTML form (an OAuth 2 password login); resolves as postJson does. */
export function postForm(
  url: string,
  fields: Record<string, string>,
): Promise<{ status: number; body: any }> {
  const body = new URLSearchParams(fields).toString();
  return post(url, body, { 'content-type': 'application/x-www-form-urlencoded' });
}

async function post(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed };
}
