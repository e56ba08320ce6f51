// HAR export (exchanges.har): every exchange of the audit, redacted, bounded in memory, for browser dev tools.
import { STATUS_CODES } from 'node:http';
import type { Exchange } from '../core/check.js';
import type { Evidence, RunResult } from '../core/types.js';
import { bodyText, truncate } from './format.js';
import type { Reporter } from './types.js';

/*
 * Why a recorder and not a field of RunResult: a run can make thousands of requests, and the
 * RunResult is what every reporter, the JSON report and `merge` carry around. The CLI creates an
 * ExchangeLog only when `har` is asked for, feeds it from RunOptions.onExchange, and hands it to
 * the reporter in ReporterOptions; the reporter stays a pure function of (run, options).
 * The log keeps the already redacted evidence of each exchange (never the raw text), with bodies
 * cut like evidence and a budget on the total, so its memory stays bounded.
 */

/** HAR 1.2 name/value pair. */
export interface HarPair {
  name: string;
  value: string;
}

/** One HAR 1.2 entry (the fields Chrome DevTools needs to import it, and `_resource`). */
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    headers: HarPair[];
    queryString: HarPair[];
    cookies: HarPair[];
    headersSize: number;
    bodySize: number;
    postData?: { mimeType: string; text: string };
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    headers: HarPair[];
    cookies: HarPair[];
    content: { size: number; mimeType: string; text?: string; comment?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
    _error?: string;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment?: string;
  _resource?: string;
  /** The check that sent the request (absent for the audit's own setup and cleanup: see `_phase`). */
  _check?: string;
  /** The rules of that check (ids from CONVENTIONS.md). */
  _rules?: string[];
  /** `setup` (reachability, login, parent items) or `cleanup`, for requests no check sent. */
  _phase?: string;
}

/** Who sent an exchange, as the engine says (src/engine/sender.ts; repeated here: a reporter does not import the engine). */
export type ExchangeSender = { checkId: string; rules: readonly string[] } | { phase: string };

export interface ExchangeLogOptions {
  /** Entries kept; later exchanges are counted, not kept (default 50,000). */
  maxEntries?: number;
  /** Characters kept of one body (default 8,192, like evidence). */
  maxBodyChars?: number;
  /** Characters of body text kept over the whole log; past it, bodies are left out (default 32 Mi). */
  maxTotalBodyChars?: number;
  /** Clock in ms (default Date.now): the exchange's start is "now" minus its duration. */
  now?: () => number;
}

/** Collects HAR entries as the audit runs (see the comment at the top of this file). */
export class ExchangeLog {
  readonly entries: HarEntry[] = [];
  /** Exchanges not kept because the log was full. */
  dropped = 0;
  /** Entries whose bodies were left out because the body budget was spent. */
  bodiesOmitted = 0;
  private bodyChars = 0;
  private readonly maxEntries: number;
  private readonly maxBodyChars: number;
  private readonly maxTotalBodyChars: number;
  private readonly now: () => number;

  constructor(options: ExchangeLogOptions = {}) {
    this.maxEntries = options.maxEntries ?? 50_000;
    this.maxBodyChars = options.maxBodyChars ?? 8192;
    this.maxTotalBodyChars = options.maxTotalBodyChars ?? 32 * 1024 * 1024;
    this.now = options.now ?? Date.now;
  }

  /** Records one exchange (use as RunOptions.onExchange). */
  add(exchange: Pick<Exchange, 'evidence' | 'durationMs' | 'resource'>, sender?: ExchangeSender): void {
    if (this.entries.length >= this.maxEntries) {
      this.dropped++;
      return;
    }
    const started = this.now() - Math.max(0, exchange.durationMs);
    const entry = this.entry(exchange.evidence, started, exchange.durationMs, exchange.resource);
    if (sender && 'checkId' in sender) {
      entry._check = sender.checkId;
      entry._rules = [...sender.rules];
    } else if (sender) entry._phase = sender.phase;
    this.entries.push(entry);
  }

  /** A body as text, cut to the per-body cap, or undefined once the budget is spent. */
  private body(value: unknown): { text: string; cut: boolean } | undefined | null {
    const text = bodyText(value);
    if (text === undefined) return undefined;
    if (this.bodyChars >= this.maxTotalBodyChars) return null;
    const kept = truncate(text, this.maxBodyChars);
    this.bodyChars += kept.length;
    return { text: kept, cut: kept !== text };
  }

