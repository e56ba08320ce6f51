// One whole audit per plain-data fixture and check set for a whole test run, whichever test file or jest worker asks first.
import { existsSync, watch } from 'node:fs';
import { mkdtemp, open, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResult } from '../core/types.js';

/**
 * The environment variable naming this run's folder of shared audits (set by `setUpSharedAudits`,
 * jest's globalSetup, and inherited by its workers). Unset: audits are shared within a test file.
 */
export const SHARED_AUDITS_ENV = 'CONFORMANCE_TEST_SHARED_AUDITS';

/** How often a waiting worker looks again even when no file event came (and whether the auditor died). */
const RECHECK_MS = 1000;

/**
 * A key that names `value` exactly, or undefined when it holds anything but plain JSON data
 * (a function, a class instance, a non-finite number...): such a fixture cannot be told equal
 * across processes, so it is never shared. Object members are sorted, so the order they were
 * written in does not matter.
 */
export function plainDataKey(value: unknown): string | undefined {
  let plain = true;
  const sorted = (v: unknown): unknown => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) plain = false;
      return v;
    }
    if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : sorted(x)));
    if (typeof v === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(v))) {
      const entries = Object.entries(v as object).filter(([, x]) => x !== undefined);
      return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, x]) => [k, sorted(x)]));
    }
    plain = false; // a function, a symbol, a bigint, a Date, a RegExp, a Buffer...
    return null;
  };
  const text = JSON.stringify(sorted(value) ?? null);
  return plain ? createHash('sha256').update(text).digest('hex').slice(0, 32) : undefined;
}

/** Audits already asked for in this process (per test file under jest), by key. */
const mine = new Map<string, Promise<RunResult>>();

/**
 * The RunResult of the audit named `key`: run by `audit` once per test run, or read from the run's
 * folder when another test or worker already ran it (waiting while it runs). The result is always
 * handed out as its JSON round trip, so a test sees the same thing whoever ran the audit. A failed
 * audit is not kept: the next asker runs it again.
 */
export function sharedAudit(key: string, audit: () => Promise<RunResult>): Promise<RunResult> {
  let pending = mine.get(key);
  if (!pending) {
    const dir = process.env[SHARED_AUDITS_ENV];
    // A folder that is gone belongs to a run that ended (a worker outliving it): audit here.
    pending = dir && existsSync(dir) ? auditInFolder(dir, key, audit) : audit().then(roundTrip);
    mine.set(key, pending);
    pending.catch(() => mine.delete(key));
  }
  return pending;
}

const roundTrip = (result: RunResult): RunResult => JSON.parse(JSON.stringify(result)) as RunResult;

/**
 * The audit named `key` through the folder `dir`, shared by every process that uses it: `<key>.json`
 * holds the result; `<key>.lock` (made with O_EXCL, holding the auditor's pid) says someone is
 * auditing or has audited. The lock stays after a success and goes after a failure.
 */
export async function auditInFolder(
  dir: string,
  key: string,
  audit: () => Promise<RunResult>,
): Promise<RunResult> {
  const done = join(dir, `${key}.json`);
  const lock = join(dir, `${key}.lock`);
  for (;;) {
    const text = await readFile(done, 'utf8').catch(() => undefined);
    if (text !== undefined) return JSON.parse(text) as RunResult;
    const handle = await open(lock, 'wx').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'EEXIST') return undefined;
      throw err;
    });
    if (!handle) {
      await changeOrOwnerGone(dir, lock, done);
      continue;
    }
    try {
      await handle.writeFile(String(process.pid));
      await handle.close();
      const json = JSON.stringify(await audit());
      // Renamed into place whole: a reader never sees half a file.
      const partial = `${done}.${process.pid}.part`;
      await writeFile(partial, json);
      await rename(partial, done);
      return JSON.parse(json) as RunResult;
    } catch (err) {
      await unlink(lock).catch(() => undefined);
      throw err;
    }
  }
}

/**
 * Resolves at once when the lock's process has died (its worker crashed: the lock is removed, so
 * the waiter audits itself instead of waiting for ever); else when something changes in the folder
 * (the result written, the lock dropped), at the latest after RECHECK_MS.
 */
async function changeOrOwnerGone(dir: string, lock: string, done: string): Promise<void> {
  const owner = Number(await readFile(lock, 'utf8').catch(() => ''));
  if (Number.isInteger(owner) && owner > 0 && !alive(owner)) {
    await unlink(lock).catch(() => undefined);
    return;
  }
  await new Promise<void>((resolve) => {
    const watcher = watch(dir, () => finish());
    const timer = setTimeout(() => finish(), RECHECK_MS);
    function finish(): void {
      clearTimeout(timer);
      watcher.close();
      resolve();
    }
    // The result or the lock's removal may have come before the watcher started.
    void readFile(done).then(finish, () => undefined);
    void readFile(lock).then(undefined, finish);
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** jest globalSetup: a fresh folder for this run's shared audits (never one of another run). */
export async function setUpSharedAudits(): Promise<void> {
  process.env[SHARED_AUDITS_ENV] = await mkdtemp(join(tmpdir(), 'conformance-shared-audits-'));
}

/** jest globalTeardown: removes the run's folder. */
export async function tearDownSharedAudits(): Promise<void> {
  const dir = process.env[SHARED_AUDITS_ENV];
  if (dir) await rm(dir, { recursive: true, force: true });
}
