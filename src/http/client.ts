// The one HTTP client: what checks call. It builds requests, refuses what must not go, retries 429s, follows redirects.
import type { Dispatcher } from 'undici';
import type { AuthChoice, CredentialKind, Exchange, SendOptions } from '../core/check.js';
import { SAFE_METHODS } from '../core/methods.js';
import type { TransportError } from '../core/transport-errors.js';
import type { HungKind, Secret } from '../core/types.js';
import { BodyLimits, dropped } from './body.js';
import { Breaker, type Outcome } from './breaker.js';
import { proxyFor, proxySettings, type NetworkOptions } from './dispatchers.js';
import { HangClasses, bodyKind } from './hang-classes.js';
import { blankRaw, notSent, toExchange, type Outgoing, type RawExchange } from './exchange.js';
import { Pacer, realClock, type Clock, type TurnMode } from './pacing.js';
import { Redactor } from './redact.js';
import { redirectStep } from './redirects.js';
import { retryWait } from './retry.js';
import { Transport } from './transport.js';
import { RequestDecorator, type RequestProfile } from './decorate.js';
import type { CurlInput, CurlOptions } from './curl.js';

export type { Clock } from './pacing.js';

export interface HttpClientOptions {
  baseUrl: string;
  tokens: { full?: string; limited?: string };
  /** Configured headers, query parameters, media type and where the credential goes. */
  requests?: RequestProfile;
  secrets?: Secret[];
  /** Deadline of one request, headers and body included (ms). */
  timeoutMs?: number;
  /** Bytes of a response body read before the client stops reading. */
  maxBodyBytes?: number;
  /** Bytes of response bodies held in memory at once, across all concurrent responses. */
  maxBufferedBytes?: number;
  /**
   * Requests in a row that get no complete answer before the client checks (one probe) whether the
   * service stopped answering; if it did, every later request fails fast with E_SERVICE_DOWN.
   */
  breakerThreshold?: number;
  /** Clock for waits; default the real one. */
  clock?: Clock;
  /**
   * The URL shape of the resource a URL names (`/v1/widgets/{id}`), for hang classes: requests of
   * one method, URL shape and kind of body that time out twice in a row are not sent again.
   */
  urlShape?: (url: string) => string | undefined;
  /** Longest single wait on a 429 before giving up (ms). */
  maxRetryWaitMs?: number;
  /** How many times one request is retried after 429s. */
  max429Retries?: number;
  /** Wait after a 429 that gives no header (ms). */
  defaultRetryWaitMs?: number;
  /** Source of the back-off jitter, in [0, 1) (default Math.random); tests inject a fixed one. */
  random?: () => number;
  maxRedirects?: number;
  /** Cap on the audit's own request rate (requests per second). */
  maxRps?: number;
  connections?: number;
  userAgent?: string;
  /** Aborted when the run is interrupted. */
  signal?: AbortSignal;
  /** TLS settings (config `tls`, `--insecure`) and where the proxy variables are read (default process.env). */
  network?: NetworkOptions;
  /** Called with every completed exchange (evidence, HAR, observers). */
  onExchange?: (exchange: Exchange) => void;
  /** Called as each request leaves (retries and redirect hops included); what it returns, once its answer is in. */
  onRequest?: () => () => void;
  /** Called once with each warning about the secrets (e.g. a token too short to find its echoes). */
  onNote?: (note: string) => void;
}

type Settings = Required<
  Omit<
    HttpClientOptions,
    | 'maxRps'
    | 'signal'
    | 'onExchange'
    | 'onNote'
    | 'secrets'
    | 'clock'
    | 'requests'
    | 'network'
    | 'random'
    | 'urlShape'
    | 'onRequest'
  >
> &
  Pick<HttpClientOptions, 'maxRps' | 'signal' | 'onExchange' | 'onRequest'>;