  private entry(evidence: Evidence, startedMs: number, durationMs: number, resource?: string): HarEntry {
    const { request, response } = evidence;
    const time = Math.max(0, Math.round(durationMs));
    const reqBody = this.body(request.body);
    const reqType = header(request.headers, 'content-type') ?? guessType(request.body);
    const comments: string[] = [];
    let omitted = false;
    if (reqBody === null) omitted = true;
    const entry: HarEntry = {
      startedDateTime: new Date(startedMs).toISOString(),
      time,
      request: {
        method: request.method,
        url: request.url,
        httpVersion: 'HTTP/1.1',
        headers: pairs(request.headers),
        queryString: queryOf(request.url),
        cookies: [],
        headersSize: -1,
        bodySize: reqBody ? Buffer.byteLength(reqBody.text) : reqBody === null ? -1 : 0,
        ...(reqBody ? { postData: { mimeType: reqType, text: reqBody.text } } : {}),
      },
      response: noResponse(evidence.error),
      cache: {},
      timings: { send: 0, wait: time, receive: 0 },
    };
    if (reqBody?.cut) comments.push('request body cut');
    if (response) {
      const resBody = this.body(response.body);
      if (resBody === null) omitted = true;
      const size = resBody ? Buffer.byteLength(resBody.text) : 0;
      const cut = resBody?.cut || response.truncated;
      entry.response = {
        status: response.status,
        statusText: STATUS_CODES[response.status] ?? '',
        httpVersion: 'HTTP/1.1',
        headers: pairs(response.headers),
        cookies: [],
        content: {
          size,
          mimeType:
            header(response.headers, 'content-type') ?? (resBody ? guessType(response.body) : 'x-unknown'),
          ...(resBody ? { text: resBody.text } : {}),
          ...(cut ? { comment: 'body cut: the audit keeps only the start of each body' } : {}),
        },
        redirectURL: header(response.headers, 'location') ?? '',
        headersSize: -1,
        bodySize: resBody ? size : response.body === null ? 0 : -1,
      };
      if (evidence.error) entry.response._error = evidence.error;
    }
    if (omitted) {
      this.bodiesOmitted++;
      comments.push('bodies left out: the HAR body budget was spent');
    }
    for (const note of evidence.notes ?? []) comments.push(note);
    if (comments.length > 0) entry.comment = comments.join('; ');
    if (resource !== undefined) entry._resource = resource;
    return entry;
  }
}

function noResponse(error: string | undefined): HarEntry['response'] {
  return {
    status: 0,
    statusText: '',
    httpVersion: '',
    headers: [],
    cookies: [],
    content: { size: 0, mimeType: 'x-unknown' },
    redirectURL: '',
    headersSize: -1,
    bodySize: -1,
    ...(error ? { _error: error } : {}),
  };
}

function header(headers: Record<string, string>, name: string): string | undefined {
  return Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
}

function guessType(body: unknown): string {
  return typeof body === 'string' ? 'text/plain' : 'application/json';
}

function pairs(headers: Record<string, string>): HarPair[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

function queryOf(url: string): HarPair[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

/** The HAR document: `log.entries` in the order the exchanges completed. */
export function harDocument(run: RunResult, log: ExchangeLog | undefined): Record<string, unknown> {
  const notes: string[] = [`conformance audit of ${run.target.baseUrl}`, ...(run.notes ?? [])];
  if (!log) notes.push('no exchanges were recorded');
  if (log && log.dropped > 0) notes.push(`${log.dropped} later exchanges left out (entry limit)`);
  if (log && log.bodiesOmitted > 0) notes.push(`${log.bodiesOmitted} entries without bodies (size budget)`);
  return {
    log: {
      version: '1.2',
      creator: { name: run.tool.name, version: run.tool.version },
      pages: [],
      entries: log?.entries ?? [],
      comment: notes.join('; '),
    },
  };
}

/** `exchanges.har`: opt-in (`--reporter har`); needs ReporterOptions.exchanges from the CLI. */
export const harReporter: Reporter = {
  name: 'har',
  fileName: 'exchanges.har',
  needsExchanges: true,
  // Compact: a long run makes thousands of entries, and tools read it, not people.
  render: (result, options) => `${JSON.stringify(harDocument(result, options.exchanges))}\n`,
};
