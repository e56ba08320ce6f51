// CheckTester: runs one check against valid and invalid fixture servers (model: ESLint's RuleTester).
import { describe, expect, it } from '@jest/globals';
import type { Check, Clock } from '../core/check.js';
import type { AuditConfig, CheckResult, RunResult, Severity } from '../core/types.js';
import type { ExampleApiOptions } from '../example-api/index.js';
import { runAudit, type RunOptions } from '../engine/run.js';
import { catalogue as fullCatalogue } from '../../suites/index.js';
import { startExampleFixture, type FixtureServer } from './fixture-server.js';
import { exampleConfig } from './example-config.js';
import { plainDataKey, sharedAudit } from './shared-audits.js';
import {
  actualFailures,
  failureMismatch,
  matchesText,
  refuseBadCases,
  type ExpectedFailure,
} from './expected-failures.js';

export { times, type ExpectedFailure } from './expected-failures.js';

export interface FixtureCase {
  name: string;
  /** Switches for the bundled example API (the default fixture). */
  api?: ExampleApiOptions;
  /** A custom server instead of the example API. */
  server?: () => Promise<FixtureServer>;
  /** Adjusts (or replaces) the config the audit runs with (default: config/example.yaml for this server). */
  config?: (config: AuditConfig, server: FixtureServer) => AuditConfig | Promise<AuditConfig>;
  /** Extra run options (e.g. readOnly). */
  run?: Partial<RunOptions>;
  /**
   * The run's clock (e.g. a `FakeClock`, so waits take no real time); the example API reads its
   * time from it too unless `api.now` says otherwise.
   */
  clock?: Clock;
  /** Invalid cases: a rule id every failed result must name (default: the check's first rule). */
  rule?: string;
  /**
   * Invalid cases (required): every problem the check reports, compared exactly (how many, and
   * which message ids, in any order), or only how many. Model: RuleTester's `errors`.
   */
  failures?: number | ExpectedFailure[];
  /** Skipped cases: text or pattern the skip reason must contain. */
  message?: string | RegExp;
  /** Invalid cases: the failed result's severity. */
  severity?: Severity;
  /** Only judge results for this resource. */
  resource?: string;
}

export interface CheckTesterOptions {
  /** Checks that run beside the tested one (observers need traffic); default for observers: every active check. */
  with?: Check[];
}

/** An audit with the records its fixture held before and after it (`{}` where the fixture keeps none). */
export interface RecordedAudit {
  result: RunResult;
  before: Record<string, unknown[]>;
  after: Record<string, unknown[]>;
}

/** The checks beside which an observer runs by default: every active check but the last, lone ones. */
const DEFAULT_COMPANIONS = fullCatalogue.filter((c) => c.kind === 'active' && c.schedule !== 'alone-last');
const OBSERVERS = fullCatalogue.filter((c) => c.kind === 'observer');

/** Audits a fixture with the given checks and returns the whole run. */
export async function auditFixture(
  checks: Check[],
  fixture: Pick<FixtureCase, 'api' | 'server' | 'config' | 'run' | 'clock'> = {},
): Promise<{
  result: RunResult;
  server: FixtureServer;
  before?: Record<string, unknown[]>;
  after?: Record<string, unknown[]>;
}> {
  const { clock } = fixture;
  const api = clock ? { now: clock.now, ...fixture.api } : fixture.api;
  const server = fixture.server ? await fixture.server() : await startExampleFixture(api);
  try {
    const before = server.snapshot?.();
    let config = await exampleConfig(server);
    if (fixture.config) config = await fixture.config(config, server);
    const result = await runAudit(config, {
      catalogue: checks,
      concurrency: 4,
      timeoutMs: 5000,
      ...(clock ? { clock } : {}),
      ...fixture.run,
    });
    return { result, server, before, after: server.snapshot?.() };
  } finally {
    await server.close();
  }
}

/**
 * Defines jest tests: every valid case passes (and runs); every invalid case fails with exactly
 * the failures it states (their count and message ids), naming the rule with evidence; every
 * `skipped` case (nothing for the check to judge) is skipped with the reason, never passed.
 * Throws before defining any test when a case is malformed or duplicated (see `refuseBadCases`).
 * An observer's cases on plain-data fixtures read one audit per fixture shared by the whole test
 * run (see `auditOf`).
 */
export class CheckTester {
  constructor(private readonly options: CheckTesterOptions = {}) {}

