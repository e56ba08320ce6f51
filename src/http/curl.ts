// curl lines that reproduce an exchange, referring to secrets by their environment variable.
import type { Secret } from '../core/types.js';
import { REDACTED } from './redact.js';

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
 * Renders a curl command. Secret values become `$VAR` (or their shell expression) inside double
 * quotes; a secret with no known variable becomes [redacted], so the line never leaks it.
 */
export function curlLine(input: CurlInput, secrets: readonly Secret[]): string {
  const parts = ['curl', '-i'];
  if (input.method !== 'GET' || input.body !== undefined) parts.push('-X', input.method);
  parts.push(quote(input.url, secrets));
  for (const [name, value] of Object.entries(input.headers)) {
    if (OMIT.has(name.toLowerCase())) continue;
    parts.push('-H', quote(`${name}: ${value}`, secrets));
  }
  if (input.body !== undefined) {
    const text = typeof input.body === 'string' ? input.body : input.body.toString('utf8');
    parts.push('--data-binary', quote(text, secrets));
  }
  return parts.join(' ');
}

/** Quotes a word for a POSIX shell, substituting secrets with variable references. */
function quote(text: string, secrets: readonly Secret[]): string {
  const pieces = splitSecrets(text, secrets);
  const hasVar = pieces.some((p) => p.secret && (p.secret.envVar || p.secret.shell));
  // eslint-disable-next-line no-control-regex
  const hasControl = /[\u0000-\u0008\u000b-\u001f\u007f]/.test(text);
  if (!hasVar) {
    const plain = pieces.map((p) => (p.secret ? REDACTED : p.text)).join('');
    return hasControl ? ansiC(plain) : single(plain);
  }
  // Double quotes so that variables expand; everything else escaped.
  let out = '"';
  for (const p of pieces) {
    if (p.secret?.shell) out += p.secret.shell;
    else if (p.secret?.envVar) out += `\${${p.secret.envVar}}`;
    else if (p.secret) out += REDACTED;
    else out += p.text.replace(/[\\"$`]/g, (c) => `\\${c}`);
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
  secret?: Secret;
}

function splitSecrets(text: string, secrets: readonly Secret[]): Piece[] {
  let pieces: Piece[] = [{ text }];
  for (const secret of secrets) {
    if (!secret.value || secret.value.length < 4) continue;
    pieces = pieces.flatMap((p) => {
      if (p.secret || !p.text.includes(secret.value)) return [p];
      const out: Piece[] = [];
      p.text.split(secret.value).forEach((chunk, i) => {
        if (i > 0) out.push({ text: secret.value, secret });
        if (chunk) out.push({ text: chunk });
      });
      return out;
    });
  }
  return pieces;
}
