// Idempotency keys on POST: a retry with the same key and body replays the first answer; another body is a 409.
import type { Reply } from './reply.js';

/** What the store says about a key: unseen, a stored answer to replay, or reuse with another request. */
export type IdempotencyLookup = { kind: 'miss' } | { kind: 'replay'; reply: Reply } | { kind: 'conflict' };

/** Answers remembered per (token, key); the oldest are forgotten beyond `maxEntries`. */
export class IdempotencyStore {
  private readonly entries = new Map<string, { fingerprint: string; reply: Reply }>();

  constructor(private readonly maxEntries = 10_000) {}

  /** Looks up a key; `fingerprint` identifies the request (method, path, canonical body). */
  lookup(token: string, key: string, fingerprint: string): IdempotencyLookup {
    const entry = this.entries.get(scope(token, key));
    if (!entry) return { kind: 'miss' };
    if (entry.fingerprint !== fingerprint) return { kind: 'conflict' };
    return { kind: 'replay', reply: structuredClone(entry.reply) };
  }

  /** Remembers the answer of a request that acted. */
  remember(token: string, key: string, fingerprint: string, reply: Reply): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(scope(token, key), { fingerprint, reply: structuredClone(reply) });
  }
}

function scope(token: string, key: string): string {
  return `${token}\u0000${key}`;
}

/**
 * A request fingerprint: the same for deep-equal JSON bodies whatever their key order or
 * spacing. Falls back to the raw text for values too deeply nested to canonicalise.
 */
export function fingerprintOf(method: string, path: string, body: unknown, rawText: string): string {
  let canonical: string;
  try {
    canonical = canonicalJson(body, 0);
  } catch {
    canonical = rawText;
  }
  return `${method} ${path}\n${canonical}`;
}

function canonicalJson(value: unknown, depth: number): string {
  if (depth > 200) throw new Error('too deep');
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, depth + 1)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    const obj = value as Record<string, unknown>;
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k], depth + 1)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
