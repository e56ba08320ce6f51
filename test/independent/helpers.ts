// Shared by the alternative-API tests: one full audit, and what its results come down to.
import { expect } from '@jest/globals';
import { isDeepStrictEqual } from 'node:util';
import { FakeClock } from '../../src/testing/fake-clock.js';
import type { AuditConfig, RunResult } from '../../src/core/types.js';
import type { RunOptions } from '../../src/engine/run.js';
import { auditFixture, type RecordedAudit } from '../../src/testing/check-tester.js';
import type { FixtureServer } from '../../src/testing/fixture-server.js';
import { altFixture, type AltApiOptions } from '../../src/testing/alt-api/index.js';
import { catalogue } from '../../suites/index.js';

/**
 * Real time that jumps over every wait: a sleep ends at once and the clock moves on by what it
 * asked for (two sleeps at once for 250 and 500 ms end at +250 and +500, as on FakeClock). Shared
 * by the audit and the server, a wait for the rate limit to lift lifts it at once, and a wait that
 * is too short still meets the 429; between waits it runs as the wall clock does, so scripts run
 * in real time after the audit see the server's windows move as usual.
 */
export class JumpingClock extends FakeClock {
  private ahead = 0;
  /** Set by `freeze`: the time it stopped at (waits still move it on). */
  private frozenAt?: number;

  override now = (): number => this.frozenAt ?? Date.now() + this.ahead;

  protected override moveTo(end: number): void {
    if (this.frozenAt !== undefined) this.frozenAt = Math.max(this.frozenAt, end);
    else this.ahead = Math.max(this.ahead, end - Date.now());
  }

  /**
   * Stops the clock where it is: a server on it sees every later request in one moment, so a
   * burst meets its rate limit however slowly a loaded machine sends it, and the limit never lifts.
   */
  freeze(): void {
    this.frozenAt = this.now();
  }
}

export interface AltAudit extends RecordedAudit {
  /** With `keep`: the audited server, still running (the caller closes it). */
  server?: FixtureServer;
  /** The clock the audit and the server shared. */
  clock: JumpingClock;
}

/**
 * Audits the alternative API with these switches, its hand-written config and the whole catalogue,
 * the server and the audit on one JumpingClock: waits for its rate limit take no real time.
 */
export async function auditAlt(
  options: AltApiOptions,
  more: { config?: (config: AuditConfig) => AuditConfig; run?: Partial<RunOptions>; keep?: boolean } = {},
): Promise<AltAudit> {
  const clock = new JumpingClock();
  const fixture = altFixture({ ...options, now: clock.now }, more.config);
  let kept: FixtureServer | undefined;
  const server = more.keep
    ? async (): Promise<FixtureServer> => {
        kept = await fixture.server();
        return { ...kept, close: async () => undefined };
      }
    : fixture.server;
  const { result, before, after } = await auditFixture(catalogue, {
    ...fixture,
    server,
    run: more.run,
    clock,
  });
  return { result, before: before ?? {}, after: after ?? {}, clock, ...(kept ? { server: kept } : {}) };
}

/** `RULE severity` for every rule a failed result names, sorted, without repeats. */
export function failedRules(result: RunResult): string[] {
  const out = new Set<string>();
  for (const r of result.results) {
    if (r.status === 'failed') for (const rule of r.rules) out.add(`${rule} ${r.severity}`);
  }
  return [...out].sort();
}

/** Every failed or errored result in one line each, for readable assertion messages. */
export function badResults(result: RunResult): string[] {
  return result.results
    .filter((r) => r.status === 'failed' || r.status === 'errored')
    .map((r) => `${r.status} ${r.checkId} [${r.rules.join(',')}] ${r.resource ?? '-'}: ${r.message ?? ''}`);
}

/** Every skipped result as `checkId resource`, sorted. */
export function skipped(result: RunResult): string[] {
  return result.results
    .filter((r) => r.status === 'skipped')
    .map((r) => `${r.checkId} ${r.resource ?? '-'}`)
    .sort();
}

/** Every record held before the audit is still there, byte for byte (the audit touched none of them). */
export function expectSeedsUntouched(audit: RecordedAudit): void {
  for (const [name, records] of Object.entries(audit.before)) {
    const now = audit.after[name] ?? [];
    const changed = records.filter((rec) => !now.some((other) => isDeepStrictEqual(other, rec)));
    expect({ collection: name, changed }).toEqual({ collection: name, changed: [] });
  }
}

/** Principle 2: every failed result carries evidence with a curl line. */
export function expectEvidence(result: RunResult): void {
  const unproven = result.results
    .filter((r) => r.status === 'failed')
    .filter((r) => r.evidence.length === 0 || !r.evidence.every((e) => e.curl.startsWith('curl ')))
    .map((r) => `${r.checkId} ${r.resource ?? '-'}`);
  expect(unproven).toEqual([]);
}

/**
 * Messages (and problems) in which a value went missing on its way into the text: `undefined`,
 * `NaN`, `[object Object]`, or a bare `null` that is not a JSON value being quoted ("JSON null",
 * `"x": null`). Each as `checkId resource: message`.
 */
export function unreadableMessages(result: RunResult): string[] {
  const leaks = /\bundefined\b|\bNaN\b|\[object Object\]|\bnull\b/;
  // `null` is fine where it is JSON: the probe "JSON null", or a value inside quoted JSON.
  const quotedNull = /JSON null|[:[,]\s*null\b/g;
  return result.results.flatMap((r) =>
    [r.message ?? '', ...(r.problems ?? [])]
      .filter((text) => leaks.test(text.replace(quotedNull, '')))
      .map((text) => `${r.checkId} ${r.resource ?? '-'}: ${text}`),
  );
}
