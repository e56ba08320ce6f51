// Small helpers checks share to phrase what they saw.
import type { Exchange } from './check.js';

/** "500", or the transport failure when no answer came. */
export function statusText(x: Pick<Exchange, 'status' | 'error'>): string {
  return x.status !== undefined ? String(x.status) : `nothing (${x.error?.message ?? 'no answer'})`;
}

export function is2xx(x: Pick<Exchange, 'status'>): boolean {
  return x.status !== undefined && x.status >= 200 && x.status < 300;
}

/** "GET /v1/widgets/3" with the path relative to the host, for messages. */
export function requestLine(x: Pick<Exchange, 'method' | 'url'>): string {
  try {
    const u = new URL(x.url);
    return `${x.method} ${u.pathname}${u.search}`;
  } catch {
    return `${x.method} ${x.url}`;
  }
}

/** "GET /v1/widgets/3 answered 500" */
export function answered(x: Pick<Exchange, 'method' | 'url' | 'status' | 'error'>): string {
  return `${requestLine(x)} answered ${statusText(x)}`;
}
