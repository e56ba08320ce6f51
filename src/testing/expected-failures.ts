// What an invalid CheckTester case expects, compared with what the check reported; malformed cases refused.
import type { Check } from '../core/check.js';
import type { CheckResult } from '../core/types.js';
import type { FixtureCase } from './check-tester.js';

/**
 * One failure an invalid case expects: one entry of a failed result's `problems`, identified by
 * its message id (model: an entry of RuleTester's `errors`).
 */
export interface ExpectedFailure {
  /** One of the check's declared `messages` ids. */
  messageId: string;
  /** The resource whose result holds it (default: any, or the case's `resource`). */
  resource?: string;
  /** Optionally, text or pattern its wording must contain (rarely needed: ids are what tests match). */
  message?: string | RegExp;
}

/** One problem of a failed result, as an invalid case's `failures` are compared with. */
export interface ActualFailure {
  resource: string | undefined;
  messageId: string | undefined;
  message: string;
}

/** Every problem of these failed results, in report order (`problemsDropped` ones count, unnamed). */
export function actualFailures(failed: CheckResult[]): ActualFailure[] {
  return failed.flatMap((r) => [
    ...(r.problems ?? []).map((message, i) => ({
      resource: r.resource,
      messageId: r.problemIds?.[i],
      message,
    })),
    ...Array.from({ length: r.problemsDropped ?? 0 }, () => ({
      resource: r.resource,
      messageId: undefined,
      message: '(dropped past the cap)',
    })),
  ]);
}

export function matchesText(text: string, pattern: string | RegExp): boolean {
  return typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
}

/**
 * Pairs each expected failure with a distinct actual one (those naming a resource or a wording
 * first, so a looser expectation cannot take the problem a stricter one needs). Returns the
 * expectations left without a partner.
 */
function unmatched(expected: ExpectedFailure[], actual: ActualFailure[]): ExpectedFailure[] {
  const free = [...actual];
  const strictFirst = [...expected].sort(
    (a, b) =>
      Number(b.resource !== undefined) +
      Number(b.message !== undefined) -
      (Number(a.resource !== undefined) + Number(a.message !== undefined)),
  );
  const left: ExpectedFailure[] = [];
  for (const e of strictFirst) {
    const at = free.findIndex(
      (a) =>
        a.messageId === e.messageId &&
        (e.resource === undefined || a.resource === e.resource) &&
        (e.message === undefined || matchesText(a.message, e.message)),
    );
    if (at < 0) left.push(e);
    else free.splice(at, 1);
  }
  return left;
}

/**
 * Why the failures a check reported are not the ones an invalid case states (undefined when they
 * are): a count, or message ids (with resource and wording where given) paired one to one.
 */
export function failureMismatch(
  expected: number | ExpectedFailure[],
  actual: ActualFailure[],
): string | undefined {
  const got = `got ${actual.length}: ${actual.map(shown).sort().join('; ') || 'none'}`;
  if (typeof expected === 'number') {
    return actual.length === expected ? undefined : `expected ${expected} failures, ${got}`;
  }
  const left = unmatched(expected, actual);
  if (left.length === 0 && actual.length === expected.length) return undefined;
  const want = expected.map(shown).sort().join('; ');
  const missing = left.length > 0 ? ` (not found: ${left.map(shown).join('; ')})` : '';
  return `expected ${expected.length} failures: ${want}${missing}; ${got}`;
}

/** A failure as a test shows it: `resource: messageId`, and the wording of actual ones. */
function shown(f: ActualFailure | ExpectedFailure): string {
  const where = f.resource ?? '*';
  const wording = 'message' in f && f.message !== undefined ? ` (${String(f.message)})` : '';
  return `${where}: ${f.messageId ?? '(no id)'}${wording}`;
}

/**
 * A stable identity of a case's fixture: its data as JSON, every function in it (a server, a
 * config edit, a middleware) by reference, since two functions cannot be told equal by their text.
 */
function fixtureKey(c: FixtureCase, fnIds: Map<unknown, number>): string {
  const { api, server, config, clock, run, resource } = c;
  return JSON.stringify({ api, server, config, clock, run, resource }, (_key, value: unknown) => {
    if (typeof value !== 'function') return value;
    if (!fnIds.has(value)) fnIds.set(value, fnIds.size);
    return `function #${fnIds.get(value)}`;
  });
}

/**
 * Refuses what would make a case meaningless before any test runs (model: RuleTester's asserts):
 * an invalid case that states no failures, a message id the check does not declare, two cases
 * with one name, two cases with one fixture (one of them tests nothing new, or they contradict).
 */
export function refuseBadCases(
  check: Check,
  cases: { valid: FixtureCase[]; invalid: FixtureCase[]; skipped?: FixtureCase[] },
): void {
  const declared = Object.keys(check.messages);
  const problem = (c: FixtureCase, why: string): Error =>
    new Error(`CheckTester(${check.id}): case "${c.name}": ${why}`);
  const names = new Set<string>();
  const fixtures = new Map<string, string>();
  const fnIds = new Map<unknown, number>();
  const all = [
    ...cases.valid.map((c) => ['valid', c] as const),
    ...cases.invalid.map((c) => ['invalid', c] as const),
    ...(cases.skipped ?? []).map((c) => ['skipped', c] as const),
  ];
  for (const [kind, c] of all) {
    if (names.has(c.name)) throw problem(c, 'duplicate case name');
    names.add(c.name);
    const key = fixtureKey(c, fnIds);
    const twin = fixtures.get(key);
    if (twin !== undefined) throw problem(c, `duplicate case: the same fixture as "${twin}"`);
    fixtures.set(key, c.name);
    if (kind !== 'invalid') {
      if (c.failures !== undefined) throw problem(c, `a ${kind} case expects no failures`);
      continue;
    }
    if (c.failures === undefined)
      throw problem(c, 'an invalid case must state its failures (a count or message ids)');
    const count = typeof c.failures === 'number' ? c.failures : c.failures.length;
    if (!Number.isInteger(count) || count < 1)
      throw problem(c, 'an invalid case expects at least one failure');
    for (const f of typeof c.failures === 'number' ? [] : c.failures) {
      if (!declared.includes(f.messageId)) {
        throw problem(
          c,
          `messageId "${f.messageId}" is not one of the check's messages (${declared.join(', ')})`,
        );
      }
    }
  }
}

/** `n` expected failures of one message id: `failures: [...times(3, 'unknownIdNot404'), ...]`. */
export function times(
  n: number,
  messageId: string,
  more: Omit<ExpectedFailure, 'messageId'> = {},
): ExpectedFailure[] {
  return Array.from({ length: n }, () => ({ messageId, ...more }));
}
