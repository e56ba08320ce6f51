// Comparing a resource's state around a request: snapshots, their difference, and the read-noise rule.
import type { Exchange } from './check.js';
import type { ResourceConfig } from './types.js';
import {
  deepEqual,
  diffPaths,
  idOf,
  isObject,
  unwrapItemLoose,
  unwrapList,
  withoutFields,
} from './shapes.js';
import { couldNotCompare } from './verdicts.js';
import { notBefore } from './values.js';
import { existence } from './error-body.js';

/** What a snapshot reads, with the full token. */
export interface StateWatch {
  /** Read the collection (its first page); only when the resource declares list. Default true. */
  collection?: boolean;
  /** Item paths to read; only when the resource declares read. */
  items?: string[];
}

/** The state of a resource as read at one moment (see `StateService.read`). */
export interface Snapshot {
  /** What was asked for, so that the same can be read again. */
  readonly watch: StateWatch;
  /** The collection read, when it was read. */
  readonly collection?: Exchange;
  /** Each item read, in the order asked. */
  readonly items: ReadonlyArray<{ path: string; read: Exchange }>;
}

/** How an item read at its URL differs between two snapshots. */
export interface ItemChange {
  path: string;
  before: Exchange;
  after: Exchange;
  /**
   * `gone`: it existed (2xx, not an error object) and now does not (404/410, or a 2xx error
   * object); `appeared`: the other way round; `status`: another status that proves neither
   * (200 then 500); `members`: the same status, and the item's members differ (see `paths`).
   */
  kind: 'gone' | 'appeared' | 'status' | 'members';
  /** For `members`: where they differ (`/price: 3 → 4`), the first few. */
  paths: string[];
}

/** How the collection differs between two snapshots whose reads both answered 200 with a list. */
export interface CollectionChange {
  before: Exchange;
  after: Exchange;
  /** Ids listed after and not before. */
  added: string[];
  /** Ids listed before and not after. */
  vanished: string[];
  /** Ids listed on both sides with other members, and where the first few differ. */
  changed: Array<{ id: string; paths: string[] }>;
}

/** What changed between two snapshots (see `StateService.compare`). */
export interface StateDiff {
  /** "could not compare: …" when a read on either side was cut short: then nothing is listed. */
  incomparable?: string;
  /** Items whose read changed. */
  items: ItemChange[];
  /** The collection's change, when both reads were lists (undefined otherwise, or not read). */
  collection?: CollectionChange;
  /** Members a mere re-read changes too (a view counter: IDEM-GET's finding), left out above. */
  noise: ReadonlySet<string>;
}

/**
 * Whether server-managed fields (createdAt, updatedAt, etags, revisions... and the config's
 * ignoreFields) count as a change, per rule, as CONVENTIONS.md says: IDEM-PUT compares "anything
 * but server-managed timestamps/etags/revision fields"; IDEM-DELETE, MTH-DELETE and ERR-MALFORMED
 * judge what happened to the data (other items affected, the collection changed), and a write's
 * bookkeeping is not that; a request the AUTH rules say must be refused must have "no effect",
 * so it may not even touch `updatedAt`. IDEM-GET (get-changes-nothing) compares its reads itself
 * and ignores nothing: a read must not write.
 */
export const MANAGED_FIELDS: Readonly<Record<string, 'ignored' | 'counted'>> = {
  'IDEM-PUT': 'ignored',
  'IDEM-DELETE': 'ignored',
  'MTH-DELETE': 'ignored',
  'ERR-MALFORMED': 'ignored',
  'AUTH-MISSING': 'counted',
  'AUTH-INVALID': 'counted',
  'AUTH-FORBIDDEN': 'counted',
};

/** True when a diff lists a change of members (the kind a re-read may explain: see `readNoise`). */
export function changesMembers(diff: StateDiff): boolean {
  return diff.items.some((c) => c.kind === 'members') || (diff.collection?.changed.length ?? 0) > 0;
}

/** True when a diff lists any change at all. */
export function changed(diff: StateDiff): boolean {
  const c = diff.collection;
  return (
    diff.items.length > 0 || (c !== undefined && c.added.length + c.vanished.length + c.changed.length > 0)
  );
}

/** Every read of a snapshot, collection first. */
export function readsOf(s: Snapshot): Exchange[] {
  return [...(s.collection ? [s.collection] : []), ...s.items.map((i) => i.read)];
}

/** The item a read shows (unwrapped from any envelope), or its text when it is not JSON. */
export function itemOf(x: Exchange, idField: string): unknown {
  return x.isJson ? (unwrapItemLoose(x.json, idField) ?? x.json) : x.text;
}

/**
 * The difference between two snapshots of the same watch, leaving out the members named in
 * `ignore` (server-managed fields, read noise) at any depth. Items are compared unwrapped, so
 * envelope metadata that differs on every answer (a request id) is no change; lists item by item,
 * by id, so order is none either.
 */
