// In-memory storage of the example API: a monotonic clock for timestamps and one Collection per resource.
import { randomUUID } from 'node:crypto';
import {
  ALL_OPERATIONS,
  validateBody,
  type ResourceDefinition,
  type ResourceOperation,
} from './resources.js';

/** A stored record: client fields plus `id`, `createdAt`, `updatedAt`. */
export type Item = Record<string, unknown> & { id: number | string; createdAt: string; updatedAt: string };

/** Wall clock (injectable) that hands out strictly increasing write timestamps. */
export class Clock {
  private last = Number.NEGATIVE_INFINITY;
  constructor(readonly now: () => number) {}

  /** An ISO timestamp later than every earlier stamp, so `updatedAt` changes on every write. */
  stamp(): string {
    const t = Math.max(Math.floor(this.now()), this.last + 1);
    this.last = t;
    return new Date(t).toISOString();
  }

  /** The current time as ISO (not necessarily unique). */
  iso(): string {
    return new Date(this.now()).toISOString();
  }
}

/** The records of one collection, in creation order (the oldest first). */
export class Collection {
  private readonly records = new Map<string, Item>();
  /** Keys of records that existed and were deleted (for the repeat-DELETE variant). */
  private readonly deleted = new Set<string>();
  private nextInt = 1;
  readonly operations: readonly ResourceOperation[];

  constructor(
    readonly def: ResourceDefinition,
    private readonly clock: Clock,
    /** Internal collections (webhooks) emit no events and are exempt from breaks. */
    readonly internal = false,
  ) {
    this.operations = def.operations ?? ALL_OPERATIONS;
    for (const seed of def.seed ?? []) {
      const valid = validateBody(def, seed, 'full', 'ignore');
      if (!valid.ok) throw new Error(`Invalid seed record for ${def.name}: ${valid.message}`);
      this.put(this.build(valid.value));
    }
  }

  get name(): string {
    return this.def.name;
  }

  /** The storage key of a path segment, or undefined when it cannot name a record (malformed id). */
  keyOf(raw: string): string | undefined {
    if (this.def.ids === 'int') return /^[1-9][0-9]{0,15}$/.test(raw) ? raw : undefined;
    return /^[0-9a-fA-F-]{1,64}$/.test(raw) ? raw.toLowerCase() : undefined;
  }

  get(key: string): Item | undefined {
    return this.records.get(key);
  }

  /** True when the key named a record that has since been deleted. */
  wasDeleted(key: string): boolean {
    return this.deleted.has(key);
  }

  list(): Item[] {
    return [...this.records.values()];
  }

  /** A new record with a fresh id and timestamps; not stored until `put`. */
  build(fields: Record<string, unknown>): Item {
    const id = this.def.ids === 'int' ? this.nextInt++ : randomUUID();
    const now = this.clock.stamp();
    return { ...structuredClone(fields), id, createdAt: now, updatedAt: now };
  }

  /** The full replacement of `old` by `fields` (same id and createdAt, new updatedAt); not stored. */
  replaced(old: Item, fields: Record<string, unknown>): Item {
    return {
      ...structuredClone(fields),
      id: old.id,
      createdAt: old.createdAt,
      updatedAt: this.clock.stamp(),
    };
  }

  /** `old` merged with `patch` (a null removes the field); not stored. */
  merged(old: Item, patch: Record<string, unknown>): Item {
    const next: Record<string, unknown> = structuredClone(old);
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete next[key];
      else next[key] = structuredClone(value);
    }
    return { ...next, id: old.id, createdAt: old.createdAt, updatedAt: this.clock.stamp() };
  }

  /** Stores (inserts or overwrites) a record. */
  put(item: Item): void {
    this.records.set(String(item.id), item);
  }

  /** Removes a record; answers it, or undefined when there was none. */
  remove(key: string): Item | undefined {
    const item = this.records.get(key);
    if (item) {
      this.records.delete(key);
      this.deleted.add(key);
    }
    return item;
  }

  /** Deep copy of every record, for tests. */
  snapshot(): Item[] {
    return structuredClone(this.list());
  }
}
