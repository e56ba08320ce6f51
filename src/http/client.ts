// The one HTTP client: deadlines, body cap, same-origin redirects of reads, 429 back-off, rate cap, evidence.
import { Agent, Client, request, type Dispatcher } from 'undici';
import type { AuthChoice, Exchange, SendOptions } from '../core/check.js';
import type { Evidence, Secret } from '../core/types.js';
import { curlLine } from './curl.js';
import { Redactor } from './redact.js';
import { advertisedWait, sleep } from './retry.js';
import { describeError } from './errors.js';
import { BodyLimits, readBody } from './body.js';
import { Breaker, type Outcome } from './breaker.js';

/** Time as the client waits it (429 pauses, --max-rps spacing); tests inject a fake one. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or rejects when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const realClock: Clock = { now: () => Date.now(), sleep };

/** Methods whose in-flight requests an interruption may cut: they change nothing on the service. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface HttpClientOptions {
  baseUrl: string;
  tokens: { full?: string; limited?: string };
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
  /** Longest single wait on a 429 before giving up (ms). */
  maxRetryWaitMs?: number;
  /** How many times one request is retried after 429s. */
  max429Retries?: number;
  /** Wait after a 429 that gives no header (ms). */
  defaultRetryWaitMs?: number;
  maxRedirects?: number;
  /** Cap on the audit's own request rate (requests per second). */
  maxRps?: number;
  connections?: number;
  userAgent?: string;
  /** Aborted when the run is interrupted. */
  signal?: AbortSignal;
  /** Called with every completed exchange (evidence, HAR, observers). */
  onExchange?: (exchange: Exchange) => void;
  /** Called once with each warning about the secrets (e.g. a token too short to find its echoes). */
  onNote?: (note: string) => void;
}

/** Bytes of a body kept in evidence. */
const EVIDENCE_BODY_BYTES = 8192;

export class HttpClient {
  readonly baseUrl: string;
  readonly origin: string;
  readonly redactor: Redactor;
  private readonly opts: Required<
    Omit<HttpClientOptions, 'maxRps' | 'signal' | 'onExchange' | 'onNote' | 'secrets' | 'clock'>
  > &
    Pick<HttpClientOptions, 'maxRps' | 'signal' | 'onExchange'>;
  private readonly clock: Clock;
  private readonly bodies: BodyLimits;
  private readonly breaker: Breaker;
  /** Set by beginCleanup(): an interruption no longer stops requests (cleanup must run). */
  private cleaningUp = false;
  private connected = false;
  /** The last GET that got no complete answer: the breaker's probe repeats it. */
  private lastFailedGet: { url: string; headers: Record<string, string> } | undefined;
  private readonly agent: Agent;
  private pausedUntil = 0;
  private nextSlot = 0;
  private count = 0;
  /** Connections opened by pin(), closed with the client. */
  private readonly pins = new Set<Client>();
  /** Requests in flight, aborted together when the run's signal fires (one listener for all). */
  private readonly inFlight = new Set<AbortController>();

  constructor(options: HttpClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.origin = new URL(this.baseUrl).origin;
    // Every spelling of a secret (escaped, encoded, other case...) is the redactor's business.
    this.redactor = new Redactor(options.secrets ?? [], { onNote: options.onNote });
    for (const value of [options.tokens.full, options.tokens.limited])
      if (value) this.redactor.add({ value });
    this.opts = {
      timeoutMs: 10_000,
      maxBodyBytes: 10 * 1024 * 1024,
      maxBufferedBytes: 16 * 1024 * 1024,
      breakerThreshold: 3,
      maxRetryWaitMs: 30_000,
      max429Retries: 3,
      defaultRetryWaitMs: 1000,
      maxRedirects: 5,
      connections: 32,
      userAgent: 'conformance',
      // An option passed as undefined (runAudit forwards unset flags) keeps its default.
      ...(Object.fromEntries(
        Object.entries(options).filter(([, value]) => value !== undefined),
      ) as HttpClientOptions),
    };
    this.agent = new Agent({
      connections: this.opts.connections,
      keepAliveTimeout: 4000,
      headersTimeout: this.opts.timeoutMs,
      bodyTimeout: this.opts.timeoutMs,
      connect: { timeout: this.opts.timeoutMs },
    });
    this.agent.on('connect', () => {
      this.connected = true;
    });
    this.clock = options.clock ?? realClock;
    this.bodies = new BodyLimits(this.opts.maxBodyBytes, this.opts.maxBufferedBytes);
    this.breaker = new Breaker(this.opts.breakerThreshold, () => this.probe());
    options.signal?.addEventListener(
      'abort',
      () => {
        for (const controller of this.inFlight) controller.abort(options.signal?.reason);
      },
      { once: true },
    );
  }