const DEFAULTS = {
  timeoutMs: 10_000,
  maxBodyBytes: 10 * 1024 * 1024,
  maxBufferedBytes: 16 * 1024 * 1024,
  breakerThreshold: 3,
  maxRetryWaitMs: 30_000,
  max429Retries: 5,
  defaultRetryWaitMs: 1000,
  maxRedirects: 5,
  connections: 32,
  userAgent: 'conformance',
};

/** A request the run's interruption stopped before it left. */
const INTERRUPTED: TransportError = {
  code: 'E_INTERRUPTED',
  message: 'not sent: the audit was interrupted',
  notSent: true,
};

/**
 * The audit's one HTTP client. `send` never throws for a transport problem: the exchange carries
 * it as `error` (a code of the TransportErrorCode union). Layers: transport.ts sends one request
 * and reads its body, pacing.ts decides when it may go, retry.ts and redirects.ts what follows an
 * answer, exchange.ts and evidence.ts what checks and reports see, redact.ts what they never see.
 */
export class HttpClient {
  readonly baseUrl: string;
  readonly origin: string;
  readonly redactor: Redactor;
  private readonly opts: Settings;
  private readonly bodies: BodyLimits;
  private readonly breaker: Breaker;
  private readonly pacer: Pacer;
  private readonly random: () => number;
  private readonly hangs: HangClasses;
  private readonly transport: Transport;
  /** Headers, query, media type and credential of every request: the one place they are added. */
  readonly decorator: RequestDecorator;
  /** Set by beginCleanup(): an interruption no longer stops requests (cleanup must run). */
  private cleaningUp = false;
  /** The last GET that got no complete answer: the breaker's probe repeats it. */
  private lastFailedGet: { url: string; headers: Record<string, string> } | undefined;
  private answers = 0;
  /** The proxy requests to the base URL go through (from the environment), or undefined: direct. */
  readonly route: { proxy: string; variable: string } | undefined;
  /** How curl lines connect as the audit does (its TLS settings). */
  readonly connection: CurlOptions;

  constructor(options: HttpClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.origin = new URL(this.baseUrl).origin;
    // Every spelling of a secret (escaped, encoded, other case...) is the redactor's business.
    this.redactor = new Redactor(options.secrets ?? [], { onNote: options.onNote });
    for (const value of [options.tokens.full, options.tokens.limited])
      if (value) this.redactor.add({ value });
    this.opts = {
      ...DEFAULTS,
      // An option passed as undefined (runAudit forwards unset flags) keeps its default.
      ...(Object.fromEntries(
        Object.entries(options).filter(([, value]) => value !== undefined),
      ) as HttpClientOptions),
    };
    this.bodies = new BodyLimits(this.opts.maxBodyBytes, this.opts.maxBufferedBytes);
    this.transport = new Transport({
      timeoutMs: this.opts.timeoutMs,
      connections: this.opts.connections,
      bodies: this.bodies,
      signal: options.signal,
      network: options.network,
    });
    this.route = proxyFor(this.baseUrl, proxySettings(options.network?.env));
    this.connection = options.network?.tls ? { tls: options.network.tls } : {};
    this.pacer = new Pacer(options.clock ?? realClock, this.opts.maxRps);
    this.random = options.random ?? Math.random;
    this.hangs = new HangClasses(options.urlShape);
    this.breaker = new Breaker(this.opts.breakerThreshold, () => this.probe());
    this.decorator = new RequestDecorator(options.requests ?? {}, () => this.opts.tokens, this.baseUrl);
  }

  /**
   * Sets the tokens (a login obtains them after the client exists); each is registered as a
   * secret, with the shell expression that rebuilds it in curl lines when given.
   */
  setTokens(tokens: { full?: Secret; limited?: Secret }): void {
    this.opts.tokens = {
      full: tokens.full?.value ?? this.opts.tokens.full,
      limited: tokens.limited?.value ?? this.opts.tokens.limited,
    };
    for (const secret of [tokens.full, tokens.limited]) if (secret) this.redactor.add(secret);
  }

