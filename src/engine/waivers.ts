// Applying waivers: a failure a waiver covers is reported as waived until the waiver expires.
import { waiverExpiresAt } from '../config/waivers.js';
import type { CheckResult, WaiverConfig } from '../core/types.js';

/**
 * True when the waiver names this result: its `check` is the result's check id and/or its
 * `rule` is one of the result's rules (both must hold when both are given), and its
 * `resource`, when given, is the result's resource. A waiver naming neither covers nothing.
 */
export function waiverMatches(waiver: WaiverConfig, result: CheckResult): boolean {
  if (waiver.check === undefined && waiver.rule === undefined) return false;
  if (waiver.check !== undefined && waiver.check !== result.checkId) return false;
  if (waiver.rule !== undefined && !result.rules.includes(waiver.rule)) return false;
  return waiver.resource === undefined || waiver.resource === result.resource;
}

/** True when the waiver still applies at `now` (an unparseable date counts as expired). */
export function waiverActive(waiver: WaiverConfig, now: Date): boolean {
  const until = waiverExpiresAt(waiver.expires);
  return until !== undefined && now.getTime() <= until.getTime();
}

/**
 * One result after the waivers: a failed result covered by an unexpired waiver becomes
 * `waived` (message and evidence kept, so readers still see what is waived). A failure whose
 * only matching waivers have expired stays failed, and its message starts with
 * `waiver expired on <expires>: <reason>` so nobody mistakes it for a new regression. Every
 * other status is returned unchanged: a waiver accepts a known rule break, not a broken check.
 */
export function applyWaiver(result: CheckResult, waivers: readonly WaiverConfig[], now: Date): CheckResult {
  if (result.status !== 'failed' || waivers.length === 0) return result;
  const matching = waivers.filter((w) => waiverMatches(w, result));
  if (matching.length === 0) return result;
  const active = matching.find((w) => waiverActive(w, now));
  if (active) {
    return { ...result, status: 'waived', waiver: { reason: active.reason, expires: active.expires } };
  }
  // The waiver that ran out last is the one the reader remembers.
  const latest = [...matching].sort(
    (a, b) => (waiverExpiresAt(b.expires)?.getTime() ?? 0) - (waiverExpiresAt(a.expires)?.getTime() ?? 0),
  )[0];
  const note = `waiver expired on ${latest.expires}: ${latest.reason}`;
  return {
    ...result,
    message: result.message ? `${note} — ${result.message}` : note,
    waiver: { reason: latest.reason, expires: latest.expires },
  };
}

/** Every result after the waivers (see `applyWaiver`); `now` is injectable for tests. */
export function applyWaivers(
  results: readonly CheckResult[],
  waivers: readonly WaiverConfig[],
  now: Date = new Date(),
): CheckResult[] {
  return results.map((r) => applyWaiver(r, waivers, now));
}