  /** Requests sent so far (each retry and redirect hop counts). */
  get requestCount(): number {
    return this.count;
  }

  /** True once a connection to the service was established (so a failure is not "unreachable"). */
  get everConnected(): boolean {
    return this.connected;
  }

  /** Why requests are no longer sent, once the service stopped answering (see `breakerThreshold`). */
  get stoppedAnswering(): string | undefined {
    return this.breaker.stopped;
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

  /** The Authorization header value for a credential choice, if any. */
  authorization(auth: AuthChoice | undefined): string | undefined {
    const choice = auth ?? 'full';
    if (choice === 'none') return undefined;
    if (typeof choice === 'object') return choice.authorization;
    const token = choice === 'full' ? this.opts.tokens.full : this.opts.tokens.limited;
    return token === undefined ? undefined : `Bearer ${token}`;
  }

  /** Sends a request; never throws for transport problems (they are in `exchange.error`). */
  async send(options: SendOptions, resource?: string, via?: Dispatcher): Promise<Exchange> {
    const notes: string[] = [];
    const method = options.method.toUpperCase();
    let url = this.resolve(options.path);
    const body: string | Buffer | undefined =
      options.body ?? (options.json !== undefined ? JSON.stringify(options.json) : undefined);
    const headers: Record<string, string> = { 'user-agent': this.opts.userAgent, accept: 'application/json' };
    const authorization = this.authorization(options.auth);
    if (authorization !== undefined) headers.authorization = authorization;
    if (body !== undefined) {
      const type = options.contentType === undefined ? 'application/json' : options.contentType;
      if (type !== null) headers['content-type'] = type;
    }
    for (const [k, v] of Object.entries(options.headers ?? {})) headers[k.toLowerCase()] = v;

    const refused = await this.refusal(url);
    if (refused) return notSent(method, url, headers, body, refused, resource, this.redactor);
    let retries = 0;
    let hops = 0;
    for (;;) {
      const raw = await this.once(method, url, headers, body, options, via);
      if (raw.status === 429 && options.retryOn429 !== false && retries < this.opts.max429Retries) {
        // An HTTP date in Retry-After is read against the server's own clock (its Date header),
        // so a server whose clock is off does not make the audit wait too long or not at all.
        const serverNow = raw.headers.date ? Date.parse(raw.headers.date) : NaN;
        const told = advertisedWait(raw.headers, Number.isNaN(serverNow) ? undefined : serverNow);
        const wait = Math.min(
          told?.ms ?? this.opts.defaultRetryWaitMs * 2 ** retries,
          this.opts.maxRetryWaitMs,
        );
        notes.push(
          `answered 429; waited ${(wait / 1000).toFixed(1)} s (${told ? `as ${told.source} said` : 'no wait advertised'}) and retried`,
        );
        this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + wait);
        retries++;
        try {
          await this.waitTurn();
        } catch {
          notes.push('the wait was cut short: the audit was interrupted');
          raw.error = { code: 'E_INTERRUPTED', message: 'not retried: the audit was interrupted' };
          return this.finish(raw, notes, resource);
        }
        continue;
      }
      const location = raw.headers.location;
      if (raw.status !== undefined && [301, 302, 303, 307, 308].includes(raw.status) && location) {
        let target: URL;
        try {
          target = new URL(location, url);
        } catch {
          notes.push(`redirect to an invalid Location ${JSON.stringify(location)} not followed`);
          return this.finish(raw, notes, resource);
        }
        if (target.origin !== this.origin) {
          notes.push(
            `redirect (${raw.status}) to ${target.href} not followed: another origin, and credentials are never sent there`,
          );
          return this.finish(raw, notes, resource);
        }
        if (!SAFE_METHODS.has(method)) {
          // A write goes only where the audit addressed it: a redirect could aim it at an item the
          // audit did not create, so the 3xx itself is the answer.
          notes.push(
            `redirect (${raw.status}) to ${target.href} not followed: the audit never follows a redirect for a ${method}`,
          );
          return this.finish(raw, notes, resource);
        }
        if (hops >= this.opts.maxRedirects) {
          raw.error = {
            code: 'E_REDIRECT_LIMIT',
            message: `more than ${this.opts.maxRedirects} redirects (a loop?)`,
          };
          return this.finish(raw, notes, resource);
        }
        hops++;
        notes.push(`redirected (${raw.status}) from ${url} to ${target.href}`);
        // Only reads get here, and they keep their method (a 303 included): the request sent is
        // the request the evidence shows.
        url = target.href;
        continue;
      }
      return this.finish(raw, notes, resource);
    }
  }

