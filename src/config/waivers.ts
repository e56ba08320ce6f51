// Waiver checks: expiry dates here; rule and check ids against the catalogue (given by the caller).
import type { AuditConfig } from '../core/types.js';
import { didYouMean } from './suggest.js';

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * When a waiver stops applying: a date-time as written (local time when it has no zone),
 * a plain date at the end of that day, UTC. Undefined when `expires` is not a real date.
 */
export function waiverExpiresAt(expires: string): Date | undefined {
  const match = DATE_TIME.exec(expires.trim());
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map((part) => (part === undefined ? undefined : Number(part)));
  const day = new Date(Date.UTC(y!, mo! - 1, d!));
  // Date.UTC rolls 2026-02-30 over to March: a real date survives the round trip.
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo! - 1 || day.getUTCDate() !== d) return undefined;
  if (h === undefined) return new Date(Date.UTC(y!, mo! - 1, d!, 23, 59, 59, 999));
  if (h > 23 || mi! > 59 || (s ?? 0) > 59) return undefined;
  const at = new Date(Date.parse(expires.trim().replace(' ', 'T')));
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/**
 * Problems with waivers that need the catalogue: unknown rule or check ids (with a
 * did-you-mean), or an id of the other kind. Lines are prefixed with the config's source.
 */
export function validateWaivers(
  config: Pick<AuditConfig, 'waivers' | 'source'>,
  knownRuleIds: Set<string>,
  knownCheckIds: Set<string>,
): string[] {
  const prefix = config.source ? `${config.source}: ` : '';
  const problems: string[] = [];
  config.waivers.forEach((waiver, index) => {
    if (waiver.rule !== undefined && !knownRuleIds.has(waiver.rule)) {
      const hint = knownCheckIds.has(waiver.rule)
        ? ` ("${waiver.rule}" is a check id: write check: ${waiver.rule})`
        : didYouMean(waiver.rule, knownRuleIds);
      problems.push(`${prefix}waivers[${index}].rule: unknown rule "${waiver.rule}"${hint}`);
    }
    if (waiver.check !== undefined && !knownCheckIds.has(waiver.check)) {
      const hint = knownRuleIds.has(waiver.check)
        ? ` ("${waiver.check}" is a rule id: write rule: ${waiver.check})`
        : didYouMean(waiver.check, knownCheckIds);
      problems.push(`${prefix}waivers[${index}].check: unknown check "${waiver.check}"${hint}`);
    }
  });
  return problems;
}
