// Redaction of secrets in headers, URLs and bodies: nothing the audit shows may contain a secret, in any spelling.
import type { Secret } from '../core/types.js';
import { decodedView, lowerUnits, type DecodedView } from './decoded-view.js';
import {
  ANCHOR_LENGTH,
  anchorsOf,
  FRAGMENT_LENGTH,
  formsOf,
  MIN_FUZZY_LENGTH,
  viewed,
  type Form,
} from './secret-forms.js';

export const REDACTED = '[redacted]';

/** Headers whose values are always hidden, whatever they hold. */
const SENSITIVE_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key', 'api-key']);

/** Texts up to this long have their spans remembered, at most CACHE_ENTRIES of them. */
const CACHED_LENGTH = 256;
const CACHE_ENTRIES = 20_000;

/** Characters searched past the end of an excerpt: more than any spelling of a secret takes in practice. */
const EXCERPT_MARGIN = 4096;

/** Where a secret was found in a text: `secret` is set when the span is exactly its value as registered. */
export interface SecretSpan {
  start: number;
  end: number;
  secret?: Secret;
}

export interface RedactorOptions {
  /** Called once for each warning about a secret (see `notes`). */
  onNote?: (note: string) => void;
}

interface Registered {
  secret: Secret;
  forms: Form[];
  /** The secret as the decoded view reads it, lower-cased (fragments extend along it). */
  plain: string;
  /** What its fragments are found by (none for a secret of 16 characters or fewer). */
  anchors: Array<{ text: string; offset: number }>;
}

/**
 * Holds every secret of a run and removes it from any text the audit shows. A secret is found as
 * registered, and (from MIN_FUZZY_LENGTH characters on) in any case, reversed, in hex, base64 or
 * base64url (also of `user:secret`), behind HTML character references, JSON, JavaScript and URL
 * escapes, and split by whitespace; in bodies that do not parse, any FRAGMENT_LENGTH characters in a
 * row of a secret longer than 16 are hidden too. Secrets found later (derived credentials, tokens
 * obtained at run time) join with `add`, and are hidden from then on.
 */
export class Redactor {
  private secrets: Registered[] = [];
  /** Whether any secret is long enough to have fragments. */
  private fragments = false;
  /** Spans of short texts already searched (cleared when a secret is added). */
  private readonly cache = new Map<string, readonly SecretSpan[]>();
  /** Length of the shortest form: a text shorter than it holds no form at all (only exact values). */
  private shortestForm = Infinity;
  private readonly noted = new Set<string>();
  private readonly onNote: ((note: string) => void) | undefined;
  /** Warnings about the secrets (e.g. one too short to find its echoes), each once. */
  readonly notes: string[] = [];

  constructor(secrets: Secret[] = [], options: RedactorOptions = {}) {
    this.onNote = options.onNote;
    for (const s of secrets) this.add(s);
  }

  /** Registers a secret (any length but empty); a value already known keeps its first registration. */
  add(secret: Secret): void {
    if (!secret.value) return;
    if (this.secrets.some((s) => s.secret.value === secret.value)) return;
    const entry: Registered = {
      secret,
      forms: formsOf(secret.value),
      plain: lowerUnits(viewed(secret.value)),
      anchors: anchorsOf(secret.value),
    };
    this.secrets.push(entry);
    // Longest first, so a secret containing another is matched whole.
    this.secrets.sort((a, b) => b.secret.value.length - a.secret.value.length);
    for (const form of entry.forms) this.shortestForm = Math.min(this.shortestForm, form.text.length);
    this.cache.clear();
    if (entry.anchors.length > 0) this.fragments = true;
    if (entry.plain.length < MIN_FUZZY_LENGTH && !secret.shell) this.warnShort(secret, entry.plain.length);
  }

  /** Every secret registered, longest first. */
  list(): readonly Secret[] {
    return this.secrets.map((s) => s.secret);
  }

  /** The text with every secret, in every spelling, replaced by [redacted]. */
  text(input: string): string {
    return this.replace(input, false);
  }

  /**
   * A body for evidence: as `text`, and when it did not parse (HTML error pages, plain text, cut
   * JSON), also every run of FRAGMENT_LENGTH or more characters of a long secret.
   */
  body(input: string, parsed: boolean): string {
    return this.replace(input, !parsed);
  }