  /** Requests sent so far (each retry and redirect hop counts). */
  get requestCount(): number {
    return this.transport.requestCount;
  }

  /** The service has answered an ordinary request 429: the pacer now follows the rate it allows. */
  get metRateLimit(): boolean {
    return this.pacer.adaptiveRps !== undefined;
  }

  /** Exchanges that got a complete, valid HTTP answer (whatever its status). */
  get answerCount(): number {
    return this.answers;
  }

  /** True once a connection to the service was established (so a failure is not "unreachable"). */
  get everConnected(): boolean {
    return this.transport.everConnected;
  }

  /** Why requests are no longer sent, once the service stopped answering (see `breakerThreshold`). */
  get stoppedAnswering(): string | undefined {
    return this.breaker.stopped;
  }

  /** Kinds of request that hung and had requests not sent (see hang-classes.ts), for ERR-SERVER. */
  get hungKinds(): HungKind[] {
    return this.hangs.hung;
  }

  /**
   * Enters cleanup: requests are sent even after an interruption, and (when there is something to
   * delete) a service that had stopped answering gets one more probe, so what the audit created is
   * deleted whenever possible.
   */
  async beginCleanup(somethingToDelete = true): Promise<void> {
    this.cleaningUp = true;
    if (somethingToDelete) await this.breaker.recheck();
  }

