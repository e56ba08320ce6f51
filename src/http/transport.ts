// One request over undici, no retries or redirects: the dispatchers, the deadline, the body read within the caps.
import { request, type Dispatcher } from 'undici';
import { HELD_FROM, isEssential, KEPT_WHEN_TRUNCATED, type BodyLimits } from './body.js';
import { readAnswer, type BodyStream } from './decode.js';
import { createDispatcher, type NetworkOptions } from './dispatchers.js';
import { describeError } from './errors.js';
import { blankRaw, type Outgoing, type RawExchange } from './exchange.js';
import { bodyValue } from './json.js';

export interface TransportOptions {
  /** Deadline of one request, headers and body included (ms); also undici's own connect/headers/body timers. */
  timeoutMs: number;
  /** Sockets the shared pool opens to the origin at most. */
  connections: number;
  /** The body cap and the memory budget every body is read within. */
  bodies: BodyLimits;
  /** The run's signal: when it aborts, every request sent as `interruptible` is cut. */
  signal?: AbortSignal;
  /** TLS settings and proxies of every connection (see dispatchers.ts). */
  network?: NetworkOptions;
}

/** How to send it. */
export interface SendVia {
  /** This request's deadline (ms). */
  timeoutMs: number;
  /** A connection of its own (see `pin`); otherwise the shared pool. */
  via?: Dispatcher;
  /** Open a new connection for this request alone (ignored with `via`). */
  fresh?: boolean;
  /** The run's interruption cuts it in flight (reads only: a write in flight is let finish). */
  interruptible: boolean;
}

/** A connection of its own (see Transport.pin). */
export interface Pinned {
  dispatcher: Dispatcher;
  /** Sockets opened so far: 1 means every request went over the same connection. */
  readonly connectionsOpened: number;
  close(): Promise<void>;
}

/**
 * The client's sockets and the one thing it does with them: send a request and read its answer
 * within the deadline and the body limits. Never throws for a transport problem: the exchange
 * carries it as `error` (see errors.ts).
 */
export class Transport {
  private readonly agent: Dispatcher;
  private connected = false;
  private sent = 0;
  /** Connections opened by pin(), closed with the transport. */
  private readonly pins = new Set<Dispatcher>();
  /** Requests in flight that an interruption cuts, aborted together (one listener for all). */
  private readonly inFlight = new Set<AbortController>();

  constructor(private readonly opts: TransportOptions) {
    this.agent = createDispatcher({
      timeoutMs: opts.timeoutMs,
      connections: opts.connections,
      network: opts.network,
      onConnect: () => {
        this.connected = true;
      },
    });
    const signal = opts.signal;
    signal?.addEventListener(
      'abort',
      () => {
        for (const controller of this.inFlight) controller.abort(signal.reason);
      },
      { once: true },
    );
  }

  /** Requests sent so far. */
  get requestCount(): number {
    return this.sent;
  }

  /** True once a connection to the service was established. */
  get everConnected(): boolean {
    return this.connected;
  }

  /**
   * A connection of its own (one undici Client per origin, pipelining 1, through the proxy when
   * one is in force): every request sent through it travels over one keep-alive socket, in turn.
   */
  pin(): Pinned {
    let opened = 0;
    const client = createDispatcher({
      timeoutMs: this.opts.timeoutMs,
      connections: 1,
      network: this.opts.network,
      onConnect: () => {
        opened++;
        this.connected = true;
      },
    });
    this.pins.add(client);
    return {
      dispatcher: client,
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

  /** Sends one request and reads its answer (the exchange before evidence; see exchange.ts). */
  async send(out: Outgoing, how: SendVia): Promise<RawExchange> {
    const { method, url, headers, body } = out;
    const { timeoutMs } = how;
    const raw = blankRaw(out);
    let dispatcher: Dispatcher = how.via ?? this.agent;
    let fresh: Dispatcher | undefined;
    if (how.fresh && !how.via) {
      fresh = createDispatcher({ timeoutMs, connections: 1, network: this.opts.network });
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
    const stop = how.interruptible ? this.opts.signal : undefined;
    if (stop) this.inFlight.add(controller);
    if (stop?.aborted) controller.abort(stop.reason);
    const started = performance.now();
    this.sent++;
    try {
      const res = await request(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        signal: controller.signal,
        dispatcher,
      });
      raw.status = res.statusCode;
      raw.headers = flattenHeaders(res.headers);
      if (res.statusCode < 100 || res.statusCode > 599) {
        // undici lets a three-digit status through that HTTP does not define (RFC 9110 §15: an
        // invalid status code): no valid answer.
        res.body.on('error', () => undefined).destroy();
        raw.incomplete = true;
        raw.error = {
          code: 'E_INVALID_HTTP',
          message: `no valid HTTP answer: the status line holds ${res.statusCode}, which is no HTTP status code (100-599)`,
        };
        return raw;
      }
      const limits = this.opts.bodies;
      const { read, coding } = await readAnswer(res.body as BodyStream, {
        headers: raw.headers,
        status: raw.status,
        method,
        limits,
        timeoutMs,
      });
      raw.truncated = read.truncated;
      if (read.stopped) raw.error = read.stopped;
      raw.coding = coding;
      try {
        if (read.failure !== undefined) {
          // Headers came, the body did not: not a complete response (evidence still shows what came).
          raw.incomplete = true;
          raw.error = describeError(read.failure, timeoutMs, timedOut, stop?.aborted ?? false);
        }
        // Decoded while its bytes still count against the budget: the text is a copy of them.
        const complete = !raw.truncated && !raw.incomplete && raw.coding?.undecoded === undefined;
        raw.value = bodyValue(read.bytes, complete, raw.coding?.problem);
        await admitValue(raw, read.bytes, limits, method);
      } finally {
        limits.give(read.reserved);
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
}

/**
 * Counts a large parsed JSON value against the memory budget for as long as it lives, or cuts the
 * body when holding it would pass the budget: the exchange then carries an excerpt, as for a body
 * cut while it was read, and checks that needed it say they could not judge.
 */
async function admitValue(
  raw: RawExchange,
  bytes: Buffer,
  limits: BodyLimits,
  method: string,
): Promise<void> {
  const value = raw.value;
  if (value === undefined || !value.isJson || value.jsonCost < HELD_FROM) return;
  if (typeof value.json !== 'object' || value.json === null) return; // a lone string: held with its exchange
  if (await limits.admit(value.json, value.jsonCost, isEssential(method, raw.status))) {
    raw.valueHeld = true;
    return;
  }
  raw.truncated = true;
  raw.error = {
    code: 'E_BODY_BUDGET',
    message: `response body of ${bytes.length} bytes, parsed, would take about ${value.jsonCost} bytes while other answers held the rest of the ${limits.budget} bytes the audit keeps in memory at once: cut to bound memory (the body is under the cap)`,
  };
  raw.value = bodyValue(bytes.subarray(0, KEPT_WHEN_TRUNCATED), false);
}

/** Response headers with lower-case names, repeated ones joined (set-cookie with '\n', keeping each cookie whole). */
function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    out[key] = Array.isArray(value) ? value.join(key === 'set-cookie' ? '\n' : ', ') : value;
  }
  return out;
}
