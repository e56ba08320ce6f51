// The one HTTP client: deadlines, body cap, same-origin redirects, 429 back-off, rate cap, evidence.
import { Agent, Client, request, type Dispatcher } from 'undici';
import type { AuthChoice, Exchange, SendOptions } from '../core/check.js';
import type { Evidence, Secret } from '../core/types.js';
import { curlLine } from './curl.js';
import { Redactor } from './redact.js';
import { advertisedWait, sleep } from './retry.js';
import { describeError } from './errors.js';

export interface HttpClientOptions {
  baseUrl: string;
  tokens: { full?: string; limited?: string };
  secrets?: Secret[];
  /** Deadline of one request, headers and body included (ms). */
  timeoutMs?: number;
  /** Bytes of a response body read before the client stops reading. */
  maxBodyBytes?: number;
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
}

/** Bytes of a body kept in evidence. */
const EVIDENCE_BODY_BYTES = 8192;

export class HttpClient {
  readonly baseUrl: string;
  readonly origin: string;
  readonly redactor: Redactor;
  private readonly opts: Required<Omit<HttpClientOptions, 'maxRps' | 'signal' | 'onExchange' | 'secrets'>> &
    Pick<HttpClientOptions, 'maxRps' | 'signal' | 'onExchange'>;
  private readonly agent: Agent;
  private pausedUntil = 0;
  private nextSlot = 0;
  private count = 0;
  /** Connections opened by pin(), closed with the client. */
  private readonly pins = new Set<Client>();

