// Records of the alternative API, with server-managed created_at, updated_at, version and etag.
import { createHash } from 'node:crypto';
import type { AltResource } from './resources.js';

/** One stored record: the client's fields plus what the server manages. */
export interface StoredRecord {
  id: string;
  fields: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  /** Incremented on every write, an identical PUT included. */
  version: number;
  /** Set by the soft-delete break: gone for item reads, still listed. */
  deletedAt?: string;
  /** Set by the view-counter break. */
  views?: number;
}

/** Seed records carry fixed timestamps, so a snapshot before and after an audit compares byte for byte. */
export const SEED_TIME = '2024-03-01T09:00:00.000Z';

export class AltStore {
  private readonly records = new Map<string, StoredRecord[]>();
  /** Ids that existed once and were deleted (a repeated DELETE may answer like the first). */
  readonly deleted = new Map<string, Set<string>>();

  constructor(
    private readonly resources: AltResource[],
    private readonly managed: ManagedStyle,
    seeded: boolean,
  ) {
    for (const r of resources) {
      this.records.set(
        r.name,
        (seeded ? r.seed : []).map((s) => {
          const { [r.idField]: id, ...fields } = s;
          return { id: String(id), fields, createdAt: SEED_TIME, updatedAt: SEED_TIME, version: 1 };
        }),
      );
      this.deleted.set(r.name, new Set());
    }
  }

  /** Every record of a collection in creation order (soft-deleted ones included). */
  all(name: string): StoredRecord[] {
    return this.records.get(name) ?? [];
  }

  find(name: string, id: string): StoredRecord | undefined {
    return this.all(name).find((rec) => rec.id === id);
  }

  insert(r: AltResource, fields: Record<string, unknown>): StoredRecord {
    let id = r.newId();
    while (this.find(r.name, id)) id = r.newId();
    return this.insertWithId(r, id, fields);
  }

  insertWithId(r: AltResource, id: string, fields: Record<string, unknown>): StoredRecord {
    const now = new Date().toISOString();
    const rec: StoredRecord = { id, fields, createdAt: now, updatedAt: now, version: 1 };
    this.all(r.name).push(rec);
    return rec;
  }

  /** Replaces the client fields: a new version and updated_at, even when nothing differs. */
  write(rec: StoredRecord, fields: Record<string, unknown>): void {
    rec.fields = fields;
    rec.version += 1;
    rec.updatedAt = new Date().toISOString();
  }

  remove(name: string, id: string): boolean {
    const list = this.all(name);
    const at = list.findIndex((rec) => rec.id === id);
    if (at < 0) return false;
    list.splice(at, 1);
    this.deleted.get(name)?.add(id);
    return true;
  }

  /** The records as the API would show them, for before/after comparisons in tests. */
  snapshot(): Record<string, unknown[]> {
    const out: Record<string, unknown[]> = {};
    for (const r of this.resources) {
      out[r.name] = this.all(r.name).map((rec) => represent(r, rec, this.managed));
    }
    return out;
  }
}

/** The weak ETag of a record's current version. */
export function etagOf(rec: StoredRecord): string {
  const hash = createHash('sha1').update(`${rec.id}:${rec.version}`).digest('hex').slice(0, 16);
  return `W/"${hash}"`;
}

/** Where the server-managed members go (see AltChoices.managedFields). */
export type ManagedStyle = 'snake' | 'nested';

/** A record's representation: id, client fields, then the server-managed members. */
export function represent(r: AltResource, rec: StoredRecord, managed: ManagedStyle): Record<string, unknown> {
  const own = {
    [r.idField]: rec.id,
    ...rec.fields,
    ...(rec.views !== undefined ? { views: rec.views } : {}),
  };
  if (managed === 'nested') {
    return { ...own, _meta: { revisionNo: rec.version, createdOn: rec.createdAt, changedOn: rec.updatedAt } };
  }
  return {
    ...own,
    created_at: rec.createdAt,
    updated_at: rec.updatedAt,
    version: rec.version,
    etag: etagOf(rec),
  };
}