export function diffState(
  r: ResourceConfig,
  before: Snapshot,
  after: Snapshot,
  ignore: ReadonlySet<string>,
  noise: ReadonlySet<string> = new Set(),
): StateDiff {
  const cut = couldNotCompare(...readsOf(before), ...readsOf(after));
  if (cut !== undefined) return { incomparable: cut, items: [], noise };
  const item = (x: Exchange): unknown => withoutFields(itemOf(x, r.idField), ignore);
  const items: ItemChange[] = [];
  for (const { path, read: a } of before.items) {
    const b = after.items.find((i) => i.path === path)?.read;
    if (b === undefined) continue;
    const [was, now] = [existence(a, r), existence(b, r)];
    if (was === 'exists' && now !== 'exists' && now !== 'unknown') {
      items.push({ path, before: a, after: b, kind: 'gone', paths: [] });
    } else if (now === 'exists' && was !== 'exists' && was !== 'unknown') {
      items.push({ path, before: a, after: b, kind: 'appeared', paths: [] });
    } else if (a.status !== b.status) {
      items.push({ path, before: a, after: b, kind: 'status', paths: [] });
    } else if (was === 'exists' && !sameBody(a, b) && !deepEqual(item(a), item(b))) {
      items.push({ path, before: a, after: b, kind: 'members', paths: diffPaths(item(a), item(b)) });
    }
  }
  return { items, collection: collectionChange(r, before, after, ignore), noise };
}

function collectionChange(
  r: ResourceConfig,
  before: Snapshot,
  after: Snapshot,
  ignore: ReadonlySet<string>,
): CollectionChange | undefined {
  const [a, b] = [before.collection, after.collection];
  if (a?.status !== 200 || b?.status !== 200) return undefined;
  // The same body twice (the usual case: nothing changed): a list, it holds no change.
  if (sameBody(a, b)) {
    return unwrapList(a.json, r.name)
      ? { before: a, after: b, added: [], vanished: [], changed: [] }
      : undefined;
  }
  const was = byId(r, a.json, ignore);
  const now = byId(r, b.json, ignore);
  if (!was || !now) return undefined;
  const changed = [...was.keys()]
    .filter((id) => now.has(id) && !deepEqual(was.get(id), now.get(id)))
    .map((id) => ({ id, paths: diffPaths(was.get(id), now.get(id)) }));
  return {
    before: a,
    after: b,
    added: [...now.keys()].filter((id) => !was.has(id)),
    vanished: [...was.keys()].filter((id) => !now.has(id)),
    changed,
  };
}

/** Bodies shorter than this are whole in their exchange's text (a larger one may keep an excerpt). */
const WHOLE_TEXT = 16 * 1024;

/** Two answers whose whole bodies are the same text: their values are equal, with no walk over them. */
function sameBody(a: Exchange, b: Exchange): boolean {
  return (
    !a.truncated && !b.truncated && a.text.length < WHOLE_TEXT && a.text === b.text && a.isJson === b.isJson
  );
}

/** The entries of a list body by id, the ignored members removed; undefined when it is no list. */
function byId(
  r: ResourceConfig,
  body: unknown,
  ignore: ReadonlySet<string>,
): Map<string, unknown> | undefined {
  const list = unwrapList(body, r.name);
  if (!list) return undefined;
  const out = new Map<string, unknown>();
  for (const entry of list) {
    const id = idOf(entry, r.idField);
    if (id !== undefined) out.set(id, withoutFields(entry, ignore));
  }
  return out;
}

/**
 * Names of the members whose values differ between two reads of the same thing with nothing sent
 * in between, at any depth (objects member by member, lists of the same length entry by entry).
 * A read that changes them violates IDEM-GET, which get-changes-nothing reports; comparisons of
 * state around a request leave them out, so that the request is not blamed for the reads.
 */
export function readNoise(first: unknown, again: unknown): Set<string> {
  return new Set(changedMembers(first, again));
}

function changedMembers(a: unknown, b: unknown): string[] {
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    return a.flatMap((v, i) => changedMembers(v, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return [];
  const out: string[] = [];
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (deepEqual(a[k], b[k])) continue;
    const inner = changedMembers(a[k], b[k]);
    // A changed scalar (or a list that grew) is named by its own member. One by one: a list of
    // 200,000 entries each with a changed member is more arguments than a call takes.
    if (inner.length === 0) out.push(k);
    else for (const name of inner) out.push(name);
  }
  return out;
}

/**
 * Members a write stamps with its own time (Strapi's publishedAt with drafts off, a lastSyncedAt):
 * between two snapshots of the same watch around identical writes, a member the writes did not
 * send (`sent`, the body) whose value is an RFC 3339 date-time in both reads, the second at or
 * after the first. Server-managed by construction: the client sent the same thing both times.
 */
export function writeStamps(before: Snapshot, after: Snapshot, sent: unknown): Set<string> {
  const out = new Set<string>();
  const given = new Set(sentMembers(sent));
  const walk = (a: unknown, b: unknown): void => {
    if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
      a.forEach((v, i) => walk(v, b[i]));
      return;
    }
    if (!isObject(a) || !isObject(b)) return;
    for (const [k, v] of Object.entries(a)) {
      if (deepEqual(v, b[k])) continue;
      if (!given.has(k) && notBefore(v, b[k])) out.add(k);
      else walk(v, b[k]);
    }
  };
  const reads = (s: Snapshot): unknown[] => readsOf(s).map((x) => (x.isJson ? x.json : undefined));
  walk(reads(before), reads(after));
  return out;
}

/** Every member name a body sends, at any depth. */
function sentMembers(body: unknown): string[] {
  if (Array.isArray(body)) return body.flatMap(sentMembers);
  if (!isObject(body)) return [];
  return Object.entries(body).flatMap(([k, v]) => [k, ...sentMembers(v)]);
}

/** The noise members a re-read of a snapshot shows (both snapshots of the same watch). */
export function noiseBetween(after: Snapshot, again: Snapshot): Set<string> {
  const bodies = (s: Snapshot): unknown[] => readsOf(s).map((x) => (x.isJson ? x.json : undefined));
  return readNoise(bodies(after), bodies(again));
}
