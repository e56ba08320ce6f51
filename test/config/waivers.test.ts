// Waivers: loaded with their dates checked; ids checked against the catalogue by validateWaivers.
import { describe, expect, test } from '@jest/globals';
import { parseConfigText } from '../../src/config/load.js';
import { validateWaivers, waiverExpiresAt } from '../../src/config/waivers.js';
import { configError, MINIMAL_YAML } from './helpers.js';

describe('waivers', () => {
  test('valid waivers pass through', () => {
    const text = `${MINIMAL_YAML}waivers:
  - { rule: LIM-RETRY, reason: header coming, expires: 2027-01-31 }
  - { check: auth-missing-token, resource: widgets, reason: known, expires: "2027-01-31T12:00:00Z" }
`;
    expect(parseConfigText(text, { source: 'c.yaml' }).waivers).toEqual([
      { rule: 'LIM-RETRY', reason: 'header coming', expires: '2027-01-31' },
      { check: 'auth-missing-token', resource: 'widgets', reason: 'known', expires: '2027-01-31T12:00:00Z' },
    ]);
  });

  test('a date that does not exist, and an unknown resource', () => {
    const text = `${MINIMAL_YAML}waivers:
  - { rule: LIM-RETRY, reason: r, expires: 2027-02-30 }
  - { rule: LIM-RETRY, resource: widget, reason: r, expires: 2027-02-28 }
`;
    expect(configError(() => parseConfigText(text, { source: 'c.yaml' })).problems).toEqual([
      'c.yaml: waivers[0].expires: not a real date (got "2027-02-30") (line 7)',
      'c.yaml: waivers[1].resource: unknown resource "widget" (did you mean "widgets"?) (line 8)',
    ]);
  });

  test('a plain date lasts to the end of that day (UTC)', () => {
    expect(waiverExpiresAt('2027-01-31')?.toISOString()).toBe('2027-01-31T23:59:59.999Z');
    expect(waiverExpiresAt('2027-01-31T10:00:00Z')?.toISOString()).toBe('2027-01-31T10:00:00.000Z');
    expect(waiverExpiresAt('2027-01-31T25:00:00Z')).toBeUndefined();
    expect(waiverExpiresAt('31/01/2027')).toBeUndefined();
  });

  test('validateWaivers names unknown ids, suggests close ones, spots the wrong kind', () => {
    const rules = new Set(['AUTH-MISSING', 'AUTH-INVALID', 'LIM-429']);
    const checks = new Set(['auth-missing-token', 'rate-limit-burst']);
    const waivers = [
      { rule: 'AUTH-MISSNG', reason: 'r', expires: '2027-01-01' },
      { rule: 'AUTH-NOPE-AT-ALL', reason: 'r', expires: '2027-01-01' },
      { rule: 'auth-missing-token', reason: 'r', expires: '2027-01-01' },
      { check: 'rate-limit-brust', reason: 'r', expires: '2027-01-01' },
      { rule: 'LIM-429', check: 'auth-missing-token', reason: 'r', expires: '2027-01-01' },
    ];
    expect(validateWaivers({ waivers, source: 'c.yaml' }, rules, checks)).toEqual([
      'c.yaml: waivers[0].rule: unknown rule "AUTH-MISSNG" (did you mean "AUTH-MISSING"?)',
      'c.yaml: waivers[1].rule: unknown rule "AUTH-NOPE-AT-ALL"',
      'c.yaml: waivers[2].rule: unknown rule "auth-missing-token" ("auth-missing-token" is a check id: write check: auth-missing-token)',
      'c.yaml: waivers[3].check: unknown check "rate-limit-brust" (did you mean "rate-limit-burst"?)',
    ]);
    expect(validateWaivers({ waivers: [waivers[0]] }, rules, checks)[0]).toMatch(/^waivers\[0\]\.rule:/);
  });
});
