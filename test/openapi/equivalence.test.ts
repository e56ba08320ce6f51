// The audit driven only by a document finds the same violations as one driven by the equivalent hand-written config.
import { describe, expect, it } from '@jest/globals';
import { FakeClock } from '../../src/testing/fake-clock.js';
import type { Breaks } from '../../src/example-api/index.js';
import { startExampleFixture } from '../../src/testing/fixture-server.js';
import { cli, fixture, readReport, tempFolder, tokenEnv, type ReportResult } from './helpers.js';

/** Breaks grouped so that each group touches different checks (one server per group, two audits each). */
const BREAK_SETS: Array<{ name: string; breaks: Breaks }> = [
  {
    name: 'statuses of reads and creates',
    breaks: { readStatus: true, createStatus200: true, noLocation: true },
  },
  { name: 'changes and deletes not applied', breaks: { changeNotApplied: true, deleteNoop: true } },
  { name: 'unknown ids and error bodies', breaks: { notFound400: true, htmlErrors: true } },
  { name: 'error objects in 2xx and text/plain JSON', breaks: { errorIn200: true, textJson: true } },
];

/** What a violation is, independent of how the config was written: check, resource, rules. */
function violations(results: ReportResult[]): string[] {
  return results
    .filter((r) => r.status === 'failed' || r.status === 'errored')
    .map((r) => `${r.checkId} ${r.resource ?? '(api)'} ${r.status} [${r.rules.join(',')}]`)
    .sort();
}

describe('document-driven and config-driven audits find the same violations', () => {
  for (const { name, breaks } of BREAK_SETS) {
    it(name, async () => {
      // One fake clock for the API and both audits: the rate-limit waits take no real time.
      const clock = new FakeClock();
      const server = await startExampleFixture({ breaks, now: clock.now });
      try {
        const byDocument = await tempFolder();
        const byConfig = await tempFolder();
        const doc = await cli(
          [
            'run',
            '--openapi',
            fixture('widgets-31.yaml'),
            '--base-url',
            server.baseUrl,
            '--out',
            byDocument,
            '--quiet',
          ],
          tokenEnv(server),
          clock,
        );
        const config = await cli(
          [
            'run',
            '--config',
            fixture('widgets-31.config.yaml'),
            '--base-url',
            server.baseUrl,
            '--out',
            byConfig,
            '--quiet',
          ],
          tokenEnv(server),
          clock,
        );
        const found = violations((await readReport(byDocument)).results);
        expect(found.length).toBeGreaterThan(0);
        expect(found).toEqual(violations((await readReport(byConfig)).results));
        expect([doc.code, config.code]).toEqual([1, 1]);
      } finally {
        await server.close();
      }
    });
  }
});
