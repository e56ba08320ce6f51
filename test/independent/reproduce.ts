// Runs every failure's reproduction script against the broken server and a correct one: what each printed and left behind.
import { expect } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RunResult } from '../../src/core/types.js';
import type { FixtureServer } from '../../src/testing/fixture-server.js';

const run = promisify(execFile);

/** Checks whose failures no script can replay (they say why): a receiver, one connection across requests. */
export const NOT_SCRIPTABLE = new Set(['webhook-delivery', 'webhook-signature', 'stateless-requests']);

interface Outcome {
  code: number;
  out: string;
}

async function runScript(file: string, server: FixtureServer, env: NodeJS.ProcessEnv): Promise<Outcome> {
  try {
    const r = await run('bash', [file], {
      env: { PATH: process.env.PATH, HOME: tmpdir(), BASE_URL: server.baseUrl, ...env },
      timeout: 120_000,
    });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/** The last line a script printed (its verdict). */
function verdict(out: string): string {
  return out.trim().split('\n').slice(-1)[0] ?? '';
}

/** Records per collection, for "nothing left behind". */
function counts(server: FixtureServer): Record<string, number> {
  return Object.fromEntries(Object.entries(server.snapshot?.() ?? {}).map(([k, v]) => [k, v.length]));
}

export interface ReplayReport {
  /** `checkId resource: broken <code> <verdict> | correct <code> <verdict>` of scripts that did not do both. */
  misses: string[];
  /** Failures with no script (`checkId resource`). */
  unscripted: string[];
  scripts: number;
}

/**
 * Runs the script of every failed result against the broken server (it must exit 1, "reproduced")
 * and a correct one started by `correct` (exit 0, "not reproduced"), one script at a time on each
 * server (a script that deletes "another item" must not meet another script's), both servers at
 * once. Asserts what every script must do whatever its verdict: pass shellcheck, print no secret,
 * leave the correct server as it was and the broken one with no more records than before (unless
 * `keeps`: its DELETE does not delete). Returns the scripts that did not reproduce as expected.
 */
export async function replayFailures(
  result: RunResult,
  broken: FixtureServer,
  correct: FixtureServer,
  env: (server: FixtureServer) => NodeJS.ProcessEnv,
  options: { keeps?: boolean } = {},
): Promise<ReplayReport> {
  const failed = result.results.filter((r) => r.status === 'failed');
  const dir = await mkdtemp(join(tmpdir(), 'conf-repro-'));
  try {
    const scripted = failed.filter((r) => r.reproduce !== undefined);
    const files = await Promise.all(
      scripted.map(async (r, i) => {
        const file = join(dir, `${i}-${r.checkId}--${r.resource ?? 'api'}.sh`);
        await writeFile(file, r.reproduce!);
        return file;
      }),
    );
    if (files.length > 0) {
      const lint = await run('shellcheck', files).then(
        () => '',
        (err: { stdout?: string }) => err.stdout ?? 'shellcheck failed',
      );
      expect(lint).toBe('');
    }
    const secrets = [...Object.values(env(broken)), ...Object.values(env(correct))].filter(
      (v): v is string => typeof v === 'string' && v.length >= 8,
    );
    const before = { broken: counts(broken), correct: JSON.stringify(correct.snapshot?.()) };
    const misses: string[] = [];
    for (const [i, r] of scripted.entries()) {
      const [b, c] = await Promise.all([
        runScript(files[i], broken, env(broken)),
        runScript(files[i], correct, env(correct)),
      ]);
      for (const out of [b.out, c.out, r.reproduce!]) {
        expect(secrets.filter((s) => out.includes(s))).toEqual([]);
      }
      const ok = b.code === 1 && /^reproduced: /.test(verdict(b.out)) && c.code === 0;
      if (!ok) {
        misses.push(
          `${r.checkId} ${r.resource ?? '-'}: broken ${b.code} ${verdict(b.out)} | correct ${c.code} ${verdict(c.out)}`,
        );
      } else expect(verdict(c.out)).toMatch(/^not reproduced: /);
    }
    // Nothing left behind: the correct server holds exactly what it held; the broken one no more.
    expect(JSON.stringify(correct.snapshot?.())).toBe(before.correct);
    if (!options.keeps) {
      const after = counts(broken);
      const grew = Object.keys(after).filter((k) => after[k] > (before.broken[k] ?? 0));
      expect({ grew, before: before.broken, after }).toEqual({ grew: [], before: before.broken, after });
    }
    return {
      misses,
      unscripted: failed
        .filter((r) => r.reproduce === undefined)
        .map((r) => `${r.checkId} ${r.resource ?? '-'}`),
      scripts: scripted.length,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Every failure has a script, unless its check cannot be scripted; and every script did both. */
export function expectReproduced(report: ReplayReport, allowedMisses: readonly string[] = []): void {
  expect(report.unscripted.filter((u) => !NOT_SCRIPTABLE.has(u.split(' ')[0]))).toEqual([]);
  const unexpected = report.misses.filter((m) => !allowedMisses.some((a) => m.startsWith(a)));
  expect(unexpected).toEqual([]);
}
