// Assertions shared by the real-server tests: the failure set, evidence on failures, data left as found.
import { expect } from '@jest/globals';
import { isDeepStrictEqual } from 'node:util';
import type { RunResult } from '../../src/core/types.js';
import { coveredRules, describeFailures, expectedFailures, failedRules, passedRules } from './audit.js';

type Db = Record<string, Array<Record<string, unknown>>>;

/**
 * The failed rules are exactly the expected deviations (those whose rule the catalogue covers).
 * On a mismatch the received value also lists the audit's failed results, to show why.
 */
export function expectDeviations(result: RunResult, deviations: string[]): void {
  const actual = failedRules(result);
  const expected = expectedFailures(deviations);
  const unexpected = actual.filter((line) => !expected.includes(line));
  const missing = expected.filter((line) => !actual.includes(line));
  const why = unexpected.length + missing.length > 0 ? { failedResults: describeFailures(result) } : {};
  expect({ unexpected, missing, ...why }).toEqual({ unexpected: [], missing: [] });
}

/** Each `RULE resource` line (whose rule the catalogue covers) has a passed result: checked, and right. */
export function expectPasses(result: RunResult, lines: string[]): void {
  const passed = passedRules(result);
  const missing = lines.filter((line) => coveredRules.has(line.split(' ')[0]) && !passed.has(line));
  expect(missing).toEqual([]);
}

/** Principle 2: every failed result carries evidence, each with a curl line that reproduces it. */
export function expectEvidenceOnEveryFailure(result: RunResult): void {
  const unproven = result.results
    .filter((r) => r.status === 'failed')
    .filter((r) => r.evidence.length === 0 || r.evidence.some((e) => !e.curl.startsWith('curl ')))
    .map((r) => `${r.checkId} ${r.resource ?? '-'}`);
  expect(unproven).toEqual([]);
}

/**
 * The seeded records of the declared collections are byte-for-byte what they were, and every
 * other record in them is one the cleanup report names as a leftover (none, normally).
 */
export function expectCleanAfterAudit(result: RunResult, seed: Db, after: Db, collections?: string[]): void {
  for (const name of collections ?? Object.keys(seed)) {
    const before = seed[name] ?? [];
    const now = after[name] ?? [];
    const changed = before.filter((record) => !now.some((other) => isDeepStrictEqual(other, record)));
    expect({ collection: name, changed }).toEqual({ collection: name, changed: [] });
    const extra = now.filter((record) => !before.some((other) => isDeepStrictEqual(other, record)));
    const leftovers = result.cleanup.leftovers.filter((l) => l.resource === name);
    // On a mismatch the received value also shows the records, to tell where they came from.
    const shown = extra.length !== leftovers.length ? { records: extra, leftovers } : {};
    expect({ collection: name, extra: extra.length, ...shown }).toEqual({
      collection: name,
      extra: leftovers.length,
    });
  }
}
