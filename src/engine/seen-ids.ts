// Ids the audit has seen in answers, per resource and in order: an id seen before a create is never adopted.
import { createHash } from 'node:crypto';

/** Ids kept per resource; beyond it the least recently seen are forgotten (and the resource is no longer "whole"). */
export const MAX_SEEN_IDS = 10_000;
/** Longer ids are kept as a hash, so a service cannot fill memory with huge ids. */
const MAX_KEY_CHARS = 64;

/**
 * The ids every answer showed, per resource, each with the point in the run when it was first
 * seen. Points come from one counter: `mark()` before sending a create, then an id seen at a
 * smaller point was in an answer completed before the create was sent, so it existed already.
 */
export class SeenIds {
  private point = 0;
  private readonly ids = new Map<string, Map<string, number>>();
  /** Resources that forgot ids (more than MAX_SEEN_IDS). */
  private readonly overflowed = new Set<string>();
  /** Resources whose whole collection was read (every page, within the priming bound). */
  private readonly wholeRead = new Set<string>();

  /** A new point in the run's order of events (ids recorded later get larger points). */
  mark(): number {
    return ++this.point;
  }

  /** Records that an answer showed this id (the first sighting's point is kept). */
  record(resource: string, id: string): void {
    let map = this.ids.get(resource);
    if (!map) this.ids.set(resource, (map = new Map()));
    const key = keyOf(id);
    const first = map.get(key);
    // Re-inserted so that the least recently seen ids are the ones forgotten first.
    if (first !== undefined) map.delete(key);
    map.set(key, first ?? this.mark());
    if (map.size > MAX_SEEN_IDS) {
      map.delete(map.keys().next().value as string);
      this.overflowed.add(resource);
    }
  }

  /** True when an answer completed before `point` showed this id. */
  seenBefore(resource: string, id: string, point: number): boolean {
    const at = this.ids.get(resource)?.get(keyOf(id));
    return at !== undefined && at < point;
  }

  /** Forgets an id (it is the audit's own item now: later sightings are of that item). */
  forget(resource: string, id: string): void {
    this.ids.get(resource)?.delete(keyOf(id));
  }

  /** Notes that the whole collection was read once. */
  markWhole(resource: string): void {
    this.wholeRead.add(resource);
  }

  /**
   * True when every id the collection held when first read is known: it was read to its last page
   * and nothing was forgotten since. Only then may an item that "appeared" be told from an old one.
   */
  whole(resource: string): boolean {
    return this.wholeRead.has(resource) && !this.overflowed.has(resource);
  }
}

/** The registry key of an id: UUIDs in lower case (services differ in case), long ids hashed. */
function keyOf(id: string): string {
  const key = /^[0-9a-f-]{32,36}$/i.test(id) ? id.toLowerCase() : id;
  return key.length <= MAX_KEY_CHARS ? key : `#${createHash('sha256').update(key).digest('hex')}`;
}
