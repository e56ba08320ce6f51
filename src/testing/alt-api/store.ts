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
    private readonly style: ShowStyle,
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
      out[r.name] = this.all(r.name).map((rec) => represent(r, rec, this.style));
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

/** How answers show a record: where server-managed members go, how values are spelled (see AltChoices). */
export interface ShowStyle {
  managedFields: ManagedStyle;
  values: 'as-sent' | 'decimal-strings';
}

/** A record's representation: id, client fields, then the server-managed members. */
export function represent(r: AltResource, rec: StoredRecord, style: ShowStyle): Record<string, unknown> {
  const decimal = style.values === 'decimal-strings';
  const fields = decimal ? spelled(r, rec.fields) : rec.fields;
  const time = decimal ? atPlusTwo : (stamp: string): string => stamp;
  const own = {
    [r.idField]: rec.id,
    ...fields,
    ...(rec.views !== undefined ? { views: rec.views } : {}),
  };
  if (style.managedFields === 'nested') {
    return {
      ...own,
      _meta: { revisionNo: rec.version, createdOn: time(rec.createdAt), changedOn: time(rec.updatedAt) },
    };
  }
  return {
    ...own,
    created_at: time(rec.createdAt),
    updated_at: time(rec.updatedAt),
    version: rec.version,
    etag: etagOf(rec),
  };
}

/**
 * Client fields as a service with decimal and timestamp columns shows them: numbers (at any depth)
 * as strings with two decimals, date-times at +02:00, dates as a timestamp at midnight UTC.
 */
function spelled(r: AltResource, fields: Record<string, unknown>): Record<string, unknown> {
  const decimals = (value: unknown): unknown => {
    if (typeof value === 'number') return value.toFixed(2);
    if (Array.isArray(value)) return value.map(decimals);
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decimals(v)]));
    }
    return value;
  };
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    const type = r.fields[name]?.type;
    if (type === 'datetime' && typeof value === 'string') out[name] = atPlusTwo(value);
    else if (type === 'date' && typeof value === 'string') out[name] = `${value}T00:00:00Z`;
    else out[name] = decimals(value);
  }
  return out;
}

/** The same instant as a local time at +02:00, with milliseconds: `2026-05-04T11:30:00.000+02:00`. */
function atPlusTwo(stamp: string): string {
  const local = new Date(Date.parse(stamp) + 2 * 3600_000).toISOString();
  return `${local.slice(0, -1)}+02:00`;
}
