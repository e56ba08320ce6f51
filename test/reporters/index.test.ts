// The reporter registry: names, file names, lookup of --reporter values.
import { describe, expect, it } from '@jest/globals';
import { ConformanceError } from '../../src/core/errors.js';
import { reporters, resolveReporters } from '../../src/reporters/index.js';
import { fixtureRun } from './fixture.js';

describe('reporter registry', () => {
  it('keys every reporter by its own name, with the contract file names', () => {
    expect(Object.keys(reporters)).toEqual(['console', 'json', 'junit', 'html', 'markdown', 'har', 'repro']);
    for (const [key, reporter] of Object.entries(reporters)) expect(reporter.name).toBe(key);
    expect(reporters.json.fileName).toBe('conformance.json');
    expect(reporters.junit.fileName).toBe('junit.xml');
    expect(reporters.html.fileName).toBe('report.html');
    expect(reporters.markdown.fileName).toBe('summary.md');
    expect(reporters.har.fileName).toBe('exchanges.har');
    expect(reporters.console.fileName).toBeUndefined();
    // repro writes one file per failure (repro/<check>--<resource>.sh), through `files`.
    expect(reporters.repro.fileName).toBeUndefined();
    expect(reporters.repro.files).toBeDefined();
    // Only markdown goes to the CI job summary; only har needs the run's exchanges.
    expect(
      Object.values(reporters)
        .filter((r) => r.stepSummary)
        .map((r) => r.name),
    ).toEqual(['markdown']);
    expect(
      Object.values(reporters)
        .filter((r) => r.needsExchanges)
        .map((r) => r.name),
    ).toEqual(['har']);
  });

  it('renders every format from the same run without throwing, returning text ending in a newline', () => {
    for (const reporter of Object.values(reporters)) {
      expect(reporter.render(fixtureRun(), { color: false }).endsWith('\n')).toBe(true);
    }
  });

  it('resolves --reporter names in order, once each, and names unknown ones', () => {
    expect(resolveReporters(['junit', 'json', 'junit']).map((r) => r.name)).toEqual(['junit', 'json']);
    expect(() => resolveReporters(['json', 'pdf', 'toString'])).toThrow(
      new ConformanceError(
        'E_ARGS',
        'unknown reporter "pdf", "toString" (known: console, json, junit, html, markdown, har, repro)',
      ),
    );
    try {
      resolveReporters(['pdf']);
    } catch (e) {
      expect((e as ConformanceError).code).toBe('E_ARGS');
    }
  });
});
