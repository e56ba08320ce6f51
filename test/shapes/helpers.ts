// Shared helpers of the shapes tests: audit the shapes API with a config written as a user would.
import type { Check } from '../../src/core/check.js';
import type { CheckResult, RunResult } from '../../src/core/types.js';
import type { RunOptions } from '../../src/engine/run.js';
import { catalogue } from '../../suites/index.js';
import { auditFixture, type RecordedAudit } from '../../src/testing/check-tester.js';
import { startShapesApi, type ShapesApiOptions } from '../../src/testing/shapes-api.js';
import { loadShapesConfig, shapesResources } from '../../src/testing/shapes-config.js';

/** Audits the shapes API (options) with a config (default: the correct one for the shape). */
export async function auditShapes(
  options: ShapesApiOptions,
  more: { resources?: string; checks?: Check[]; run?: Partial<RunOptions> } = {},
): Promise<RecordedAudit> {
  const { result, before, after } = await auditFixture(more.checks ?? catalogue, {
    server: () => startShapesApi(options),
    config: (_example, server) => loadShapesConfig(server, more.resources ?? shapesResources(options)),
    run: more.run,
  });
  return { result, before: before ?? {}, after: after ?? {} };
}

/** "<checkId> <resource>: <message>" of every failed or errored result. */
export function bad(result: RunResult): string[] {
  return result.results
    .filter((r) => r.status === 'failed' || r.status === 'errored')
    .map((r) => `${r.checkId} ${r.resource ?? '-'}: ${r.message}`);
}

/** The results of one check, `status resource` each, sorted. */
export function statuses(result: RunResult, checkId: string): string[] {
  return result.results
    .filter((r: CheckResult) => r.checkId === checkId)
    .map((r) => `${r.status} ${r.resource ?? '-'}`)
    .sort();
}
