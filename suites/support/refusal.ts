// What a refused request's answer says, quoted in the message: the reason a developer acts on.
import type { Exchange } from '../../src/core/check.js';
import { short } from '../../src/core/shapes.js';

/** Characters of a refusal's body a message quotes at most. */
const QUOTED = 160;

/**
 * ` <the body>` of a 4xx or 5xx answer that has one (its JSON, else its text, cut at 160
 * characters), to put after `answered(x)`: "POST /v1/messages answered 400 {"name":"BadRequest",
 * "message":"validation failed",…}, expected 201"; NestJS's "Cannot PUT /v1/orders/7" says the
 * method is routed nowhere. For a redirect, where it points (FastAPI redirects /widgets to
 * /widgets/). Empty for any other answer (a 2xx is judged on its own terms).
 */
export function refusalText(x: Pick<Exchange, 'status' | 'text' | 'json' | 'headers'>): string {
  if (x.status === undefined || x.status < 300) return '';
  if (x.status < 400) {
    // A write is never sent again where a redirect points (it could act twice): name where that is.
    const location = x.headers.location;
    return location
      ? ` to ${location} (a write is not sent again where a redirect points: if the service serves the resource there, declare that path in the config)`
      : '';
  }
  if (x.text.trim() === '') return '';
  return ` ${short(x.json ?? x.text.trim(), QUOTED)}`;
}
