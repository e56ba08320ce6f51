// Hang classes: after two time-outs in a row for one kind of request (method, URL shape, kind of body), the rest of that kind are not sent.
import { credentialWords, type CredentialKind, type Exchange } from '../core/check.js';
import { requestLine } from '../core/verdicts.js';
import type { HungKind } from '../core/types.js';
import type { TransportError } from '../core/transport-errors.js';
import type { Outgoing } from './exchange.js';

/** Time-outs in a row after which a kind of request is no longer sent. */
export const HANG_LIMIT = 2;
/** Kinds tracked at most (past it, new kinds are sent as usual, untracked). */
const MAX_KINDS = 1000;
/** Requests named in a finding (the rest are counted). */
const MAX_NAMED = 20;
/** Bodies parsed to tell their kind at most this long (longer ones are "a body of N bytes"). */
const MAX_PARSED = 256 * 1024;

interface Entry {
  kind: string;
  resource?: string;
  /** Time-outs since the last answer to a request of this kind. */
  streak: number;
  /** Some request of this kind got an answer (or failed in another way than a time-out). */
  proven: boolean;
  /** The request of this kind in flight while it is unproven or suspect: the next waits for it. */
  busy?: Promise<void>;
  hung?: HungKind;
  first?: Exchange['evidence'];
  /** The credentials of the time-outs in the streak, in words. */
  credentials: string[];
  deadlineMs?: number;
}

/** A request let through: `done` must be called with its exchange once it has one. */
export interface Admission {
  done(exchange: Exchange): void;
}

/**
 * Tracks kinds of requests that hang. A kind not yet answered, or whose last request timed out,
 * sends one request at a time (so a hanging kind costs exactly two time-outs, whatever the
 * concurrency); once `HANG_LIMIT` requests of a kind in a row got no answer within the deadline,
 * every later request of that kind is refused (`E_HANGS`) and named in `hung`, for ERR-SERVER's
 * one finding. An answer to a request of the kind ends its streak: a service that answers some
 * bodies of a kind and stalls on others is judged request by request.
 */
export class HangClasses {
  private readonly entries = new Map<string, Entry>();

  constructor(
    /** The resource's URL shape of a URL (`/v1/widgets/{id}`), undefined when it names no resource. */
    private readonly shapeOf: (url: string) => string | undefined = () => undefined,
  ) {}

  /** "POST /v1/widgets/{id} with unparseable JSON": the kind a request belongs to (`body`: its `bodyKind`, if known). */
  kindOf(out: Outgoing, body: string = bodyKind(out)): string {
    let shape = this.shapeOf(out.url);
    if (shape === undefined) {
      try {
        shape = new URL(out.url).pathname;
      } catch {
        shape = out.url;
      }
    }
    return `${out.method} ${shape} with ${body}`;
  }

  /**
   * Lets a request go (after the one of its kind in flight, while the kind is unproven or suspect),
   * or refuses it when its kind hangs. `sent`: what the client already knows of the request (its
   * `bodyKind`, so a large body is not parsed a second time, and its credential).
   */
  async admit(
    out: Outgoing,
    resource: string | undefined,
    sent: { bodyKind?: string; credential?: CredentialKind } = {},
  ): Promise<Admission | TransportError> {
    const { credential } = sent;
    const kind = this.kindOf(out, sent.bodyKind);
    let entry = this.entries.get(kind);
    if (!entry) {
      if (this.entries.size >= MAX_KINDS) return { done: () => undefined };
      entry = { kind, resource, streak: 0, proven: false, credentials: [] };
      this.entries.set(kind, entry);
    }
    while (entry.busy && !entry.hung) await entry.busy;
    if (entry.hung) return this.refuse(entry, out, credential);
    if (entry.proven && entry.streak === 0) return { done: (x) => this.record(entry, x) };
    let release = (): void => undefined;
    entry.busy = new Promise<void>((resolve) => (release = resolve));
    return {
      done: (x) => {
        this.record(entry, x);
        entry.busy = undefined;
        release();
      },
    };
  }

  /** Every kind that hangs and had requests refused, with the evidence of its first time-out. */
  get hung(): HungKind[] {
    return [...this.entries.values()].flatMap((e) => (e.hung && e.hung.notSentCount > 0 ? [e.hung] : []));
  }

  private record(entry: Entry, x: Exchange): void {
    if (x.error?.code === 'E_TIMEOUT' && x.status === undefined) {
      entry.streak++;
      if (entry.streak === 1) {
        entry.first = x.evidence;
        entry.deadlineMs = x.durationMs;
        entry.credentials = [];
      }
      const credential = x.credential !== undefined ? credentialWords(x.credential) : undefined;
      if (credential !== undefined && !entry.credentials.includes(credential))
        entry.credentials.push(credential);
      if (entry.streak >= HANG_LIMIT && !entry.hung) {
        entry.hung = {
          kind: entry.kind,
          ...(entry.resource !== undefined ? { resource: entry.resource } : {}),
          timeouts: entry.streak,
          evidence: entry.first ?? x.evidence,
          credentials: [...entry.credentials],
          notSent: [],
          notSentCount: 0,
        };
      }
      return;
    }
    // Only the service's own answers (or failures other than a time-out) prove the kind is answered;
    // the audit's own stops (an interruption, a cap) say nothing.
    if (x.status !== undefined || (x.error && x.error.code !== 'E_INTERRUPTED')) {
      entry.proven = true;
      entry.streak = 0;
    }
  }

  private refuse(entry: Entry, out: Outgoing, credential: CredentialKind | undefined): TransportError {
    const hung = entry.hung!;
    hung.notSentCount++;
    const line = requestLine(out) + (credential !== undefined ? ` with ${credentialWords(credential)}` : '');
    if (hung.notSent.length < MAX_NAMED) hung.notSent.push(line);
    const reason =
      `${hung.timeouts} requests of its kind (${entry.kind}) got no answer within the deadline` +
      (entry.deadlineMs !== undefined ? ` (${(entry.deadlineMs / 1000).toFixed(1)} s)` : '') +
      ', so the rest of that kind are not sent (see ERR-SERVER)';
    return { code: 'E_HANGS', message: `not sent: ${reason}`, reason, notSent: true };
  }
}

/**
 * "unparseable JSON", "a JSON object", "no body", "an empty body sent as text/plain"…
 * `serialised`: the body is known to be the JSON of an object or an array (the client serialised
 * it), so it is not parsed again.
 */
export function bodyKind(out: Pick<Outgoing, 'body' | 'headers'>, serialised?: 'object' | 'array'): string {
  const body = out.body;
  if (body === undefined) return 'no body';
  const type = (out.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const json = type === 'application/json' || type.endsWith('+json');
  const as = type === '' ? ' sent without Content-Type' : json ? '' : ` sent as ${type}`;
  if (body.length > MAX_PARSED) return `a body of over ${MAX_PARSED / 1024} KB${as}`;
  if (serialised !== undefined) return `a JSON ${serialised}${as}`;
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (text.trim() === '') return `an empty body${as}`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `unparseable JSON${as}`;
  }
  const what = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return `a JSON ${what}${as}`;
}
