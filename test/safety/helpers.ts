// Shared pieces of the safety tests: a CLI runner that keeps every output byte, a minimal config, audits, files.
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packagePath } from '../../src/core/paths.js';
import type { Clock } from '../../src/http/client.js';
import { runCli, type CliRun } from '../../src/testing/cli-runner.js';
import { exampleEnv } from '../../src/testing/example-config.js';
import type { FixtureServer } from '../../src/testing/fixture-server.js';

/** A distinctive token with the characters that JSON and URL encodings change (/, +, =). */
export const TOKEN = 'SafetyTok-7f3c9e1b.d0/Zq+K7w_X~42==';
export const LIMITED_TOKEN = 'SafetyLim-2a8e44c1.f9/Pn+R3v_Y~17==';
export const WEBHOOK_SECRET = 'SafetyHook-c0ffee.b4/Dm+S6u_Z~99==';

/** The environment the configs of these tests read their secrets from. */
export const ENV: NodeJS.ProcessEnv = {
  SAFETY_TOKEN: TOKEN,
  SAFETY_LIMITED_TOKEN: LIMITED_TOKEN,
  SAFETY_WEBHOOK_SECRET: WEBHOOK_SECRET,
};

export type { CliRun };

/** Runs `main()` as the bin does, keeping stdout and stderr. */
export function cli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; signal?: AbortSignal; clock?: Clock } = {},
): Promise<CliRun> {
  return runCli(args, { ...options, env: options.env ?? ENV });
}

/** A fresh temporary directory. */
export function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'conf-safety-'));
}

/** Writes a one-resource config (widgets, all six operations) reading its token from SAFETY_TOKEN. */
export async function writeConfig(dir: string, extra: Record<string, unknown> = {}): Promise<string> {
  const file = join(dir, 'conformance.config.json');
  const config = {
    auth: { token: '${SAFETY_TOKEN}' },
    resources: [
      {
        name: 'widgets',
        path: '/widgets',
        sample: { name: 'bolt', price: 3 },
        update: { price: 5 },
      },
    ],
    ...extra,
  };
  await writeFile(file, JSON.stringify(config, null, 2));
  return file;
}

/** Every file under a directory with its bytes (reports, HAR...). */
export async function readAll(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(path, await readFile(path));
  }
  return files;
}

/** A stack trace line ("    at fn (file:1:2)") anywhere in the text. */
export const STACK_LINE = /^\s+at .+(\(|:\d+:\d+)/m;

/** Result shape of conformance.json as these tests read it. */
export interface ReportJson {
  interrupted?: boolean;
  summary: Record<string, number>;
  cleanup: { created: number; deleted: number; leftovers: unknown[] };
  results: Array<{
    checkId: string;
    rules: string[];
    resource?: string;
    status: string;
    message?: string;
    evidence: Array<{
      request: { method: string; url: string; headers: Record<string, string> };
      response: { status: number; body: unknown; truncated?: boolean } | null;
      error?: string;
      notes?: string[];
      curl: string;
    }>;
  }>;
}

/** Reads conformance.json from a report directory. */
export async function readReport(dir: string): Promise<ReportJson> {
  return JSON.parse(await readFile(join(dir, 'conformance.json'), 'utf8')) as ReportJson;
}

/** A CLI run with the report directory it wrote and its conformance.json. */
export interface ReportedRun extends CliRun {
  out: string;
  report: ReportJson;
}

/**
 * `conformance run` of the one-resource config (`writeConfig`, `config` merged in) against baseUrl,
 * into a fresh report directory; `args` follow `--out` (time-out, reporters, skips).
 */
export async function auditWidgets(
  baseUrl: string,
  args: string[],
  config?: Record<string, unknown>,
): Promise<ReportedRun> {
  const dir = await tempDir();
  const out = `${dir}/reports`;
  const run = await cli([
    'run',
    '--config',
    await writeConfig(dir, config),
    '--base-url',
    baseUrl,
    '--out',
    out,
    ...args,
  ]);
  return { ...run, out, report: await readReport(out) };
}

/**
 * `conformance run` of config/example.yaml (its tokens in the environment) against the server, into
 * a fresh report directory; `args` adds options (e.g. `--only`); `clock` is the audit's clock (a
 * `FakeClock` shared with the API's `now`: its 429 waits and pacing then take no real time).
 */
export async function auditExample(
  server: FixtureServer,
  args: string[] = [],
  clock?: Clock,
): Promise<ReportedRun> {
  const out = `${await tempDir()}/reports`;
  const run = await cli(
    [
      'run',
      '--config',
      packagePath('config', 'example.yaml'),
      '--base-url',
      server.baseUrl,
      '--out',
      out,
      ...args,
    ],
    { env: exampleEnv(server), ...(clock ? { clock } : {}) },
  );
  return { ...run, out, report: await readReport(out) };
}
