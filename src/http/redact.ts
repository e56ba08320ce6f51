// Redaction of secrets in headers, URLs and bodies: nothing the audit shows may contain a secret.
import type { Secret } from '../core/types.js';

export const REDACTED = '[redacted]';

/** Headers whose values are always hidden, whatever they hold. */
const SENSITIVE_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key', 'api-key']);

/** Holds the secrets of a run and removes them from any text. */
export class Redactor {
  private secrets: Secret[] = [];

  constructor(secrets: Secret[] = []) {
    for (const s of secrets) this.add(s);
  }

  /** Registers another secret (e.g. a credential derived from the token). Short values are ignored. */
  add(secret: Secret): void {
    if (!secret.value || secret.value.length < 4) return;
    if (this.secrets.some((s) => s.value === secret.value)) return;
    this.secrets.push(secret);
    // Longest first, so a secret containing another is replaced whole.
    this.secrets.sort((a, b) => b.value.length - a.value.length);
  }

  list(): readonly Secret[] {
    return this.secrets;
  }

  /** The text with every secret value replaced by [redacted]. */
  text(input: string): string {
    let out = input;
    for (const s of this.secrets) if (out.includes(s.value)) out = out.split(s.value).join(REDACTED);
    return out;
  }

  /** Headers with sensitive ones hidden and secrets removed from the rest. Names lower-cased. */
  headers(input: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(input)) {
      const key = name.toLowerCase();
      out[key] = SENSITIVE_HEADERS.has(key) ? redactCredential(value) : this.text(value);
    }
    return out;
  }
}

/** Keeps the scheme of a credential ("Bearer [redacted]") so the evidence still shows what kind was sent. */
function redactCredential(value: string): string {
  if (value === '') return '';
  const m = /^(\S+)(\s+)\S/.exec(value);
  if (m && /^(bearer|basic|token|digest|apikey)$/i.test(m[1])) return `${m[1]} ${REDACTED}`;
  return REDACTED;
}
