// Audits a real server with its config from config/examples/ and boils the result down to rule outcomes.
import type { RunResult } from '../../src/core/types.js';
import { packagePath } from '../../src/core/paths.js';
import { loadConfig } from '../../src/config/load.js';
import { runAudit } from '../../src/engine/run.js';
import { catalogue } from '../../suites/index.js';
import type { RealServer } from './servers.js';

/** Runs the full catalogue against the server with config/examples/<kind>.yaml and these variables. */
export async function auditRealServer(server: RealServer, env: NodeJS.ProcessEnv): Promise<RunResult> {
  const config = await loadConfig({ path: packagePath('config', 'examples', `${server.kind}.yaml`), env });
  return runAudit(config, { catalogue, concurrency: 4, timeoutMs: 5000 });
}

/**
 * One line per rule a failed result names: `RULE resource severity` (`-` for API-wide results),
 * sorted, without repeats. Errored results (the check itself broke) appear as `errored <checkId>`.
 */
export function failedRules(result: RunResult): string[] {
  const lines = new Set<string>();
  for (const r of result.results) {
    if (r.status === 'errored') lines.add(`errored ${r.checkId} ${r.resource ?? '-'}`);
    if (r.status !== 'failed') continue;
    for (const rule of r.rules) lines.add(`${rule} ${r.resource ?? '-'} ${r.severity}`);
  }
  return [...lines].sort();
}

/** Rules that some check of the catalogue covers (the catalogue grows; the tests judge those). */
export const coveredRules: ReadonlySet<string> = new Set(catalogue.flatMap((c) => c.rules));

/** The expected lines whose rule some check covers, sorted. */
export function expectedFailures(lines: string[]): string[] {
  return lines.filter((line) => coveredRules.has(line.split(' ')[0])).sort();
}

/** Rules with at least one passed result for the resource (what the server does right, and was checked). */
export function passedRules(result: RunResult): Set<string> {
  return rulesWith(result, 'passed');
}

/** `RULE resource` of every result with this status. */
export function rulesWith(result: RunResult, status: RunResult['results'][number]['status']): Set<string> {
  const out = new Set<string>();
  for (const r of result.results) {
    if (r.status === status) for (const rule of r.rules) out.add(`${rule} ${r.resource ?? '-'}`);
  }
  return out;
}

/** A short listing of every failed result, for a readable failure message. */
export function describeFailures(result: RunResult): string {
  return result.results
    .filter((r) => r.status === 'failed' || r.status === 'errored')
    .map((r) => `${r.status} ${r.checkId} [${r.rules.join(',')}] ${r.resource ?? '-'}: ${r.message ?? ''}`)
    .join('\n');
}