  run(check: Check, cases: { valid: FixtureCase[]; invalid: FixtureCase[]; skipped?: FixtureCase[] }): void {
    refuseBadCases(check, cases);
    const companions = this.options.with ?? (check.kind === 'observer' ? DEFAULT_COMPANIONS : []);
    const checks = [check, ...companions.filter((c) => c.id !== check.id)];
    const audit = auditOf(check, checks);
    const declared = Object.keys(check.messages);
    const mine = (result: RunResult, c: FixtureCase): CheckResult[] => {
      const results = result.results.filter(
        (r) => r.checkId === check.id && (c.resource === undefined || r.resource === c.resource),
      );
      // A problem under an id the check does not declare is the check's bug (or the engine's).
      const undeclared = results.flatMap((r) => (r.problemIds ?? []).filter((id) => !declared.includes(id)));
      expect({ undeclaredMessageIds: undeclared }).toEqual({ undeclaredMessageIds: [] });
      return results;
    };

    describe(check.id, () => {
      for (const c of cases.valid) {
        it(`valid: ${c.name}`, async () => {
          const result = await audit(c);
          const results = mine(result, c);
          const bad = results.filter((r) => r.status === 'failed' || r.status === 'errored');
          expect(bad.map((r) => `${r.resource}: ${r.status}: ${r.message}`)).toEqual([]);
          expect(results.some((r) => r.status === 'passed')).toBe(true);
        });
      }
      for (const c of cases.skipped ?? []) {
        it(`nothing to judge: ${c.name}`, async () => {
          const result = await audit(c);
          const results = mine(result, c);
          expect(results.length).toBeGreaterThan(0);
          const notSkipped = results.filter((r) => r.status !== 'skipped');
          expect(notSkipped.map((r) => `${r.resource}: ${r.status}: ${r.message ?? ''}`)).toEqual([]);
          if (c.message !== undefined) {
            for (const r of results) {
              const reason = r.message ?? '';
              expect({ reason, matches: matchesText(reason, c.message) }).toEqual({ reason, matches: true });
            }
          }
        });
      }
      for (const c of cases.invalid) {
        it(`invalid: ${c.name}`, async () => {
          const result = await audit(c);
          const failed = mine(result, c).filter((r) => r.status === 'failed');
          const errored = mine(result, c).filter((r) => r.status === 'errored');
          expect(errored.map((r) => `${r.resource}: ${r.message}`)).toEqual([]);
          const actual = actualFailures(failed);
          // On a mismatch, both lists side by side: what the case states and what the check reported.
          expect({ failures: failureMismatch(c.failures!, actual) }).toEqual({ failures: undefined });
          for (const r of failed) {
            expect(r.rules).toContain(c.rule ?? check.rules[0]);
            expect(r.evidence.length).toBeGreaterThan(0);
            expect(r.evidence[0].curl).toMatch(/^curl /);
            if (c.severity) expect(r.severity).toBe(c.severity);
          }
        });
      }
    });
  }
}

/**
 * How the tester audits a case for `check` (run beside `checks`). An observer sends nothing and
 * judges only what it sees, so one audit of a fixture with every observer beside the same active
 * checks gives each observer the results it would get alone: a catalogue observer's case whose
 * fixture is plain data (no function, server, config edit or clock) reads that audit, run once per
 * test run (see shared-audits.ts) for all the observer tests that use the fixture with the same
 * companions. A case always reads the audit beside exactly its own companions: a test that names
 * a few (`with`) stays as cheap as they are when no other file shares its fixtures (the edit
 * loop's subset runs one observer file), and invalid and skipped cases count what they provoke.
 */
function auditOf(check: Check, checks: Check[]): (c: FixtureCase) => Promise<RunResult> {
  const actives = checks.filter((c) => c.kind === 'active');
  const shareable = check.kind === 'observer' && [check, ...actives].every((c) => fullCatalogue.includes(c));
  return async (c) => {
    const { api, run, server, config, clock } = c;
    const data = server || config || clock ? undefined : plainDataKey({ api, run });
    if (!shareable || data === undefined) return (await auditFixture(checks, c)).result;
    const key = plainDataKey({ fixture: data, actives: actives.map((a) => a.id).sort() })!;
    return sharedAudit(key, async () => (await auditFixture([...OBSERVERS, ...actives], c)).result);
  };
}
