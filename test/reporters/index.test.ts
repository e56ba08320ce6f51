// The reporter registry: names, file names, lookup of --reporter values.
import { describe, expect, it } from '@jest/globals';
import { ConformanceError } from '../../src/core/errors.js';
import { reporters, resolveReporters } from '../../src/reporters/index.js';
import { fixtureRun } from './fixture.js';

describe('reporter registry', () => {
  it('keys every reporter by its own name, with the contract file names', () => {
    expect(Object.keys(reporters)).toEqual(['console', 'json', 'junit']);
    for (const [key, reporter] of Object.entries(reporters)) expect(reporter.name).toBe(key);
    expect(reporters.json.fileName).toBe('conformance.json');
    expect(reporters.junit.fileName).toBe('junit.xml');
    expect(reporters.console.fileName).toBeUndefined();
  });

  it('renders every format from the same run without throwing, returning text ending in a newline', () => {
    for (const reporter of Object.values(reporters)) {
      expect(reporter.render(fixtureRun(), { color: false }).endsWith('\n')).toBe(true);
    }
  });

  it('resolves --reporter names in order, once each, and names unknown ones', () => {
    expect(resolveReporters(['junit', 'json', 'junit']).map((r) => r.name)).toEqual(['junit', 'json']);
    expect(() => resolveReporters(['json', 'pdf', 'toString'])).toThrow(
      new ConformanceError('E_ARGS', 'unknown reporter "pdf", "toString" (known: console, json, junit)'),
    );
    try {
      resolveReporters(['pdf']);
    } catch (e) {
      expect((e as ConformanceError).code).toBe('E_ARGS');
    }
  });
});