  /** Absolute URL of a path relative to the base URL (absolute URLs pass through). */
  resolve(path: string): string {
    if (/^https?:\/\//i.test(path)) return path;
    return this.baseUrl + (path.startsWith('/') ? path : `/${path}`);
  }

  /** The credential a choice sends, as placed (an Authorization value, or the key, query or cookie value). */
  authorization(auth: AuthChoice | undefined): string | undefined {
    if (typeof auth === 'object' && 'authorization' in auth) return auth.authorization;
    return this.decorator.credential(auth);
  }

  /** Sends a request; never throws for transport problems (they are in `exchange.error`). */
  async send(options: SendOptions, resource?: string, via?: Dispatcher): Promise<Exchange> {
    const out = this.outgoing(options, resource);
    // What ERR-SERVER names about a request that got no answer: its kind of body and credential.
    const sent = {
      bodyKind: bodyKind(out, serialisedKind(options)),
      credential: this.credentialKind(options.auth),
      ...(options.burst !== undefined ? { burst: options.burst } : {}),
    };
    const refused = await this.refusal(out.url);
    if (refused) return Object.assign(notSent(out, refused, resource, this.redactor, this.connection), sent);
    const admitted = await this.hangs.admit(out, resource, sent);
    if ('code' in admitted)
      return Object.assign(notSent(out, admitted, resource, this.redactor, this.connection), sent);
    const exchange = await this.exchange(out, options, resource, via, sent);
    admitted.done(exchange);
    return exchange;
  }

  /** Which credential a choice sends: a check's own value is an invalid one (AUTH-INVALID's probes). */
  private credentialKind(auth: AuthChoice | undefined): CredentialKind {
    if (typeof auth === 'object') return 'invalid';
    if (auth === 'none' || this.decorator.credential(auth) === undefined) return 'none';
    return auth ?? 'full';
  }

  /** The request, its 429 retries and redirects, up to the exchange checks see. */
  private async exchange(
    out: Outgoing,
    options: SendOptions,
    resource: string | undefined,
    via: Dispatcher | undefined,
    sent: Sent,
  ): Promise<Exchange> {
    const notes: string[] = [];
    let retries = 0;
    let hops = 0;
    let waited: number | undefined;
    // Requests that look for a 429 on purpose (the rate-limit burst) keep out of the adaptive pacing.
    const mode = options.retryOn429 === false ? 'burst' : 'paced';
    for (;;) {
      const raw = await this.once(out, options, via, mode);
      if (mode === 'paced' && raw.sentAt !== undefined) {
        if (raw.status === 429) this.pacer.limited(raw.sentAt);
        else if (raw.status !== undefined) this.pacer.answered(raw.headers);
      }
      const retry =
        raw.status === 429 && mode === 'paced'
          ? retryWait(raw.headers, retries, this.opts, waited, this.random)
          : undefined;
      if (retry) {
        notes.push(retry.note);
        this.pacer.pause(retry.ms);
        waited = retry.ms;
        retries++;
        try {
          await this.pacer.unpaused(this.stopSignal);
        } catch {
          notes.push('the wait was cut short: the audit was interrupted');
          raw.error = { code: 'E_INTERRUPTED', message: 'not retried: the audit was interrupted' };
          return this.finish(raw, notes, resource, sent);
        }
        continue;
      }
      const step = redirectStep(
        { status: raw.status, location: raw.headers.location },
        out,
        this.origin,
        hops,
        this.opts.maxRedirects,
      );
      if (step.kind === 'follow') {
        hops++;
        notes.push(step.note);
        // Only reads get here, and they keep their method (a 303 included): the request sent is
        // the request the evidence shows.
        out.url = step.url;
        continue;
      }
      if (step.kind === 'stop') notes.push(step.note);
      if (step.kind === 'limit') raw.error = step.error;
      return this.finish(raw, notes, resource, sent);
    }
  }

  /**
   * A connection of its own (undici Client, pipelining 1): every request sent through it travels
   * over one keep-alive socket, one at a time, so a check can see whether the server remembers a
   * connection. `connectionsOpened` tells whether the server closed the socket in between.
   */
  pin(): PinnedClient {
    const pinned = this.transport.pin();
    return {
      send: (options, resource) => this.send(options, resource, pinned.dispatcher),
      get connectionsOpened() {
        return pinned.connectionsOpened;
      },
      close: () => pinned.close(),
    };
  }

  /** Closes every pooled and pinned connection. */
  async close(): Promise<void> {
    await this.transport.close();
  }

  /** The run's signal, except during cleanup, which an interruption must not stop. */
  private get stopSignal(): AbortSignal | undefined {
    return this.cleaningUp ? undefined : this.opts.signal;
  }

  /**
   * The request as it goes out: URL resolved, body serialised, then decorated (decorate.ts: the
   * configured headers and query, the credential, the check's own headers over them).
   */
  private outgoing(options: SendOptions, resource: string | undefined): Outgoing {
    const body: string | Buffer | undefined =
      options.body ?? (options.json !== undefined ? JSON.stringify(options.json) : undefined);
    const { url, headers } = this.decorator.decorate(
      options,
      this.resolve(options.path),
      this.ownHeaders(),
      body !== undefined,
      resource,
    );
    return { method: options.method.toUpperCase(), url, headers, body };
  }

  /** The request `send` would send, not sent (reproduction scripts: a create, a cleanup DELETE). */
  request(options: SendOptions, resource?: string): CurlInput {
    return this.outgoing(options, resource);
  }

  /** The client's own headers, under everything a request is decorated with. */
  private ownHeaders(): Record<string, string> {
    return { 'user-agent': this.opts.userAgent, accept: 'application/json' };
  }

  /** Why a request is not sent at all: interrupted, the service stopped answering, another origin. */
  private async refusal(url: string): Promise<TransportError | undefined> {
    if (this.stopSignal?.aborted) return { ...INTERRUPTED };
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      origin = '';
    }
    if (origin !== this.origin) {
      return {
        code: 'E_OTHER_ORIGIN',
        message: `not sent: ${url} is not on ${this.origin}, and the audit sends nothing (no credentials) to another origin`,
        notSent: true,
      };
    }
    await this.breaker.ready();
    const stopped = this.breaker.stopped;
    if (stopped === undefined) return undefined;
    return { code: 'E_SERVICE_DOWN', message: `not sent: ${stopped}`, reason: stopped, notSent: true };
  }