  constructor(options: HttpClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.origin = new URL(this.baseUrl).origin;
    this.redactor = new Redactor(options.secrets ?? []);
    for (const value of [options.tokens.full, options.tokens.limited]) {
      if (value && !this.redactor.list().some((s) => s.value === value)) this.redactor.add({ value });
    }
    this.opts = {
      timeoutMs: 10_000,
      maxBodyBytes: 10 * 1024 * 1024,
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
  }

  /** Requests sent so far (each retry and redirect hop counts). */
  get requestCount(): number {
    return this.count;
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
    let method = options.method.toUpperCase();
    let url = this.resolve(options.path);
    let body: string | Buffer | undefined =
      options.body ?? (options.json !== undefined ? JSON.stringify(options.json) : undefined);
    const headers: Record<string, string> = { 'user-agent': this.opts.userAgent, accept: 'application/json' };
    const authorization = this.authorization(options.auth);
    if (authorization !== undefined) headers.authorization = authorization;
    if (body !== undefined) {
      const type = options.contentType === undefined ? 'application/json' : options.contentType;
      if (type !== null) headers['content-type'] = type;
    }
    for (const [k, v] of Object.entries(options.headers ?? {})) headers[k.toLowerCase()] = v;

    let retries = 0;
    let hops = 0;
    for (;;) {
      const raw = await this.once(method, url, headers, body, options, via);
      if (raw.status === 429 && options.retryOn429 !== false && retries < this.opts.max429Retries) {
        const told = advertisedWait(raw.headers);
        const wait = Math.min(
          told?.ms ?? this.opts.defaultRetryWaitMs * 2 ** retries,
          this.opts.maxRetryWaitMs,
        );
        notes.push(
          `answered 429; waited ${(wait / 1000).toFixed(1)} s (${told ? `as ${told.source} said` : 'no wait advertised'}) and retried`,
        );
        this.pausedUntil = Math.max(this.pausedUntil, Date.now() + wait);
        retries++;
        try {
          await this.waitTurn();
        } catch {
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
        if (hops >= this.opts.maxRedirects) {
          raw.error = {
            code: 'E_REDIRECT_LIMIT',
            message: `more than ${this.opts.maxRedirects} redirects (a loop?)`,
          };
          return this.finish(raw, notes, resource);
        }
        hops++;
        notes.push(`redirected (${raw.status}) from ${url} to ${target.href}`);
        url = target.href;
        if (raw.status === 303 || ((raw.status === 301 || raw.status === 302) && method === 'POST')) {
          method = method === 'HEAD' ? 'HEAD' : 'GET';
          body = undefined;
          delete headers['content-type'];
        }
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

  private async waitTurn(): Promise<void> {
    for (;;) {
      const now = Date.now();
      let wait = this.pausedUntil - now;
      if (this.opts.maxRps && wait <= 0) {
        const slot = Math.max(now, this.nextSlot);
        this.nextSlot = slot + 1000 / this.opts.maxRps;
        wait = slot - now;
        if (wait > 0) await sleep(wait, this.opts.signal);
        return;
      }
      if (wait <= 0) return;
      await sleep(wait, this.opts.signal);
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
    const raw: RawExchange = {
      method,
      url,
      requestHeaders: { ...headers },
      requestBody: body,
      headers: {},
      bytes: Buffer.alloc(0),
      truncated: false,
      durationMs: 0,
    };
    try {
      await this.waitTurn();
    } catch {
      raw.error = { code: 'E_INTERRUPTED', message: 'not sent: the audit was interrupted' };
      return raw;
    }
    const timeoutMs = options.timeoutMs ?? this.opts.timeoutMs;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = this.opts.signal ? AbortSignal.any([deadline, this.opts.signal]) : deadline;
    let dispatcher: Dispatcher = via ?? this.agent;
    let fresh: Client | undefined;
    if (options.connection === 'fresh' && !via) {
      fresh = new Client(new URL(url).origin, { connect: { timeout: timeoutMs } });
      dispatcher = fresh;
    }
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
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        if (size + chunk.length > this.opts.maxBodyBytes) {
          chunks.push(chunk.subarray(0, this.opts.maxBodyBytes - size));
          size = this.opts.maxBodyBytes;
          raw.truncated = true;
          res.body.destroy();
          raw.error = {
            code: 'E_BODY_TOO_LARGE',
            message: `response body larger than ${this.opts.maxBodyBytes} bytes: stopped reading at the cap`,
          };
          break;
        }
        chunks.push(chunk);
        size += chunk.length;
      }
      raw.bytes = Buffer.concat(chunks, size);
    } catch (err) {
      raw.error = describeError(err, timeoutMs, deadline.aborted, this.opts.signal?.aborted ?? false);
    } finally {
      raw.durationMs = Math.round(performance.now() - started);
      if (fresh) fresh.destroy().catch(() => undefined);
    }
    return raw;
  }

  private finish(raw: RawExchange, notes: string[], resource: string | undefined): Exchange {
    const exchange = toExchange(raw, notes, resource, this.redactor);
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
    text = strictUtf8.decode(raw.bytes);
  } catch {
    validUtf8 = false;
    text = raw.bytes.toString('utf8');
  }
  let json: unknown;
  let isJson = false;
  if (validUtf8 && text.trim() !== '' && !raw.truncated) {
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
    status: raw.status,
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
      body:
        requestText === undefined ? null : bodyForEvidence(redactor.text(requestText), tryJson(requestText)),
    },
    response:
      raw.status === undefined
        ? null
        : {
            status: raw.status,
            headers: redactor.headers(raw.headers),
            body: text === '' ? null : bodyForEvidence(redactor.text(text), isJson),
            durationMs: raw.durationMs,
            ...(raw.truncated ? { truncated: true } : {}),
          },
    curl: curlLine(
      { method: raw.method, url: raw.url, headers: raw.requestHeaders, body: raw.requestBody },
      redactor.list(),
    ),
  };
  if (raw.error) evidence.error = raw.error.message;
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

/** Parsed JSON when small enough to show whole, else the text cut at the evidence limit. */
function bodyForEvidence(text: string, isJson: boolean): unknown {
  if (text.length > EVIDENCE_BODY_BYTES) {
    return `${text.slice(0, EVIDENCE_BODY_BYTES)}… [${text.length - EVIDENCE_BODY_BYTES} more characters not shown]`;
  }
  if (isJson) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}
