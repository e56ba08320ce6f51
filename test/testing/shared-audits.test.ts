// Shared audits: a fixture's key changes with its data and is never given to functions; one audit per key per run, across workers, never a stale or failed one.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { RunResult } from '../../src/core/types.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import {
  auditInFolder,
  plainDataKey,
  SHARED_AUDITS_ENV,
  sharedAudit,
} from '../../src/testing/shared-audits.js';

const result = (n: number): RunResult => ({ durationMs: n, extra: undefined }) as unknown as RunResult;

describe('plainDataKey', () => {
  it('is the same for the same data, whatever order its members were written in', () => {
    expect(plainDataKey({ api: { breaks: { a: true, b: true } }, run: undefined })).toBe(
      plainDataKey({ api: { breaks: { b: true, a: true } } }),
    );
  });

  it('changes with any change of the data', () => {
    const keys = [
      {},
      { api: {} },
      { api: { breaks: { htmlErrors: true } } },
      { api: { breaks: { htmlErrors: false } } },
      { api: { breaks: { textJson: true } } },
      { api: { variant: { listStyle: 'bare' } } },
      { api: { variant: { listStyle: 'paged' } } },
      { api: { rateLimit: { limit: 50, windowMs: 1000 } } },
      { api: { rateLimit: { limit: 50, windowMs: 100 } } },
      { api: { seed: [1, 2] } },
      { api: { seed: [2, 1] } },
      { api: { seed: ['1', 2] } },
    ].map(plainDataKey);
    expect(keys.every((k) => typeof k === 'string')).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('refuses what cannot be told equal across processes: functions, instances, non-finite numbers', () => {
    expect(plainDataKey({ api: { middleware: () => false } })).toBeUndefined();
    expect(plainDataKey({ api: { now: new FakeClock().now } })).toBeUndefined();
    expect(plainDataKey({ clock: new FakeClock() })).toBeUndefined();
    expect(plainDataKey({ at: new Date(0) })).toBeUndefined();
    expect(plainDataKey({ match: /x/ })).toBeUndefined();
    expect(plainDataKey({ limit: Infinity })).toBeUndefined();
    expect(plainDataKey({ limit: NaN })).toBeUndefined();
    expect(plainDataKey({ list: [1, [() => 1]] })).toBeUndefined();
  });
});

describe('auditInFolder', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'conformance-shared-test-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** An audit that ends when `finish` is called, counting how often it was started. */
  function heldAudit() {
    const calls = { n: 0 };
    let finish!: () => void;
    let started!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const running = new Promise<void>((resolve) => (started = resolve));
    const audit = async (): Promise<RunResult> => {
      calls.n++;
      started();
      await gate;
      return result(calls.n);
    };
    return { calls, audit, finish, running };
  }

  it('audits once while another asker of the same key waits, and gives both the same JSON', async () => {
    const { calls, audit, finish, running } = heldAudit();
    const first = auditInFolder(dir, 'k', audit);
    await running;
    let waited = true;
    const second = auditInFolder(dir, 'k', audit).finally(() => (waited = false));
    // The second asker finds the lock and waits for the result instead of auditing.
    expect(await readdir(dir)).toEqual(['k.lock']);
    expect(waited).toBe(true);
    finish();
    expect(await first).toEqual({ durationMs: 1 });
    expect(await second).toEqual({ durationMs: 1 });
    expect(await auditInFolder(dir, 'k', audit)).toEqual({ durationMs: 1 });
    expect(calls.n).toBe(1);
    // Another key is another audit.
    expect(await auditInFolder(dir, 'other', async () => result(7))).toEqual({ durationMs: 7 });
  });

  it('keeps no failed audit: the lock goes and the next asker audits again', async () => {
    await expect(
      auditInFolder(dir, 'k', async () => {
        throw new Error('fixture down');
      }),
    ).rejects.toThrow('fixture down');
    expect(await readdir(dir)).toEqual([]);
    expect(await auditInFolder(dir, 'k', async () => result(2))).toEqual({ durationMs: 2 });
  });

  it('takes over the lock of an auditor that died', async () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    await writeFile(join(dir, 'k.lock'), String(gone));
    expect(await auditInFolder(dir, 'k', async () => result(3))).toEqual({ durationMs: 3 });
  });
});

describe('sharedAudit', () => {
  it('audits a key once per process, and here when the run folder is gone (a run that ended)', async () => {
    const saved = process.env[SHARED_AUDITS_ENV];
    process.env[SHARED_AUDITS_ENV] = join(tmpdir(), `conformance-shared-gone-${process.pid}-${Date.now()}`);
    try {
      let n = 0;
      const audit = async (): Promise<RunResult> => result(++n);
      expect(await sharedAudit('gone', audit)).toEqual({ durationMs: 1 });
      expect(await sharedAudit('gone', audit)).toEqual({ durationMs: 1 });
      expect(n).toBe(1);
    } finally {
      if (saved === undefined) delete process.env[SHARED_AUDITS_ENV];
      else process.env[SHARED_AUDITS_ENV] = saved;
    }
  });
});
