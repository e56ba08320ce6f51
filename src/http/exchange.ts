// One exchange as checks and reports see it: the body as text and value, evidence made on demand, redacted.
import type { Exchange } from '../core/check.js';
import type { Evidence } from '../core/types.js';
import { ownCopy } from '../core/shapes.js';
import { curlLine } from './curl.js';
import type { Coding } from './decode.js';
import { KEPT_TEXT, LARGE_TEXT, parseJson, type BodyValue } from './json.js';
import type { Redactor } from './redact.js';

/** Bytes of a body kept in evidence. */
const EVIDENCE_BODY_BYTES = 8192;

const NO_BODY: BodyValue = { text: '', json: undefined, isJson: false, validUtf8: true, cost: 0 };

/** An exchange as the client records it, before checks see it. */
export interface RawExchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: string | Buffer | undefined;
  status?: number;
  headers: Record<string, string>;
  /** The body as text and JSON value (absent: no body was read). */
  value?: BodyValue;
  truncated: boolean;
  durationMs: number;
  error?: { code: string; message: string };
  /** The status line and headers arrived but the body failed: the exchange has no (complete) status. */
  incomplete?: boolean;
  /** Sent by the circuit breaker to check on the service: not itself counted. */
  probe?: boolean;
  /** The body's content coding: a note for evidence, and what made it unusable, if anything. */
  coding?: Coding;
  /** About the memory the exchange's body takes (set by toExchange; the budget counts it). */
  cost?: number;
}

/** An exchange for a request that was never sent (interrupted, service down, another origin). */
export function notSent(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
  error: { code: string; message: string },
  resource: string | undefined,
  redactor: Redactor,
): Exchange {
  const raw: RawExchange = { ...blankRaw(method, url, headers, body), error };
  return toExchange(raw, [], resource, redactor);
}

/** An exchange record before anything was received. */
export function blankRaw(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
): RawExchange {
  return {
    method,
    url,
    requestHeaders: { ...headers },
    requestBody: body,
    headers: {},
    truncated: false,
    durationMs: 0,
  };
}

/** The exchange checks see; what it holds of the body is in `raw.cost` afterwards. */
export function toExchange(
  raw: RawExchange,
  notes: string[],
  resource: string | undefined,
  redactor: Redactor,
): Exchange {
  if (raw.coding) notes.push(raw.coding.note);
  const body = raw.value ?? NO_BODY;
  raw.value = undefined;
  let text = body.text;
  const { json, isJson, problem: jsonProblem } = body;
  if (!body.validUtf8) notes.push('the response body is not valid UTF-8');
  const mediaType = (raw.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  let evidence: Evidence | undefined;
  const exchange: Exchange = {
    method: raw.method,
    url: raw.url,
    status: raw.incomplete ? undefined : raw.status,
    headers: raw.headers,
    text,
    json,
    isJson,
    mediaType,
    truncated: raw.truncated,
    durationMs: raw.durationMs,
    error: raw.error,
    resource,
    ...(jsonProblem !== undefined ? { jsonProblem } : {}),
    ...(raw.coding?.undecoded !== undefined ? { undecoded: raw.coding.undecoded } : {}),
    get evidence(): Evidence {
      evidence ??= detached(buildEvidence(raw, text, isJson, notes, redactor));
      return evidence;
    },
  };
  if (text.length > LARGE_TEXT && !raw.truncated) {
    // A large body keeps its evidence (made now, from the whole) and an excerpt as text; its JSON
    // value stays whole. Checks judge the value; a text of megabytes held by every exchange a check
    // keeps (an auth matrix keeps seventy) is what took memory past a gigabyte.
    void exchange.evidence;
    exchange.text = ownCopy(text.slice(0, KEPT_TEXT));
    text = '';
  }
  raw.cost = exchange.text.length + body.cost - body.text.length;
  return exchange;
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

function buildEvidence(
  raw: RawExchange,
  text: string,
  isJson: boolean,
  notes: string[],
  redactor: Redactor,
): Evidence {
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
    curl: curlLine(
      { method: raw.method, url: raw.url, headers: raw.requestHeaders, body: raw.requestBody },
      redactor,
    ),
  };
  if (raw.error) evidence.error = redactor.text(raw.error.message);
  if (notes.length > 0) evidence.notes = notes.map((n) => redactor.text(n));
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
