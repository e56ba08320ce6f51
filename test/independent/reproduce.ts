// Runs every failure's reproduction script against the broken server and a correct one: what each printed and left behind.
import { expect } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pLimit from 'p-limit';
import type { RunResult } from '../../src/core/types.js';
import type { FixtureServer } from '../../src/testing/fixture-server.js';

const run = promisify(execFile);

/** Checks whose failures no script can replay. */
export const NOT_SCRIPTABLE = new Set<string>([]);

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
  /** Scripts of listed known gaps (`checkId resource`): checked (shellcheck, no secret) but not run. */
  skipped: string[];
  /** Failures with no script (`checkId resource`). */
  unscripted: string[];
  scripts: number;
}

/** Scripts of different collections run at once, at most this many. */
const LANES = 4;

/** `checkId resource`, the key a known miss is a prefix of. */
function keyOf(r: { checkId: string; resource?: string }): string {
  return `${r.checkId} ${r.resource ?? '-'}`;
}

/** Whether a listed known miss (`checkId ` or `checkId resource`) names this failure. */
function listed(key: string, misses: readonly string[]): boolean {
  return misses.some((m) => `${key}:`.startsWith(m));
}

/**
 * Groups scripts that may run at once: one lane per collection (its scripts one after another, as
 * a script that deletes "another item" or counts the collection must not meet another script's
 * items); scripts of no collection and bursts (they spend the rate limit) alone, bursts last.
 */
function schedule<T extends { resource?: string; reproduce?: string }>(scripts: T[]): T[][][] {
  const burst = (r: T) => r.reproduce!.includes('\n# The burst: ');
  const lanes = new Map<string, T[]>();
  for (const r of scripts.filter((r) => r.resource !== undefined && !burst(r))) {
    lanes.set(r.resource!, [...(lanes.get(r.resource!) ?? []), r]);
  }
  const alone = (rs: T[]) => rs.map((r) => [[r]]);
  return [
    [...lanes.values()],
    ...alone(scripts.filter((r) => r.resource === undefined && !burst(r))),
    ...alone(scripts.filter(burst)),
  ];
}

/**
 * Runs the script of every failed result against the broken server (it must exit 1, "reproduced")
 * and a correct one started by `correct` (exit 0, "not reproduced"), both servers at once. Scripts
 * of different collections run side by side (up to four lanes); those of one collection, of no
 * collection, and bursts, never meet another's (see `schedule`). The scripts of `misses` (listed
 * known gaps) are not run: they are reported as `skipped`. Asserts what every script must do
 * whatever its verdict: pass shellcheck, print no secret, leave the correct server as it was and
 * the broken one with no more records than before (unless `keeps`: its DELETE does not delete).
 * Returns the scripts that did not reproduce as expected.
 */
export async function replayFailures(
  result: RunResult,
  broken: FixtureServer,
  correct: FixtureServer,
  env: (server: FixtureServer) => NodeJS.ProcessEnv,
  options: {
    keeps?: boolean;
    misses?: readonly string[];
    /** Called between two stages of scripts (see `schedule`), e.g. to move the servers' clocks on. */
    between?: () => Promise<void>;
  } = {},
): Promise<ReplayReport> {
  const failed = result.results.filter((r) => r.status === 'failed');
  const dir = await mkdtemp(join(tmpdir(), 'conf-repro-'));
  try {
    const scripted = failed.filter((r) => r.reproduce !== undefined);
    const files = new Map(
      await Promise.all(
        scripted.map(async (r, i) => {
          const file = join(dir, `${i}-${r.checkId}--${r.resource ?? 'api'}.sh`);
          await writeFile(file, r.reproduce!);
          return [r, file] as const;
        }),
      ),
    );
    // shellcheck (about 0.1 s of CPU a script) runs while the scripts do: they wait on servers.
    const linting =
      files.size === 0
        ? Promise.resolve('')
        : run('shellcheck', [...files.values()]).then(
            () => '',
            (err: { stdout?: string }) => err.stdout ?? 'shellcheck failed',
          );
    const secrets = [...Object.values(env(broken)), ...Object.values(env(correct))].filter(
      (v): v is string => typeof v === 'string' && v.length >= 8,
    );
    for (const r of scripted) expect(secrets.filter((s) => r.reproduce!.includes(s))).toEqual([]);
    const known = options.misses ?? [];
    const skipped = scripted.filter((r) => listed(keyOf(r), known));
    const before = { broken: counts(broken), correct: JSON.stringify(correct.snapshot?.()) };
    const misses: string[] = [];
    const replay = async (r: (typeof scripted)[number]) => {
      const file = files.get(r)!;
      const [b, c] = await Promise.all([
        runScript(file, broken, env(broken)),
        runScript(file, correct, env(correct)),
      ]);
      for (const out of [b.out, c.out]) expect(secrets.filter((s) => out.includes(s))).toEqual([]);
      const ok = b.code === 1 && /^reproduced: /.test(verdict(b.out)) && c.code === 0;
      if (!ok) {
        misses.push(`${keyOf(r)}: broken ${b.code} ${verdict(b.out)} | correct ${c.code} ${verdict(c.out)}`);
      } else expect(verdict(c.out)).toMatch(/^not reproduced: /);
    };
    for (const [at, stage] of schedule(scripted.filter((r) => !skipped.includes(r))).entries()) {
      if (at > 0) await options.between?.();
      const limit = pLimit(LANES);
      await Promise.all(
        stage.map((lane) =>
          limit(async () => {
            for (const r of lane) await replay(r);
          }),
        ),
      );
    }
    expect(await linting).toBe('');
    // Nothing left behind: the correct server holds exactly what it held; the broken one no more.
    expect(JSON.stringify(correct.snapshot?.())).toBe(before.correct);
    if (!options.keeps) {
      const after = counts(broken);
      const grew = Object.keys(after).filter((k) => after[k] > (before.broken[k] ?? 0));
      expect({ grew, before: before.broken, after }).toEqual({ grew: [], before: before.broken, after });
    }
    return {
      misses,
      skipped: skipped.map(keyOf),
      unscripted: failed.filter((r) => r.reproduce === undefined).map(keyOf),
      scripts: scripted.length,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Every failure has a script, unless its check cannot be scripted; and every script run did both.
 * The listed gaps were skipped, not run (`skipped`): a listed gap may name no failure of a given
 * run, as a rule the break only may break (`also`) need not fail every time.
 */
export function expectReproduced(report: ReplayReport): void {
  expect(report.unscripted.filter((u) => !NOT_SCRIPTABLE.has(u.split(' ')[0]))).toEqual([]);
  expect(report.misses).toEqual([]);
}
