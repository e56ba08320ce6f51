// Starts the real json-server builds (dev dependencies) as child processes on 127.0.0.1 for the tests.
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, basename } from 'node:path';
import { packagePath } from '../../src/core/paths.js';
import { exited, freePort, waitForAnswer } from './harness/processes.js';

/** The servers the tests audit, by the name of their config in config/examples/. */
export type RealServerKind = 'json-server-017' | 'json-server-1' | 'json-server-auth';

export interface RealServer {
  kind: RealServerKind;
  origin: string;
  /** The db.json the server reads and writes (a fresh copy of the seed). */
  dbFile: string;
  /** Everything the server printed, for failure messages. */
  output(): string;
  /** Stops the server and removes its files. */
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);

/** Absolute path of a package's file, resolved the way Node resolves the dev dependency. */
function packageFile(pkg: string, file: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), file);
}

interface Launch {
  bin: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Seed file and routes file in config/examples/. */
  seed: string;
  routes?: string;
}

function launchOf(kind: RealServerKind): Launch {
  switch (kind) {
    case 'json-server-017':
      return {
        bin: packageFile('json-server', 'lib/cli/bin.js'),
        args: ['--routes', 'routes.json', '--quiet'],
        seed: 'json-server-017.db.json',
        routes: 'json-server-017.routes.json',
      };
    case 'json-server-1':
      // production: no file watcher (the tests read db.json themselves); it then requires ./public.
      return {
        bin: packageFile('json-server-1', 'lib/bin.js'),
        args: [],
        env: { NODE_ENV: 'production' },
        seed: 'json-server-1.db.json',
      };
    case 'json-server-auth':
      return {
        bin: packageFile('json-server-auth', 'dist/bin.js'),
        args: ['--routes', 'routes.json', '--quiet'],
        seed: 'json-server-auth.db.json',
        routes: 'json-server-auth.routes.json',
      };
  }
}

/** Starts one server on a free loopback port with a fresh copy of its seed; retries a lost port race. */
export async function startRealServer(kind: RealServerKind): Promise<RealServer> {
  const launch = launchOf(kind);
  const dir = await mkdtemp(join(tmpdir(), `conformance-${kind}-`));
  const dbFile = join(dir, 'db.json');
  await copyFile(packagePath('config', 'examples', launch.seed), dbFile);
  if (launch.routes)
    await copyFile(packagePath('config', 'examples', launch.routes), join(dir, 'routes.json'));
  await mkdir(join(dir, 'public'));
  let output = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [launch.bin, 'db.json', ...launch.args, '--port', String(port), '--host', '127.0.0.1'],
      { cwd: dir, env: { ...process.env, ...launch.env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const origin = `http://127.0.0.1:${port}`;
    if (await waitForAnswer(`${origin}/`, child, () => true, 10_000)) {
      return {
        kind,
        origin,
        dbFile,
        output: () => output,
        stop: async () => {
          child.kill('SIGTERM');
          await exited(child);
          await rm(dir, { recursive: true, force: true });
          // json-server-auth writes its expanded routes next to the system temp files.
          await rm(join(tmpdir(), `routes-from-${basename(dir)}.json`), { force: true });
        },
      };
    }
    child.kill('SIGKILL');
    await exited(child);
  }
  await rm(dir, { recursive: true, force: true });
  throw new Error(`${kind} did not start:\n${output}`);
}

/**
 * The records the server holds, by collection, read over HTTP (the collections are served under
 * `prefix`; `token` is sent as a bearer token). Not from db.json: json-server writes that file
 * asynchronously, so right after an answer it may still hold the state before the request.
 */
export async function readState(
  server: RealServer,
  collections: string[],
  options: { prefix?: string; token?: string } = {},
): Promise<Record<string, Array<Record<string, unknown>>>> {
  const state: Record<string, Array<Record<string, unknown>>> = {};
  for (const name of collections) {
    const res = await fetch(`${server.origin}${options.prefix ?? ''}/${name}`, {
      headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
      signal: AbortSignal.timeout(5000),
    });
    if (res.status !== 200) throw new Error(`GET /${name}: ${res.status}`);
    state[name] = (await res.json()) as Array<Record<string, unknown>>;
  }
  return state;
}

/** Registers a json-server-auth user and returns its access token (POST /register, 201). */
export async function registerUser(server: RealServer, email: string, password: string): Promise<string> {
  const res = await fetch(`${server.origin}/v1/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
    signal: AbortSignal.timeout(5000),
  });
  const body = (await res.json()) as { accessToken?: string };
  if (res.status !== 201 || !body.accessToken) throw new Error(`register ${email}: ${res.status}`);
  return body.accessToken;
}
