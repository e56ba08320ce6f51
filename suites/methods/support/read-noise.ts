// What reading alone changes (view counters, "last read" stamps), so a request is not blamed for it.
import { deepEqual, isObject, withoutFields } from '../../../src/core/shapes.js';

/**
 * Names of the members whose values differ between two reads of the same thing with nothing sent
 * in between, at any depth (objects member by member, lists of the same length entry by entry).
 * A read that changes them violates IDEM-GET, which get-changes-nothing reports; checks that
 * compare state around a request leave them out, so that the request is not blamed for the reads.
 */
export function readNoise(first: unknown, again: unknown): Set<string> {
  return new Set(changed(first, again));
}

function changed(a: unknown, b: unknown): string[] {
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    return a.flatMap((v, i) => changed(v, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return [];
  const out: string[] = [];
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (deepEqual(a[k], b[k])) continue;
    const inner = changed(a[k], b[k]);
    // A changed scalar (or a list that grew) is named by its own member.
    out.push(...(inner.length > 0 ? inner : [k]));
  }
  return out;
}

/** A JSON value without the noisy members (unchanged when there are none). */
export function withoutNoise(value: unknown, noise: Set<string>): unknown {
  return noise.size === 0 ? value : withoutFields(value, noise);
}
