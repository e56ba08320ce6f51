// curl lines that reproduce an exchange, referring to secrets by their environment variable.
import type { Secret, TlsSettings } from '../core/types.js';
import { REDACTED, Redactor } from './redact.js';

export interface CurlInput {
  method: string;
  url: string;
  /** Headers as sent (unredacted); secrets inside are rewritten to variables here. */
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** How the audit's connection was made, so a pasted line connects the same way. */
export interface CurlOptions {
  /** TLS settings of the run: `-k`, `--cacert`, `--cert`/`--key` (files as the config names them). */
  tls?: TlsSettings;
  /** The request's deadline (ms), given when it timed out: `--max-time` so the line does not hang. */
  maxTimeMs?: number;
}

/** Headers that curl sets by itself or that only add noise to a reproduction. */
const OMIT = new Set(['user-agent', 'content-length', 'host', 'connection', 'accept-encoding']);

/**
 * Renders a curl command. A secret sent as registered becomes `${VAR}` (or its shell expression)
 * inside double quotes; any other spelling of a secret, or one with no known variable, becomes
 * [redacted], so the line never leaks it. The value of a variable is never parsed by the shell
 * again, so a secret full of shell metacharacters still yields a line that runs as shown.
 */
export function curlLine(
  input: CurlInput,
  secrets: Redactor | readonly Secret[],
  options: CurlOptions = {},
): string {
  return ['curl', '-i', ...curlArgs(input, secrets, options)].join(' ');
}

/**
 * The words of a curl command after `curl` and its output flags, each quoted for a POSIX shell:
 * connection flags, method, URL, headers, body. `vars` replaces values by shell variables
 * (reproduction scripts: the id of an item the script creates, the base URL).
 */
export function curlArgs(
  input: CurlInput,
  secrets: Redactor | readonly Secret[],
  options: CurlOptions = {},
  vars: ShellVars = {},
): string[] {
  const redactor = secrets instanceof Redactor ? secrets : new Redactor([...secrets]);
  const parts = [...connectionFlags(options)];
  if (input.method !== 'GET' || input.body !== undefined) parts.push('-X', input.method);
  parts.push(quote(input.url, redactor, vars.url));
  for (const [name, value] of Object.entries(input.headers)) {
    if (OMIT.has(name.toLowerCase())) continue;
    // `-H 'name: '` makes curl drop the header; `name;` sends it with an empty value.
    parts.push('-H', value === '' ? quote(`${name};`, redactor) : quote(`${name}: ${value}`, redactor));
  }
  if (input.body !== undefined) {
    const text = typeof input.body === 'string' ? input.body : input.body.toString('utf8');
    parts.push('--data-binary', quote(text, redactor, vars.body));
  }
  return parts;
}

/** Where values become shell variables: each finds the spans of a text to replace (see `Substitute`). */
export interface ShellVars {
  url?: Substitute;
  body?: Substitute;
}

/** Spans of `text` that a shell expression (`${id1}`) stands for, in order, not overlapping. */
export type Substitute = (text: string) => Array<{ start: number; end: number; shell: string }>;

/** One word quoted for a POSIX shell: secrets as their variables, `vars`' spans as shell expressions. */
export function shellWord(text: string, secrets: Redactor, vars?: Substitute): string {
  return quote(text, secrets, vars);
}

/** `-k`, `--cacert`, `--cert`/`--key`, `--max-time`: what the audit's connection had. */
function connectionFlags(options: CurlOptions): string[] {
  const out: string[] = [];
  const tls = options.tls;
  if (tls?.insecure) out.push('-k');
  if (tls?.files?.ca) out.push('--cacert', single(tls.files.ca));
  if (tls?.files?.cert) out.push('--cert', single(tls.files.cert));
  if (tls?.files?.key) out.push('--key', single(tls.files.key));
  if (options.maxTimeMs !== undefined) {
    out.push('--max-time', String(Math.max(1, Math.ceil(options.maxTimeMs / 1000))));
  }
  return out;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;
/** What double quotes do not keep literal in every shell: `!` (history expansion) and control characters. */
// eslint-disable-next-line no-control-regex
const NOT_IN_DOUBLE_QUOTES = /([!\u0000-\u0008\u000b-\u001f\u007f]+)/;

/** Quotes a word for a POSIX shell, substituting secrets (and `vars`' spans) with variable references. */
function quote(text: string, redactor: Redactor, vars?: Substitute): string {
  const pieces = vars ? withVars(text, redactor, vars) : splitSecrets(text, redactor);
  const hasVar = pieces.some((p) => p.secret && (p.secret.envVar || p.secret.shell));
  if (!hasVar) {
    const plain = pieces.map((p) => (p.secret ? REDACTED : p.text)).join('');
    return CONTROL.test(plain) ? ansiC(plain) : single(plain);
  }
  // Double quotes so that variables expand; everything else escaped, or quoted apart when double
  // quotes cannot hold it.
  let out = '"';
  for (const p of pieces) {
    if (p.secret?.shell) out += p.secret.shell;
    else if (p.secret?.envVar) out += `\${${p.secret.envVar}}`;
    else if (p.secret) out += REDACTED;
    else {
      p.text.split(NOT_IN_DOUBLE_QUOTES).forEach((run, i) => {
        if (i % 2 === 1) out += `"${CONTROL.test(run) ? ansiC(run) : single(run)}"`;
        else out += dq(run);
      });
    }
  }
  return `${out}"`;
}

/** A word in single quotes (POSIX): nothing in it is expanded. */
export function sq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Text escaped for the inside of double quotes: `\`, `"`, `$` and backquotes. */
export function dq(text: string): string {
  return text.replace(/[\\"$`]/g, (c) => `\\${c}`);
}

/** A word as is when nothing in it is special to the shell, else in single quotes. */
export function single(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : sq(text);
}

function ansiC(text: string): string {
  const body = Array.from(text)
    .map((c) => {
      const code = c.codePointAt(0) ?? 0;
      if (c === "'" || c === '\\') return `\\${c}`;
      if (c === '\n') return '\\n';
      if (c === '\t') return '\\t';
      if (c === '\r') return '\\r';
      if (code < 0x20 || code === 0x7f) return `\\x${code.toString(16).padStart(2, '0')}`;
      return c;
    })
    .join('');
  return `$'${body}'`;
}

interface Piece {
  text: string;
  /** Set for a secret: rebuilt from its variable when the piece is exactly its registered value. */
  secret?: Secret;
}

/** The pieces of a text whose `vars` spans are shell expressions and whose other parts are split at secrets. */
function withVars(text: string, redactor: Redactor, vars: Substitute): Piece[] {
  const pieces: Piece[] = [];
  let at = 0;
  for (const span of vars(text)) {
    if (span.start < at) continue;
    if (span.start > at) pieces.push(...splitSecrets(text.slice(at, span.start), redactor));
    pieces.push({ text: text.slice(span.start, span.end), secret: { value: '', shell: span.shell } });
    at = span.end;
  }
  if (at < text.length) pieces.push(...splitSecrets(text.slice(at), redactor));
  return pieces;
}

function splitSecrets(text: string, redactor: Redactor): Piece[] {
  const pieces: Piece[] = [];
  let at = 0;
  for (const span of redactor.spans(text)) {
    if (span.start > at) pieces.push({ text: text.slice(at, span.start) });
    // A span that is not exactly a registered value is hidden: a secret with no variable says so.
    pieces.push({ text: text.slice(span.start, span.end), secret: span.secret ?? { value: '' } });
    at = span.end;
  }
  if (at < text.length) pieces.push({ text: text.slice(at) });
  return pieces;
}