  /**
   * A connection of its own (undici Client, pipelining 1): every request sent through it travels
   * over one keep-alive socket, one at a time, so a check can see whether the server remembers a
   * connection. `connectionsOpened` tells whether the server closed the socket in between.
   */
  pin(): PinnedClient {
    const client = new Client(this.origin, {
      pipelining: 1,
      keepAliveTimeout: 4000,
      headersTimeout: this.opts.timeoutMs,
      bodyTimeout: this.opts.timeoutMs,
      connect: { timeout: this.opts.timeoutMs },
    });
    let opened = 0;
    client.on('connect', () => opened++);
    this.pins.add(client);
    return {
      send: (options, resource) => this.send(options, resource, client),
      get connectionsOpened() {
        return opened;
      },
      close: async () => {
        this.pins.delete(client);
        await client.close().catch(() => undefined);
      },
    };
  }

  /** Closes every pooled and pinned connection. */
  async close(): Promise<void> {
    await Promise.all([...this.pins].map((c) => c.destroy().catch(() => undefined)));
    this.pins.clear();
    await this.agent.close().catch(() => undefined);
  }

  /** The run's signal, except during cleanup, which an interruption must not stop. */
  private get stopSignal(): AbortSignal | undefined {
    return this.cleaningUp ? undefined : this.opts.signal;
  }

  /** Why a request is not sent at all: interrupted, the service stopped answering, another origin. */
  private async refusal(url: string): Promise<{ code: string; message: string } | undefined> {
    if (this.stopSignal?.aborted)
      return { code: 'E_INTERRUPTED', message: 'not sent: the audit was interrupted' };
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
      };
    }
    await this.breaker.ready();
    const stopped = this.breaker.stopped;
    return stopped ? { code: 'E_SERVICE_DOWN', message: `not sent: ${stopped}` } : undefined;
  }

  /** The breaker's probe: the last GET that got no answer again, or a GET of the base URL. */
  private async probe(): Promise<{ outcome: Outcome; what: string }> {
    const last = this.lastFailedGet;
    const url = last?.url ?? this.baseUrl;
    const headers = last?.headers ?? { 'user-agent': this.opts.userAgent, accept: 'application/json' };
    const raw = await this.once('GET', url, headers, undefined, { method: 'GET', path: url });
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

  private async waitTurn(): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      let wait = this.pausedUntil - now;
      if (this.opts.maxRps && wait <= 0) {
        const slot = Math.max(now, this.nextSlot);
        this.nextSlot = slot + 1000 / this.opts.maxRps;
        wait = slot - now;
        if (wait > 0) await this.clock.sleep(wait, this.stopSignal);
        return;
      }
      if (wait <= 0) return;
      await this.clock.sleep(wait, this.stopSignal);
    }
  }

  private async once(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | Buffer | undefined,
    options: SendOptions,
    via?: Dispatcher,
  ): Promise<RawExchange> {
    const raw = blankRaw(method, url, headers, body);
    try {
      await this.waitTurn();
    } catch {
      raw.error = { code: 'E_INTERRUPTED', message: 'not sent: the audit was interrupted' };
      return raw;
    }
    const timeoutMs = options.timeoutMs ?? this.opts.timeoutMs;
    let dispatcher: Dispatcher = via ?? this.agent;
    let fresh: Client | undefined;
    if (options.connection === 'fresh' && !via) {
      fresh = new Client(new URL(url).origin, { connect: { timeout: timeoutMs } });
      dispatcher = fresh;
    }
    // One controller and one timer per request, both released as soon as it ends: much cheaper
    // than AbortSignal.timeout + AbortSignal.any, whose timer and links outlive the request.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`no complete response within ${timeoutMs} ms`, 'TimeoutError'));
    }, timeoutMs);
    // An interruption cuts reads short, but lets a write finish: what it created is then seen and
    // deleted by cleanup, instead of being left behind unknown.
    const stop = SAFE_METHODS.has(method) ? this.stopSignal : undefined;
    if (stop) this.inFlight.add(controller);
    if (stop?.aborted) controller.abort(stop.reason);
    const signal = controller.signal;
    const started = performance.now();
    this.count++;
    try {
      const res = await request(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        signal,
        dispatcher,
      });
      raw.status = res.statusCode;
      raw.headers = flattenHeaders(res.headers);
      const declared = Number(raw.headers['content-length']);
      const read = await readBody(
        res.body as AsyncIterable<Buffer> & { destroy(): unknown },
        this.bodies,
        Number.isFinite(declared) ? declared : undefined,
      );
      raw.bytes = read.bytes;
      raw.truncated = read.truncated;
      if (read.stopped) raw.error = read.stopped;
      if (read.failure !== undefined) {
        // Headers came, the body did not: not a complete response (evidence still shows what came).
        raw.incomplete = true;
        raw.error = describeError(read.failure, timeoutMs, timedOut, stop?.aborted ?? false);
      }
    } catch (err) {
      raw.error = describeError(err, timeoutMs, timedOut, stop?.aborted ?? false);
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(controller);
      raw.durationMs = Math.round(performance.now() - started);
      if (fresh) fresh.destroy().catch(() => undefined);
    }
    return raw;
  }

  private finish(raw: RawExchange, notes: string[], resource: string | undefined): Exchange {
    const exchange = toExchange(raw, notes, resource, this.redactor);
    if (!raw.probe) {
      if (exchange.status === undefined && raw.method === 'GET')
        this.lastFailedGet = { url: raw.url, headers: raw.requestHeaders };
      this.breaker.record(exchange);
    }
    this.opts.onExchange?.(exchange);
    return exchange;
  }
}