  /**
   * Every string (and key) of a parsed JSON value with secrets removed: parsing undid the escapes
   * of the raw text, so a secret escaped twice (JSON inside a JSON string) is found here.
   */
  json(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.json(v));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.text(k), this.json(v)]));
    }
    return value;
  }

  /**
   * The first `limit` characters of a body too long to show whole, redacted as a body that does not
   * parse. Only those and a margin after them are searched, so a secret across the cut is hidden
   * whole and a megabyte body costs no more than a short one.
   */
  excerpt(input: string, limit: number): string {
    const window = input.slice(0, limit + EXCERPT_MARGIN);
    let out = '';
    let at = 0;
    for (const span of this.spans(window, true)) {
      if (span.start >= limit) break;
      out += window.slice(at, span.start) + REDACTED;
      at = span.end;
    }
    return at >= limit ? out : out + window.slice(at, limit);
  }

  /** Headers with sensitive ones hidden and secrets removed from the rest, names included. Names lower-cased. */
  headers(input: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(input)) {
      // A name cannot hold every character of a secret: a service puts in what it can.
      let key = this.replace(name.toLowerCase(), true);
      // Two names redacted to the same text stay two headers.
      for (let n = 2; Object.hasOwn(out, key); n++) key = `${key.replace(/ \(\d+\)$/, '')} (${n})`;
      out[key] = SENSITIVE_HEADERS.has(key) ? redactCredential(value) : this.text(value);
    }
    return out;
  }

  /**
   * Where secrets are in a text, overlapping finds merged, in order. A span is tied to a secret
   * (`secret` set) only when it is exactly that secret's registered value, so a curl line may
   * rebuild it from its variable; any other spelling is only to be hidden.
   */
  spans(input: string, fragments = false): readonly SecretSpan[] {
    if (this.secrets.length === 0 || input === '') return [];
    // Header names and values, URLs and JSON keys repeat across thousands of exchanges.
    const key = input.length <= CACHED_LENGTH ? `${fragments ? 1 : 0}${input}` : undefined;
    const cached = key === undefined ? undefined : this.cache.get(key);
    if (cached) return cached;
    const spans = this.search(input, fragments);
    if (key !== undefined) {
      if (this.cache.size >= CACHE_ENTRIES) this.cache.clear();
      this.cache.set(key, spans);
    }
    return spans;
  }

  private search(input: string, fragments: boolean): readonly SecretSpan[] {
    const found: SecretSpan[] = [];
    for (const { secret } of this.secrets) {
      for (let at = input.indexOf(secret.value); at !== -1; at = input.indexOf(secret.value, at + 1)) {
        found.push({ start: at, end: at + secret.value.length, secret });
      }
    }
    // A decoded view is never longer than its text: a shorter text cannot hold a form or a fragment.
    const findForms = input.length >= this.shortestForm;
    const findFragments = fragments && this.fragments && input.length >= FRAGMENT_LENGTH;
    if (findForms || findFragments) {
      const view = decodedView(input);
      if (findForms)
        for (const { forms } of this.secrets) for (const form of forms) findForm(view, form, found);
      if (findFragments) this.findFragments(view, found);
    }
    return merge(found);
  }

  private replace(input: string, fragments: boolean): string {
    const spans = this.spans(input, fragments);
    if (spans.length === 0) return input;
    let out = '';
    let at = 0;
    for (const span of spans) {
      out += input.slice(at, span.start) + REDACTED;
      at = span.end;
    }
    return out + input.slice(at);
  }

  /**
   * Runs of FRAGMENT_LENGTH or more characters of a secret, each as long as it goes: every hit of
   * an anchor is extended both ways along the secret.
   */
  private findFragments(view: DecodedView, found: SecretSpan[]): void {
    const text = view.lower;
    for (const { plain, anchors } of this.secrets) {
      // Runs already found of this secret: another of its anchors inside one adds nothing.
      const runs: Array<[number, number]> = [];
      for (const { text: anchor, offset } of anchors) {
        for (let at = text.indexOf(anchor); at !== -1; at = text.indexOf(anchor, at + 1)) {
          if (runs.some(([from, to]) => at >= from && at < to)) continue;
          let back = 0;
          while (at - back > 0 && offset - back > 0 && text[at - back - 1] === plain[offset - back - 1])
            back++;
          let ahead = ANCHOR_LENGTH;
          while (at + ahead < text.length && text[at + ahead] === plain[offset + ahead]) ahead++;
          if (back + ahead < FRAGMENT_LENGTH) continue;
          found.push({ start: view.start(at - back), end: view.end(at + ahead - 1) });
          runs.push([at - back, at + ahead]);
        }
      }
    }
  }

  private warnShort(secret: Secret, length: number): void {
    // A credential derived from a short one (registered without a source) adds nothing to its warning.
    if (!secret.source && !secret.envVar && this.notes.length > 0) return;
    const who = secret.source
      ? `${secret.source}${secret.envVar ? ` (from ${secret.envVar})` : ''}`
      : secret.envVar
        ? `the secret from ${secret.envVar}`
        : 'a secret written in the config';
    const note =
      `${who} is only ${length} character${length === 1 ? '' : 's'} long: it is redacted where it appears ` +
      `exactly, but an echo of it in another spelling (other case, encoded, split) cannot be told from ` +
      `ordinary text, so redaction of its echoes is unreliable; use a secret of at least ${MIN_FUZZY_LENGTH} characters`;
    if (this.noted.has(note)) return;
    this.noted.add(note);
    this.notes.push(note);
    this.onNote?.(note);
  }
}

/** Every occurrence of a form in the view, as a span of the original text. */
function findForm(view: DecodedView, form: Form, found: SecretSpan[]): void {
  const haystack = form.cased ? view.cased : view.lower;
  const length = form.text.length;
  for (let at = haystack.indexOf(form.text); at !== -1; at = haystack.indexOf(form.text, at + 1)) {
    found.push({ start: view.start(at), end: view.end(at + length - 1) });
  }
}

/**
 * Overlapping spans merged into one. The merged span keeps a secret only when one exact find covers
 * all of it (other finds of the same place, e.g. its lower-cased form, lie inside it).
 */
function merge(found: SecretSpan[]): SecretSpan[] {
  if (found.length === 0) return found;
  found.sort((a, b) => a.start - b.start || b.end - a.end || (b.secret ? 1 : 0) - (a.secret ? 1 : 0));
  const out: SecretSpan[] = [];
  for (const span of found) {
    const last = out[out.length - 1];
    if (last && span.start < last.end) {
      if (span.end > last.end) {
        last.end = span.end;
        delete last.secret;
      }
      continue;
    }
    out.push({ ...span });
  }
  return out;
}

/** Keeps the scheme of a credential ("Bearer [redacted]") so the evidence still shows what kind was sent. */
function redactCredential(value: string): string {
  if (value === '') return '';
  const m = /^(\S+)(\s+)\S/.exec(value);
  if (m && /^(bearer|basic|token|digest|apikey)$/i.test(m[1])) return `${m[1]} ${REDACTED}`;
  return REDACTED;
}
