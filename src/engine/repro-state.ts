// How a reproduction script replays the state a GEN-STATELESS failure relies on: one connection, or a cookie jar.
import type { ReproCheck } from '../core/reproduce.js';
import type { CurlInput } from '../http/curl.js';

/** A `remembered` check (see ReproCheck). */
export type Remembered = Extract<ReproCheck, { kind: 'remembered' }>;

/** How one step of a `remembered` script is sent. */
export interface StateStep {
  /** Added to the step's label: what it carries. */
  label: string;
  /** The request to send (the audit's, without the cookies it sent when the jar stands for them). */
  input: CurlInput;
  /** Sent by the same curl right after the first step, on its connection (`send_primed`). */
  primed: boolean;
  /** Shell words added to its curl line (the cookie jar it writes or sends). */
  after: string;
}

/**
 * Step `i` of a `remembered` script. By connection: step `ok` follows the first step on its
 * connection, the others go on new ones. By cookies: the first step fills a curl cookie jar and
 * step `ok` sends the jar instead of the cookies the audit sent (stale secrets: never replayed;
 * the jar stays in the script's temporary folder, removed at exit).
 */
export function stateStep(check: Remembered, i: number, input: CurlInput): StateStep {
  const plain = { input, primed: false, after: '' };
  if (check.via === 'connection') {
    if (i === check.ok) return { ...plain, label: ' without credentials', primed: true };
    return { ...plain, label: i === 0 ? '' : ' without credentials (new connection)' };
  }
  if (i === 0) return { ...plain, label: ' (cookie jar kept)', after: ' -c "$tmp/jar"' };
  if (i !== check.ok) return { ...plain, label: ' (no cookies)' };
  const headers = Object.fromEntries(
    Object.entries(input.headers).filter(([k]) => k.toLowerCase() !== 'cookie'),
  );
  return {
    label: ' (cookies from the jar)',
    input: { ...input, headers },
    primed: false,
    after: ' -b "$tmp/jar"',
  };
}
