// Reading a JSON report back: a lossless round trip, and named problems for anything else.
import { describe, expect, it } from '@jest/globals';
import { jsonReporter } from '../../src/reporters/json.js';
import { readJsonReport } from '../../src/reporters/json-read.js';
import { fixtureRun } from './fixture.js';

const render = (run = fixtureRun()) => jsonReporter.render(run, { color: false });

describe('readJsonReport', () => {
  it('reads back what the JSON reporter wrote, so writing it again gives the same file', () => {
    const notProbed = [{ path: '/widgets/{id}/parts', reason: 'nested collection' }];
    for (const run of [
      fixtureRun(),
      fixtureRun({ interrupted: true, shard: { index: 2, total: 3 }, notProbed }),
      fixtureRun({
        notes: ['the secret from T is only 3 characters long'],
        cleanup: {
          created: 5,
          deleted: 4,
          leftovers: [
            {
              resource: 'widgets',
              url: 'https://api.example.com/v1/widgets/99',
              reason: 'DELETE answered 500',
            },
          ],
          recovered: [
            {
              resource: 'widgets',
              url: 'https://api.example.com/v1/widgets/7',
              reason: 'found after a lost answer',
            },
          ],
        },
      }),
    ]) {
      const { run: back, problems } = readJsonReport(render(run));
      expect(problems).toEqual([]);
      expect(render(back!)).toBe(render(run));
      expect(back!.results[1].evidence[0].response?.headers['x-weird']).toBe('a&b<c>"d"');
    }
  });

  it('reads a report written before summary.warnings existed, and counts the warnings again', () => {
    const doc = JSON.parse(render());
    delete doc.summary.warnings;
    const { run, problems } = readJsonReport(JSON.stringify(doc));
    expect(problems).toEqual([]);
    expect(JSON.parse(render(run!)).summary).toMatchObject({ failed: 3, warnings: 1 });
  });

  it('says when the text is not JSON or not a conformance report', () => {
    expect(readJsonReport('{ nope').problems[0]).toMatch(/^not JSON \(/);
    expect(readJsonReport('{"name":"conformance","version":"0.1.0"}').problems).toEqual([
      'not a conformance JSON report (expected tool.name "conformance" and a results list)',
    ]);
    expect(readJsonReport('[]').problems).toHaveLength(1);
  });

  it('names each malformed field with its path', () => {
    const doc = JSON.parse(render());
    doc.results[0].status = 'green';
    doc.results[1].rules = [];
    delete doc.results[2].checkId;
    doc.results[3].evidence = ['x'];
    doc.shard = { index: 4, total: 3 };
    delete doc.durationMs;
    const { run, problems } = readJsonReport(JSON.stringify(doc));
    expect(run).toBeUndefined();
    expect(problems).toEqual([
      'results[0].status: must be one of passed, failed, skipped, errored, waived',
      'results[1].rules: must be a non-empty list of rule ids',
      'results[2].checkId: missing',
      'results[3].evidence[0]: must be an object with a request',
      'durationMs: missing',
      'shard: must be {index, total} with 1 <= index <= total',
    ]);
  });
});
