// Turns the auth matrix's outcomes into failures: proven actions first, then accepted requests, then wrong refusals.
import type { CheckContext } from '../../../src/core/check.js';
import { isErrorIn2xx } from '../../../src/core/error-body.js';
import { is2xx, requestLine, statusText } from '../../../src/core/verdicts.js';
import type { MatrixResult, Outcome } from './matrix.js';

export interface ReportOptions {
  /** Id field of the resource (a 2xx body with only it and error members is an error object). */
  idField: string;
  /** The status that refuses correctly. */
  expected: number;
  /** Prefix accepted requests with "CRITICAL:" (a request without valid credentials was served). */
  critical: boolean;
  /** Why a wrong refusal is wrong, e.g. " (authentication is judged before existence)". */
  hint(outcome: Outcome): string;
  /** Which requests, for the message about an unexplained change: "without credentials"... */
  subject: string;
}

/** The problems a matrix run reports: the auth checks that use `reportMatrix` declare these messages. */
export const MATRIX_MESSAGES = {
  actedAnyway: 'a request that must be refused changed the state',
  accepted: 'a request that must be refused was accepted (2xx)',
  wrongRefusal: 'a request was refused with another status than the expected one',
  stateChanged: 'the state changed although every request was refused',
};

/** The message ids of `MATRIX_MESSAGES`. */
export type MatrixMessageId = keyof typeof MATRIX_MESSAGES;

/** Requests named in one grouped message before "and N more". */
const LISTED = 4;

/** Records the failures a matrix run shows; returns nothing when every request was refused as expected. */
export function reportMatrix(
  ctx: CheckContext<MatrixMessageId>,
  result: MatrixResult,
  options: ReportOptions,
): void {
  const { expected } = options;
  const prefix = options.critical ? 'CRITICAL: ' : '';
  const wrong = result.outcomes.filter((o) => o.exchange.status !== expected);

  // Proven effects first: they are the worst case, and evidence is capped per result. Taken in
  // turn from each credential, so the first evidence shows every credential that got through.
  for (const o of roundRobin(
    result.outcomes.filter((o) => o.acted),
    (o) => o.credential.phrase,
  )) {
    const x = o.exchange;
    const verdict =
      x.status === expected
        ? `answered ${expected} but still acted`
        : `answered ${statusText(x)}, and it acted`;
    ctx.fail({
      messageId: 'actedAnyway',
      message: `${is2xx(x) ? prefix : ''}${label(o)} ${o.credential.phrase} ${verdict}: ${o.acted!.changes.join('; ')}`,
      evidence: [x, ...o.acted!.evidence],
    });
  }

  // A 2xx whose body is an error object served nothing: a wrong refusal (ERR-STATUS's finding
  // too), not critical unless an effect is proven (then it is told above).
  const disguised = (o: Outcome): boolean => isErrorIn2xx(o.exchange, options.idField);
  // Accepted without a visible effect (reads served, writes answered 2xx): one message per credential.
  const accepted = wrong.filter((o) => is2xx(o.exchange) && !o.acted && !disguised(o));
  for (const [phrase, group] of groupBy(accepted, (o) => o.credential.phrase)) {
    ctx.fail({
      messageId: 'accepted',
      message: `${prefix}${count(group.length)} ${phrase} ${group.length === 1 ? 'was' : 'were'} accepted, expected ${expected}: ${list(group, true)}`,
      evidence: group.slice(0, 2).map((o) => o.exchange),
    });
  }

  // Wrong refusals, grouped by credential, status and reason.
  const refusals = wrong.filter((o) => (!is2xx(o.exchange) || disguised(o)) && !o.acted);
  const hint = (o: Outcome): string =>
    disguised(o) ? ' (with an error object in the body: see ERR-STATUS)' : options.hint(o);
  for (const [, group] of groupBy(
    refusals,
    (o) => `${o.credential.phrase}|${statusText(o.exchange)}|${hint(o)}`,
  )) {
    const first = group[0];
    ctx.fail({
      messageId: 'wrongRefusal',
      message: `${count(group.length)} ${first.credential.phrase} answered ${statusText(first.exchange)} instead of ${expected}${hint(first)}: ${list(group, false)}`,
      evidence: group.slice(0, 2).map((o) => o.exchange),
    });
  }

  if (result.unexplained) {
    ctx.fail({
      messageId: 'stateChanged',
      message: `the state changed although every request ${options.subject} was refused with ${expected}: ${result.unexplained.changes.join('; ')}`,
      evidence: result.unexplained.evidence,
    });
  }
  // Whether some write acted is unknown: no pass (failures found above still stand).
  if (result.incomparable)
    ctx.skip(`${result.incomparable}, so whether every write was without effect is unknown`);
}

/** "PUT /v1/widgets/9 [unknown id, malformed JSON]" */
function label(o: Outcome): string {
  const notes = [
    ...(o.probe.target === 'unknown' ? ['unknown id'] : []),
    ...(o.probe.body === 'malformed' ? ['malformed JSON'] : []),
  ];
  return `${requestLine(o.exchange)}${notes.length > 0 ? ` [${notes.join(', ')}]` : ''}`;
}

function list(group: Outcome[], withStatus: boolean): string {
  const shown = group
    .slice(0, LISTED)
    .map((o) => (withStatus ? `${label(o)} → ${statusText(o.exchange)}` : label(o)));
  if (group.length > LISTED) shown.push(`and ${group.length - LISTED} more`);
  return shown.join(', ');
}

function count(n: number): string {
  return n === 1 ? '1 request' : `${n} requests`;
}

/** The items of each group in turn: the first of every group, then the second... */
function roundRobin<T>(items: T[], key: (item: T) => string): T[] {
  const groups = [...groupBy(items, key).values()];
  const out: T[] = [];
  for (let i = 0; out.length < items.length; i++) for (const g of groups) if (i < g.length) out.push(g[i]);
  return out;
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = out.get(k);
    if (group) group.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** Why a wrong answer to a request without valid credentials is wrong (AUTH-MISSING, AUTH-INVALID). */
export function authenticationHint(o: Outcome): string {
  const status = o.exchange.status;
  if (status === 403) return ' (403 says "known, but not allowed"; a missing or invalid credential is 401)';
  if (status === 404 && o.probe.target === 'unknown') return ' (authentication is judged before existence)';
  if ((status === 400 || status === 422) && o.probe.body === 'malformed')
    return ' (authentication is judged before validation)';
  return '';
}
