// curl lines that reproduce an exchange, referring to secrets by their environment variable.
import type { Secret } from '../core/types.js';
import { REDACTED, Redactor } from './redact.js';

export interface CurlInput {
  method: string;
  url: string;
  /** Headers as sent (unredacted); secrets inside are rewritten to variables here. */
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** Headers that curl sets by itself or that only add noise to a reproduction. */
const OMIT = new Set(['user-agent', 'content-length', 'host', 'connection', 'accept-encoding']);

/**
 * Renders a curl command. A secret sent as registered becomes `${VAR}` (or its shell expression)
 * inside double quotes; any other spelling of a secret, or one with no known variable, becomes
 * [redacted], so the line never leaks it. The value of a variable is never parsed by the shell
 * again, so a secret full of shell metacharacters still yields a line that runs as shown.
 */
export function curlLine(input: CurlInput, secrets: Redactor | readonly Secret[]): string {
  const redactor = secrets instanceof Redactor ? secrets : new Redactor([...secrets]);
  const parts = ['curl', '-i'];
  if (input.method !== 'GET' || input.body !== undefined) parts.push('-X', input.method);
  parts.push(quote(input.url, redactor));
  for (const [name, value] of Object.entries(input.headers)) {
    if (OMIT.has(name.toLowerCase())) continue;
    parts.push('-H', quote(`${name}: ${value}`, redactor));
  }
  if (input.body !== undefined) {
    const text = typeof input.body === 'string' ? input.body : input.body.toString('utf8');
    parts.push('--data-binary', quote(text, redactor));
  }
  return parts.join(' ');
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;
/** What double quotes do not keep literal in every shell: `!` (history expansion) and control characters. */
// eslint-disable-next-line no-control-regex
const NOT_IN_DOUBLE_QUOTES = /([!\u0000-\u0008\u000b-\u001f\u007f]+)/;

/** Quotes a word for a POSIX shell, substituting secrets with variable references. */
function quote(text: string, redactor: Redactor): string {
  const pieces = splitSecrets(text, redactor);
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
        else out += run.replace(/[\\"$`]/g, (c) => `\\${c}`);
      });
    }
  }
  return `${out}"`;
}

function single(text: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(text)) return text;
  return `'${text.replace(/'/g, `'\\''`)}'`;
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
