// What a refused request's answer says, quoted in the message: the reason a developer acts on.
import type { Exchange } from '../../src/core/check.js';
import { sameButSlash } from '../../src/core/addressing.js';

/** Characters of a refusal's body a message quotes at most. */
const QUOTED = 160;

/**
 * ` <the body>` of a 4xx or 5xx answer that has one of at most 160 characters (its JSON, else
 * its text), to put after `answered(x)`: "POST /v1/messages answered 400 {"name":"BadRequest",
 * "message":"validation failed"}, expected 201"; NestJS's "Cannot PUT /v1/orders/7" says the
 * method is routed nowhere. For a redirect that only adds or drops a trailing slash, where it
 * points (FastAPI redirects /widgets to /widgets/). Empty for any other answer (a 2xx is judged
 * on its own terms).
 */
export function refusalText(x: Pick<Exchange, 'status' | 'text' | 'json' | 'headers' | 'url'>): string {
  if (x.status === undefined || x.status < 300) return '';
  if (x.status < 400) {
    // A write is never sent again where a redirect points (it could act twice); one that only
    // adds or drops a trailing slash says where the service serves the resource.
    const location = x.headers.location;
    return location !== undefined && slashOnly(x.url, location)
      ? ` to ${location} (a write is not sent again where a redirect points: the service serves this path with${new URL(location, x.url).pathname.endsWith('/') ? '' : 'out'} a trailing slash, so declare it that way in the config)`
      : '';
  }
  // Whole or not at all: a body cut short could end in part of a secret the service echoed,
  // which the report's redaction (of whole secrets) would not find.
  const text = x.json !== undefined ? JSON.stringify(x.json) : x.text.trim();
  return text !== '' && text.length <= QUOTED ? ` ${text}` : '';
}

/** Whether `location` is the URL requested with a trailing slash added or taken away, on the same origin. */
function slashOnly(url: string, location: string): boolean {
  try {
    const from = new URL(url);
    const to = new URL(location, url);
    return (
      to.origin === from.origin && to.pathname !== from.pathname && sameButSlash(to.pathname, from.pathname)
    );
  } catch {
    return false;
  }
}
