// Small helpers checks share to phrase what they saw.
import { NOT_JSON, NOT_UTF8, type Exchange } from './check.js';

/** "500", or the transport failure when no answer came. */
export function statusText(x: Pick<Exchange, 'status' | 'error'>): string {
  return x.status !== undefined ? String(x.status) : `nothing (${x.error?.message ?? 'no answer'})`;
}

export function is2xx(x: Pick<Exchange, 'status'>): boolean {
  return x.status !== undefined && x.status >= 200 && x.status < 300;
}

/** "GET /v1/widgets/3" with the path relative to the host, for messages. */
export function requestLine(x: Pick<Exchange, 'method' | 'url'>): string {
  return `${x.method} ${urlPath(x.url)}`;
}

/**
 * A URL as messages spell it: its path and query from the server's root (`/v1/widgets/3?a=1`),
 * the URL itself when it does not parse.
 */
export function urlPath(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

/** "GET /v1/widgets/3 answered 500" */
export function answered(x: Pick<Exchange, 'method' | 'url' | 'status' | 'error'>): string {
  return `${requestLine(x)} answered ${statusText(x)}`;
}

type Read = Pick<Exchange, 'method' | 'url' | 'status' | 'error' | 'truncated' | 'jsonProblem' | 'undecoded'>;

/**
 * Why a read cannot serve in a comparison of state, or undefined when it can: it got no complete
 * answer, its body was cut short (the size cap, the memory budget), or the audit could not read
 * the body it got (nested too deep to parse, compressed in a way that does not decode, a coding
 * the audit does not decode). A body that is complete but simply not JSON stays comparable as
 * text. The one test every check that compares reads makes, so that a read cut short is "could
 * not compare", never an effect (an item "gone" or "changed").
 */
export function incomparable(x: Read | undefined): string | undefined {
  if (x === undefined) return undefined;
  if (x.status === undefined)
    return `${requestLine(x)} got no complete answer (${x.error?.message ?? 'no answer'})`;
  if (x.truncated)
    return `${requestLine(x)} was cut short (${x.error?.message ?? 'the body was not read whole'})`;
  if (x.undecoded)
    return `${requestLine(x)} answered in Content-Encoding ${x.undecoded}, which the audit does not decode`;
  if (x.jsonProblem !== undefined && x.jsonProblem !== NOT_JSON && x.jsonProblem !== NOT_UTF8)
    return `the body of ${requestLine(x)} ${x.jsonProblem}`;
  return undefined;
}

/** "could not compare: …" for the first of the reads that cannot serve in a comparison, if any. */
export function couldNotCompare(...reads: Array<Read | undefined>): string | undefined {
  for (const x of reads) {
    const why = incomparable(x);
    if (why !== undefined) return `could not compare: ${why}`;
  }
  return undefined;
}
