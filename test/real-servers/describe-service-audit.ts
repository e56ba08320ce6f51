// The audit test every harness server (PostgREST, DRF, Parse) gets: exact deviations, evidence, data left as found.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { isDeepStrictEqual } from 'node:util';
import type { RunResult } from '../../src/core/types.js';
import { loadConfig } from '../../src/config/load.js';
import { runAudit } from '../../src/engine/run.js';
import { catalogue } from '../../suites/index.js';
import { startPostgres, type PgCluster } from './harness/postgres.js';
import type { RealService, Records } from './harness/service.js';
import { describeRealServer, type RealServerName } from './harness/software.js';
import { expectDeviations, expectEvidenceOnEveryFailure } from './expect.js';

/** A harness server under audit with its config (test/real-servers/<name>/), and what it must report. */
export interface ServiceAudit {
  name: RealServerName;
  title: string;
  /** The config file the audit loads. */
  config: string;
  /** Starts the server (and what it runs on); the returned stops run in order after the tests. */
  start(): Promise<{ service: RealService; stops: Array<() => Promise<void>> }>;
  /** `--skip` selectors, each with its reason in the test file. */
  skip: string[];
  /** `rule resource severity` lines that must fail, and nothing else (no errored result either). */
  deviations: string[];
  /** Patterns the cleanup report's leftovers must match, one leftover each, in any order; none by default. */
  leftovers?: RegExp[];
  /** Records the service holds after the audit beside the seeded ones (what the leftovers name). */
  extraRecords?: number;
}

/**
 * The `start` of a service that runs on a Postgres cluster of its own: the cluster stops after the
 * service, or at once when the service does not start.
 */
export function onPostgres(
  startService: (cluster: PgCluster) => Promise<RealService>,
): ServiceAudit['start'] {
  return async () => {
    const cluster = await startPostgres();
    const service = await startService(cluster).catch(async (error: unknown) => {
      await cluster.stop();
      throw error;
    });
    return { service, stops: [() => service.stop(), () => cluster.stop()] };
  };
}

/** Describes the audit of one harness server: skipped (or failing under `required`) without its software. */
export function describeServiceAudit(spec: ServiceAudit): void {
  describeRealServer(spec.name, spec.title, () => {
    let service: RealService;
    let stops: Array<() => Promise<void>> = [];
    let before: Records;
    let after: Records;
    let result: RunResult;

    beforeAll(async () => {
      ({ service, stops } = await spec.start());
      before = await service.records();
      const config = await loadConfig({ path: spec.config, env: service.env });
      result = await runAudit(config, { catalogue, concurrency: 4, timeoutMs: 5000, skip: spec.skip });
      after = await service.records();
    }, 240_000);
    afterAll(async () => {
      for (const stop of stops) await stop();
    }, 60_000);

    it('reports exactly the deviations the server has, under the right rules, with nothing errored', () => {
      expectDeviations(result, spec.deviations);
    });

    it('proves every failure with evidence and a curl line, and never shows a secret', () => {
      expectEvidenceOnEveryFailure(result);
      const report = JSON.stringify(result);
      for (const secret of service.secrets) expect(report).not.toContain(secret);
    });

    it('leaves the seeded records as they were; leaves behind only what it reports, for the reasons expected', () => {
      for (const [name, records] of Object.entries(before)) {
        const now = after[name] ?? [];
        const changed = records.filter((r) => !now.some((o) => isDeepStrictEqual(o, r)));
        expect({ name, changed }).toEqual({ name, changed: [] });
      }
      const extra = Object.entries(after).flatMap(([name, records]) =>
        records.filter((r) => !(before[name] ?? []).some((o) => isDeepStrictEqual(o, r))),
      );
      const reasons = result.cleanup.leftovers.map((l) => `${l.resource} ${l.url}: ${l.reason}`);
      const unmatched = [...reasons];
      const missing = (spec.leftovers ?? []).filter((pattern) => {
        const at = unmatched.findIndex((reason) => pattern.test(reason));
        if (at >= 0) unmatched.splice(at, 1);
        return at < 0;
      });
      expect({ unexpected: unmatched, missing: missing.map(String), extra: extra.length }).toEqual({
        unexpected: [],
        missing: [],
        extra: spec.extraRecords ?? 0,
      });
    });
  });
}
