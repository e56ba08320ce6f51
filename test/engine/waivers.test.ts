// Applying waivers to results: what a waiver covers, how expiry turns it back into a failure.
import { describe, expect, it } from '@jest/globals';
import type { CheckResult, WaiverConfig } from '../../src/core/types.js';
import { applyWaiver, applyWaivers, waiverActive, waiverMatches } from '../../src/engine/waivers.js';

function result(partial: Partial<CheckResult> = {}): CheckResult {
  return {
    checkId: 'delete-removes',
    rules: ['MTH-DELETE', 'RES-ITEM'],
    suite: 'methods',
    resource: 'widgets',
    title: 'DELETE removes the item',
    status: 'failed',
    severity: 'error',
    message: 'GET after DELETE answered 200, expected 404',
    evidence: [],
    durationMs: 5,
    ...partial,
  };
}

const JAN_10 = new Date('2026-01-10T12:00:00Z');

describe('waiverMatches', () => {
  it('matches by rule (any of the result rules), by check, and narrows by resource', () => {
    const r = result();
    expect(waiverMatches({ rule: 'RES-ITEM', reason: 'x', expires: '2026-02-01' }, r)).toBe(true);
    expect(waiverMatches({ rule: 'AUTH-MISSING', reason: 'x', expires: '2026-02-01' }, r)).toBe(false);
    expect(waiverMatches({ check: 'delete-removes', reason: 'x', expires: '2026-02-01' }, r)).toBe(true);
    expect(waiverMatches({ check: 'create-location', reason: 'x', expires: '2026-02-01' }, r)).toBe(false);
    expect(
      waiverMatches({ check: 'delete-removes', resource: 'widgets', reason: 'x', expires: '2026-02-01' }, r),
    ).toBe(true);
    expect(
      waiverMatches({ check: 'delete-removes', resource: 'orders', reason: 'x', expires: '2026-02-01' }, r),
    ).toBe(false);
    // A waiver for a resource does not cover the API-wide result of the same check.
    expect(
      waiverMatches(
        { check: 'delete-removes', resource: 'widgets', reason: 'x', expires: '2026-02-01' },
        result({ resource: undefined }),
      ),
    ).toBe(false);
  });

  it('needs both when a waiver names a rule and a check, and nothing when it names neither', () => {
    const r = result();
    expect(
      waiverMatches({ rule: 'MTH-DELETE', check: 'delete-removes', reason: 'x', expires: '2026-02-01' }, r),
    ).toBe(true);
    expect(waiverMatches({ rule: 'MTH-DELETE', check: 'other', reason: 'x', expires: '2026-02-01' }, r)).toBe(
      false,
    );
    expect(waiverMatches({ reason: 'x', expires: '2026-02-01' }, r)).toBe(false);
  });
});

describe('waiverActive', () => {
  it('lasts to the end of a plain date (UTC) and to the instant of a date-time', () => {
    const w = (expires: string): WaiverConfig => ({ rule: 'MTH-DELETE', reason: 'x', expires });
    expect(waiverActive(w('2026-01-10'), new Date('2026-01-10T23:59:59.999Z'))).toBe(true);
    expect(waiverActive(w('2026-01-10'), new Date('2026-01-11T00:00:00.000Z'))).toBe(false);
    expect(waiverActive(w('2026-01-10T12:00:00Z'), JAN_10)).toBe(true);
    expect(waiverActive(w('2026-01-10T11:59:59Z'), JAN_10)).toBe(false);
    expect(waiverActive(w('not a date'), JAN_10)).toBe(false);
  });
});

describe('applyWaiver', () => {
  const active: WaiverConfig = {
    check: 'delete-removes',
    reason: 'soft delete until v2 (TICKET-12)',
    expires: '2026-03-31',
  };
  const expired: WaiverConfig = { rule: 'MTH-DELETE', reason: 'old gateway', expires: '2026-01-09' };

  it('turns a covered failure into waived, keeping message and evidence', () => {
    const out = applyWaiver(result(), [active], JAN_10);
    expect(out).toEqual({
      ...result(),
      status: 'waived',
      waiver: { reason: 'soft delete until v2 (TICKET-12)', expires: '2026-03-31' },
    });
  });

  it('fails again after expiry, saying the waiver expired and why it existed', () => {
    const out = applyWaiver(result(), [expired], JAN_10);
    expect(out.status).toBe('failed');
    expect(out.message).toBe(
      'waiver expired on 2026-01-09: old gateway — GET after DELETE answered 200, expected 404',
    );
    expect(out.waiver).toEqual({ reason: 'old gateway', expires: '2026-01-09' });
    // With no message of its own, the note is the message.
    expect(applyWaiver(result({ message: undefined }), [expired], JAN_10).message).toBe(
      'waiver expired on 2026-01-09: old gateway',
    );
  });

  it('prefers an active waiver over an expired one, and names the latest expired one', () => {
    expect(applyWaiver(result(), [expired, active], JAN_10).status).toBe('waived');
    const older: WaiverConfig = { rule: 'RES-ITEM', reason: 'older', expires: '2025-06-01' };
    expect(applyWaiver(result(), [older, expired], JAN_10).message).toMatch(
      /^waiver expired on 2026-01-09: old gateway/,
    );
  });

  it('leaves passes, skips, errors and unmatched failures as they are', () => {
    for (const status of ['passed', 'skipped', 'errored'] as const) {
      const r = result({ status });
      expect(applyWaiver(r, [active, expired], JAN_10)).toBe(r);
    }
    const other = result({ checkId: 'create-location', rules: ['MTH-CREATE'] });
    expect(applyWaiver(other, [active, expired], JAN_10)).toBe(other);
  });

  it('applies to a list, with the current time by default', () => {
    const list = [result(), result({ resource: 'orders' }), result({ status: 'passed' })];
    const far: WaiverConfig = { ...active, resource: 'widgets', expires: '2999-12-31' };
    expect(applyWaivers(list, [far]).map((r) => r.status)).toEqual(['waived', 'failed', 'passed']);
    expect(applyWaivers(list, [], JAN_10)).toEqual(list);
  });
});
