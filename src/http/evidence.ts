// The redacted record of one exchange that reports show: request, response, body excerpts, notes, the curl line.
import type { Evidence } from '../core/types.js';
import { ownCopy } from '../core/shapes.js';
import { curlLine, type CurlInput, type CurlOptions } from './curl.js';
import type { RawExchange } from './exchange.js';
import { parseJson } from './json.js';
import type { Redactor } from './redact.js';

/** The request behind each evidence record, as sent (secrets in it), for reproduction scripts. */
const SENT = new WeakMap<Evidence, { input: CurlInput; options: CurlOptions }>();

/**
 * The request an evidence record shows, unredacted, with the connection options of its curl line
 * (undefined for evidence not made by the client). Only curl renderers may use it: they turn
 * secrets back into their variables.
 */
export function sentRequest(evidence: Evidence): { input: CurlInput; options: CurlOptions } | undefined {
  return SENT.get(evidence);
}

/** Bytes of a body kept in evidence. */
const EVIDENCE_BODY_BYTES = 8192;

/**
 * The evidence of an exchange whose response body is `text` (`isJson`: it parsed), redacted, with
 * body excerpts copied so that it keeps no body alive.
 */
export function evidenceOf(
  raw: RawExchange,
  text: string,
  isJson: boolean,
  notes: string[],
  redactor: Redactor,
  connection: CurlOptions = {},
): Evidence {
  const input: CurlInput = {
    method: raw.method,
    url: raw.url,
    headers: raw.requestHeaders,
    body: raw.requestBody,
  };
  const options: CurlOptions = {
    ...(connection.tls ? { tls: connection.tls } : {}),
    ...(raw.error?.code === 'E_TIMEOUT' && raw.timeoutMs !== undefined ? { maxTimeMs: raw.timeoutMs } : {}),
  };
  const requestText = raw.requestBody === undefined ? undefined : raw.requestBody.toString();
  const evidence: Evidence = {
    request: {
      method: raw.method,
      url: redactor.text(raw.url),
      headers: redactor.headers(raw.requestHeaders),
      body: requestText === undefined ? null : bodyForEvidence(requestText, tryJson(requestText), redactor),
    },
    response:
      raw.status === undefined
        ? null
        : {
            status: raw.status,
            headers: redactor.headers(raw.headers),
            body: text === '' ? null : bodyForEvidence(text, isJson, redactor),
            durationMs: raw.durationMs,
            ...(raw.truncated ? { truncated: true } : {}),
          },
    curl: curlLine(input, redactor, options),
  };
  if (raw.error) evidence.error = redactor.text(raw.error.message);
  if (notes.length > 0) evidence.notes = notes.map((n) => redactor.text(n));
  const out = detached(evidence);
  SENT.set(out, { input, options });
  return out;
}

/**
 * The evidence with its body excerpts copied: a slice of a long string keeps the whole string
 * alive, and evidence outlives the exchange (observers and results keep it to the end of the run).
 */
function detached(evidence: Evidence): Evidence {
  const own = (body: unknown): unknown => (typeof body === 'string' ? ownCopy(body) : body);
  evidence.request.body = own(evidence.request.body);
  if (evidence.response) evidence.response.body = own(evidence.response.body);
  return evidence;
}

function tryJson(text: string): boolean {
  return parseJson(text).ok;
}

/** Parsed JSON when small enough to show whole, else the text cut at the evidence limit; redacted. */
function bodyForEvidence(text: string, isJson: boolean, redactor: Redactor): unknown {
  if (text.length > EVIDENCE_BODY_BYTES) {
    // Only the part shown is searched (a body may be megabytes); see Redactor.excerpt.
    return `${redactor.excerpt(text, EVIDENCE_BODY_BYTES)}… [${text.length - EVIDENCE_BODY_BYTES} more characters not shown]`;
  }
  if (isJson) {
    try {
      const redacted = redactor.body(text, true);
      // Without a backslash the parsed values are exactly what was searched. With escapes, they
      // are searched again as parsed: an escaped backslash hides a second level ("\\u0041"),
      // and a short secret is matched only as it is.
      return redacted.includes('\\') ? redactor.json(JSON.parse(redacted)) : JSON.parse(redacted);
    } catch {
      return redactor.body(text, false);
    }
  }
  return redactor.body(text, false);
}