/** A sender bound to one connection (see HttpClient.pin). */
export interface PinnedClient {
  send(options: SendOptions, resource?: string): Promise<Exchange>;
  /** Sockets opened so far: 1 means every request went over the same connection. */
  readonly connectionsOpened: number;
  close(): Promise<void>;
}

interface RawExchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: string | Buffer | undefined;
  status?: number;
  headers: Record<string, string>;
  bytes: Buffer;
  truncated: boolean;
  durationMs: number;
  error?: { code: string; message: string };
  /** The status line and headers arrived but the body failed: the exchange has no (complete) status. */
  incomplete?: boolean;
  /** Sent by the circuit breaker to check on the service: not itself counted. */
  probe?: boolean;
}

/** An exchange for a request that was never sent (interrupted, service down, another origin). */
function notSent(
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
function blankRaw(
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
    bytes: Buffer.alloc(0),
    truncated: false,
    durationMs: 0,
  };
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    out[key] = Array.isArray(value) ? value.join(key === 'set-cookie' ? '\n' : ', ') : value;
  }
  return out;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function toExchange(
  raw: RawExchange,
  notes: string[],
  resource: string | undefined,
  redactor: Redactor,
): Exchange {
  let text: string;
  let validUtf8 = true;
  try {
    // A body cut short may end inside a character: only a complete body is judged as UTF-8.
    text = raw.truncated || raw.incomplete ? raw.bytes.toString('utf8') : strictUtf8.decode(raw.bytes);
  } catch {
    validUtf8 = false;
    text = raw.bytes.toString('utf8');
  }
  let json: unknown;
  let isJson = false;
  if (validUtf8 && text.trim() !== '' && !raw.truncated && !raw.incomplete) {
    try {
      json = JSON.parse(text);
      isJson = true;
    } catch {
      json = undefined;
    }
  }
  if (!validUtf8) notes.push('the response body is not valid UTF-8');
  const mediaType = (raw.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  let evidence: Evidence | undefined;
  return {
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
    get evidence(): Evidence {
      evidence ??= buildEvidence(raw, text, isJson, notes, redactor);
      return evidence;
    },
  };
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
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
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
