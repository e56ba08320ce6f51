// One exchange as checks see it: the body as text and value, its evidence made on demand (evidence.ts).
import type { Exchange } from '../core/check.js';
import type { Evidence } from '../core/types.js';
import { ownCopy } from '../core/shapes.js';
import type { TransportError } from '../core/transport-errors.js';
import type { Coding } from './decode.js';
import type { CurlOptions } from './curl.js';
import { evidenceOf } from './evidence.js';
import type { BodyValue } from './json.js';
import type { Redactor } from './redact.js';

/** A complete body over this many characters keeps only an excerpt as text (see `toExchange`). */
const LARGE_TEXT = 1024 * 1024;
/** Characters of a large body's text kept (its evidence is made from the whole). */
const KEPT_TEXT = 16 * 1024;

const NO_BODY: BodyValue = {
  text: '',
  json: undefined,
  isJson: false,
  validUtf8: true,
  cost: 0,
  jsonCost: 0,
};

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
  error?: TransportError;
  /** The status line and headers arrived but the body failed: the exchange has no (complete) status. */
  incomplete?: boolean;
  /** The request's deadline (ms): a timed-out exchange's curl line gets `--max-time`. */
  timeoutMs?: number;
  /** When the request got its turn to go (on the client's clock; see pacing.ts). */
  sentAt?: number;
  /** Sent by the circuit breaker to check on the service: not itself counted. */
  probe?: boolean;
  /** The body's content coding: a note for evidence, and what made it unusable, if anything. */
  coding?: Coding;
  /** About the memory the exchange's body takes (set by toExchange; the budget counts it). */
  cost?: number;
  /** The JSON value was admitted to the budget on its own (BodyLimits.admit): `cost` leaves it out. */
  valueHeld?: boolean;
}

/** One request as it goes out: URL resolved, headers complete, body serialised. */
export interface Outgoing {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
}

/** An exchange for a request that was never sent (interrupted, service down, another origin). */
export function notSent(
  out: Outgoing,
  error: TransportError,
  resource: string | undefined,
  redactor: Redactor,
  connection: CurlOptions = {},
): Exchange {
  const raw: RawExchange = { ...blankRaw(out), error };
  return toExchange(raw, [], resource, redactor, connection);
}

/** An exchange record before anything was received. */
export function blankRaw(out: Outgoing): RawExchange {
  return {
    method: out.method,
    url: out.url,
    requestHeaders: { ...out.headers },
    requestBody: out.body,
    headers: {},
    truncated: false,
    durationMs: 0,
  };
}

/** How to make each exchange's evidence later (see `evidenceLater`), by exchange. */
const LATER = new WeakMap<Exchange, () => Evidence>();

/**
 * A function that answers the exchange's evidence (made on the first call, as `x.evidence` is),
 * holding what the evidence is made from but not the exchange itself: its parsed body and fields.
 * For what keeps evidence for the whole run, e.g. each created item's create (see creations.ts).
 */
export function evidenceLater(x: Exchange): () => Evidence {
  return LATER.get(x) ?? (() => x.evidence);
}

/** The exchange checks see; what it holds of the body is in `raw.cost` afterwards. */
export function toExchange(
  raw: RawExchange,
  notes: string[],
  resource: string | undefined,
  redactor: Redactor,
  connection: CurlOptions = {},
): Exchange {
  if (raw.coding) notes.push(raw.coding.note);
  const body = raw.value ?? NO_BODY;
  raw.value = undefined;
  let text = body.text;
  const { json, isJson, problem: jsonProblem } = body;
  if (!body.validUtf8) notes.push('the response body is not valid UTF-8');
  const mediaType = (raw.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  let evidence: Evidence | undefined;
  const later = (): Evidence => (evidence ??= evidenceOf(raw, text, isJson, notes, redactor, connection));
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
      return later();
    },
  };
  LATER.set(exchange, later);
  if (text.length > LARGE_TEXT && !raw.truncated) {
    // A large body keeps its evidence (made now, from the whole) and an excerpt as text; its JSON
    // value stays whole. Checks judge the value; a text of megabytes held by every exchange a check
    // keeps (an auth matrix keeps seventy) is what took memory past a gigabyte.
    void exchange.evidence;
    exchange.text = ownCopy(text.slice(0, KEPT_TEXT));
    text = '';
  }
  raw.cost = exchange.text.length + (raw.valueHeld ? 0 : body.jsonCost);
  return exchange;
}
