// The auth matrix's requests: every declared operation on the collection, known and unknown ids, with valid and malformed bodies.
import type { SendOptions } from '../../../src/core/check.js';
import type { Operation, ResourceConfig } from '../../../src/core/types.js';
import { OPERATION_METHODS } from '../../../src/core/methods.js';

/** Where a probe goes: the collection URL, an item the audit created, or an id never issued. */
export type Target = 'collection' | 'known' | 'unknown';
/** What body a probe carries. */
export type BodyKind = 'valid' | 'malformed' | 'none';

/** One request of the matrix, before a credential is chosen. */
export interface Probe {
  op: Operation;
  method: string;
  target: Target;
  body: BodyKind;
}

/** Unparseable JSON: no server can act on it, whatever it thinks of the credential. */
export const MALFORMED_JSON = '{"conformance": ';

const METHODS = OPERATION_METHODS;

/** The valid payload of an operation: the sample for create, `replace`/`update` (else the sample) for PUT/PATCH. */
export function payloadFor(r: ResourceConfig, op: Operation): unknown {
  if (op === 'create') return r.sample;
  if (op === 'replace') return r.replace ?? r.sample;
  if (op === 'update') return r.update ?? r.sample;
  return undefined;
}

/**
 * Every combination for the given operations (default: all declared): list and create on the
 * collection, the others on a known and an unknown id; operations with a body once with the
 * valid payload (when the config has one) and once with malformed JSON.
 */
export function fullMatrix(r: ResourceConfig, ops: readonly Operation[] = r.operations): Probe[] {
  const out: Probe[] = [];
  for (const op of ops) {
    const method = METHODS[op];
    const withBody = op === 'create' || op === 'replace' || op === 'update';
    const targets: Target[] = op === 'list' || op === 'create' ? ['collection'] : ['known', 'unknown'];
    for (const target of targets) {
      if (!withBody) {
        out.push({ op, method, target, body: 'none' });
        continue;
      }
      if (payloadFor(r, op) !== undefined) out.push({ op, method, target, body: 'valid' });
      out.push({ op, method, target, body: 'malformed' });
    }
  }
  return out;
}

/** Each operation once, as a permitted caller would send it: valid body, collection or known id. */
export function plainMatrix(r: ResourceConfig, ops: readonly Operation[]): Probe[] {
  return ops.flatMap((op): Probe[] => {
    const target: Target = op === 'list' || op === 'create' ? 'collection' : 'known';
    const withBody = op === 'create' || op === 'replace' || op === 'update';
    if (withBody && payloadFor(r, op) === undefined) return [];
    return [{ op, method: METHODS[op], target, body: withBody ? 'valid' : 'none' }];
  });
}

/**
 * True when a server that wrongly accepted the probe could change data the audit can watch: a
 * write to the collection or to a known item. Such probes go out together with the state read around
 * them, and one at a time when it changed (ctx.state.batch).
 */
export function mayAct(p: Probe): boolean {
  return p.method !== 'GET' && p.target !== 'unknown';
}

/**
 * Whether --read-only allows the probe: no item of the audit's own exists, a working token never
 * goes with a write, and a write goes out only when no server could act on it (malformed JSON, or
 * DELETE of an id never issued): a valid body could create data on a server that skips the check
 * (POST, or a PUT/PATCH that upserts).
 */
export function allowedReadOnly(p: Probe, carriesToken: boolean): boolean {
  if (p.target === 'known') return false;
  if (p.method === 'GET') return true;
  return !carriesToken && p.body !== 'valid';
}

/** "PUT on a known id with a valid body", for messages. */
export function describeProbe(p: Probe): string {
  const where =
    p.target === 'collection' ? 'the collection' : p.target === 'known' ? 'a known id' : 'an unknown id';
  const body = p.body === 'none' ? '' : p.body === 'valid' ? ' with a valid body' : ' with malformed JSON';
  return `${p.method} on ${where}${body}`;
}

/** The request of a probe, without its credential. */
export function requestOf(
  p: Probe,
  r: ResourceConfig,
  paths: { known?: string; unknown?: string },
): Omit<SendOptions, 'auth'> {
  const path = p.target === 'collection' ? r.path : p.target === 'known' ? paths.known : paths.unknown;
  if (path === undefined) throw new Error(`no ${p.target} item path for ${describeProbe(p)}`);
  if (p.body === 'valid') return { method: p.method, path, json: payloadFor(r, p.op) };
  if (p.body === 'malformed') return { method: p.method, path, body: MALFORMED_JSON };
  return { method: p.method, path };
}