  /** The breaker's probe: the last GET that got no answer again, or a GET of the base URL. */
  private async probe(): Promise<{ outcome: Outcome; what: string }> {
    const last = this.lastFailedGet;
    const url = last?.url ?? this.baseUrl;
    const headers = last?.headers ?? this.ownHeaders();
    const raw = await this.once(
      { method: 'GET', url, headers, body: undefined },
      { method: 'GET', path: url },
    );
    raw.probe = true;
    const note = `sent again to check whether the service still answers after ${this.opts.breakerThreshold} requests in a row got no complete answer`;
    const exchange = this.finish(raw, [note], undefined);
    let path = url;
    try {
      path = new URL(url).pathname;
    } catch {
      // keep the URL as it is
    }
    return { outcome: exchange, what: `GET ${path}` };
  }

  /** One request when its turn comes (see pacing.ts), with no retry and no redirect followed. */
  private async once(
    out: Outgoing,
    options: SendOptions,
    via?: Dispatcher,
    mode: TurnMode = 'paced',
  ): Promise<RawExchange> {
    let sentAt: number;
    try {
      sentAt = await this.pacer.turn(this.stopSignal, mode);
    } catch {
      const raw = blankRaw(out);
      raw.error = { ...INTERRUPTED };
      return raw;
    }
    const timeoutMs = options.timeoutMs ?? this.opts.timeoutMs;
    const answered = this.opts.onRequest?.();
    const raw = await this.transport.send(out, {
      timeoutMs,
      via,
      fresh: options.connection === 'fresh',
      // An interruption cuts reads short, but lets a write finish: what it created is then seen and
      // deleted by cleanup, instead of being left behind unknown.
      interruptible: SAFE_METHODS.has(out.method) && this.stopSignal !== undefined,
    });
    answered?.();
    raw.sentAt = sentAt;
    raw.timeoutMs = timeoutMs;
    return raw;
  }

  private finish(raw: RawExchange, notes: string[], resource: string | undefined, sent?: Sent): Exchange {
    const size = raw.value?.text.length ?? 0;
    // Assigned, not spread: a spread would read the lazy `evidence` getter now, building evidence
    // (and redacting it) before the run has learnt every secret, e.g. a session cookie set here.
    const exchange: Exchange = Object.assign(
      toExchange(raw, notes, resource, this.redactor, this.connection),
      sent,
    );
    // What the exchange holds of the body counts against the memory budget while it lives; what
    // it does not hold of a large body goes now.
    this.bodies.hold(exchange, raw.cost ?? 0);
    if (exchange.text.length < size) dropped(size);
    if (exchange.status !== undefined) this.answers++;
    if (!raw.probe) {
      if (exchange.status === undefined && raw.method === 'GET')
        this.lastFailedGet = { url: raw.url, headers: raw.requestHeaders };
      this.breaker.record(exchange);
    }
    this.opts.onExchange?.(exchange);
    return exchange;
  }
}

/**
 * 'object' or 'array' when the body is the client's own JSON of a plain object or an array (its
 * kind is then known without parsing it back); undefined for anything else.
 */
function serialisedKind(options: SendOptions): 'object' | 'array' | undefined {
  const json: unknown = options.json;
  if (options.body !== undefined || json === null || typeof json !== 'object') return undefined;
  if (typeof (json as { toJSON?: unknown }).toJSON === 'function') return undefined;
  if (Array.isArray(json)) return 'array';
  const proto: unknown = Object.getPrototypeOf(json);
  return proto === Object.prototype || proto === null ? 'object' : undefined;
}

/** What the client tells observers about a request beyond its record: its kind of body and credential. */
type Sent = Pick<Exchange, 'bodyKind' | 'credential' | 'burst'>;

/** A sender bound to one connection (see HttpClient.pin). */
export interface PinnedClient {
  send(options: SendOptions, resource?: string): Promise<Exchange>;
  /** Sockets opened so far: 1 means every request went over the same connection. */
  readonly connectionsOpened: number;
  close(): Promise<void>;
}
