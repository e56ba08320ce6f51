// Which redirects the client follows: reads only, on the configured origin, a bounded number of hops.
import { SAFE_METHODS } from '../core/methods.js';
import type { TransportError } from '../core/transport-errors.js';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** What to do with an answer that may be a redirect. */
export type RedirectStep =
  /** Not a redirect (or one without a Location): the answer is final. */
  | { kind: 'none' }
  /** Send the same request again to `url` (the method is kept, 303 included). */
  | { kind: 'follow'; url: string; note: string }
  /** The 3xx itself is the answer; the note says why it was not followed. */
  | { kind: 'stop'; note: string }
  /** Too many hops: the answer is the last 3xx, with this error. */
  | { kind: 'limit'; error: TransportError };

/**
 * The next step after an answer `status`/`location` to `method url`, `hops` redirects in. A write
 * never follows (a redirect could aim it at an item the audit did not create), and nothing follows
 * to another origin (credentials are never sent there).
 */
export function redirectStep(
  answer: { status?: number; location?: string },
  request: { method: string; url: string },
  origin: string,
  hops: number,
  maxRedirects: number,
): RedirectStep {
  const { status, location } = answer;
  if (status === undefined || !REDIRECTS.has(status) || !location) return { kind: 'none' };
  let target: URL;
  try {
    target = new URL(location, request.url);
  } catch {
    return { kind: 'stop', note: `redirect to an invalid Location ${JSON.stringify(location)} not followed` };
  }
  if (target.origin !== origin) {
    return {
      kind: 'stop',
      note: `redirect (${status}) to ${target.href} not followed: another origin, and credentials are never sent there`,
    };
  }
  if (!SAFE_METHODS.has(request.method)) {
    return {
      kind: 'stop',
      note: `redirect (${status}) to ${target.href} not followed: the audit never follows a redirect for a ${request.method}`,
    };
  }
  if (hops >= maxRedirects) {
    return {
      kind: 'limit',
      error: { code: 'E_REDIRECT_LIMIT', message: `more than ${maxRedirects} redirects (a loop?)` },
    };
  }
  return {
    kind: 'follow',
    url: target.href,
    note: `redirected (${status}) from ${request.url} to ${target.href}`,
  };
}
