// Custody of test data: which items the audit created (and so may change or delete), and which it never adopts.
import type { Adoption, Created, Exchange, SendOptions } from '../core/check.js';
import type { AuditConfig, ResourceConfig } from '../core/types.js';
import { idOf, listIds, unwrapItem } from '../core/shapes.js';
import { answered, is2xx } from '../core/verdicts.js';
import type { HttpClient } from '../http/client.js';
import type { Ledger } from './ledger.js';
import { Creations } from './creations.js';
import { SeenIds } from './seen-ids.js';
import { compareWritten, shownFor } from '../core/written.js';
import { readCollection } from './collection-read.js';
import {
  addressable,
  basePathOf,
  ID,
  itemTemplate,
  itemUrl,
  matchTemplate,
  TargetIndex,
} from '../core/addressing.js';
import { pointerGet } from '../core/pointer.js';

/** A create the service may have acted on without naming a new item (lost answer, refused, no id). */
export interface Unaccounted {
  kind: 'lost' | 'refused' | 'no-id';
  /** SeenIds point taken just before the POST was sent. */
  point: number;
  /** The body sent. */
  body: unknown;
  url: string;
  /** What happened, for the cleanup report. */
  reason: string;
}

/** Unaccounted creates kept per resource (more are counted, not kept). */
const MAX_UNACCOUNTED = 50;

/**
 * Fed every exchange (`observe`) and every request a check sends (`settle`), it keeps the seen-ids
 * registry, decides whether a create's answer may be adopted, remembers what the audit wrote to its
 * items, and keeps the creates whose effect is unknown for cleanup to look for.
 */
export class Custody {
  readonly seen = new SeenIds();
  /** The items adopted as new, with their creates (reproduction scripts make them again). */
  readonly creations = new Creations();
  private readonly basePath: string;
  private readonly adoptions = new WeakMap<Exchange, Adoption>();
  private readonly unaccounted = new Map<string, Unaccounted[]>();
  private readonly overflow = new Map<string, number>();
  private readonly primed = new Map<string, Promise<void>>();
  /** Per resource: why the audit cannot name what it creates there (set by the first create that named no id). */
  private readonly noIds = new Map<string, { reason: string; exchange: Exchange }>();
  /** Resources where a create was adopted: their creates need no more queueing. */
  private readonly named = new Set<string>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly config: AuditConfig,
    private readonly ledger: Ledger,
  ) {
    this.basePath = basePathOf(config.baseUrl);
    this.resources = [...config.resources];
    this.index = new TargetIndex(this.resources, this.basePath);
  }

  /** The resources as the run addresses them (a nested one bound to its parent: see `bind`). */
  private resources: ResourceConfig[];
  /** `resources` indexed by URL: every exchange is looked up, so the lookup must not scan them all. */
  private index: TargetIndex;

  /** Replaces a resource by its bound form (a nested resource's templates filled with its parent's ids). */
  bind(bound: ResourceConfig): void {
    this.resources = this.resources.map((r) => (r.name === bound.name ? bound : r));
    this.index = new TargetIndex(this.resources, this.basePath);
  }

  /**
   * The resource a URL names: one of its items (with the id, decoded), or its collection. An item
   * addressed by a query filter is told from its collection by the filter; otherwise a collection
   * path wins over an item of a shorter one (`/a/b`: the collection b, not the item b of /a).
   */
  targetOf(url: string): { r: ResourceConfig; id?: string } | undefined {
    return this.index.find(url);
  }

  /** Payloads rendered from the config's templates (`{{unique}}`, `{{id}}`): valid bodies, as the sample is. */
  private readonly payloads = new WeakSet<object>();

  /** Remembers a payload rendered from a template (see `isPayload`). */
  notePayload(body: unknown): void {
    if (typeof body === 'object' && body !== null) this.payloads.add(body);
  }

  /** True for a body rendered from one of the config's payloads (a create of a valid item). */
  isPayload(body: unknown): boolean {
    return typeof body === 'object' && body !== null && this.payloads.has(body);
  }

  /**
   * Why creates in the resource are no longer sent: the first create answered 2xx and named no id
   * the audit could find, so any further one would leave another item it cannot name.
   */
  noIdReason(name: string): string | undefined {
    return this.noIds.get(name)?.reason;
  }

  /** The create that named no id in the resource, with why (see `noIdReason`). */
  unnamedCreate(name: string): { reason: string; exchange: Exchange } | undefined {
    return this.noIds.get(name);
  }

  /**
   * Runs a create of a valid payload. Until one create in the resource has been adopted they run
   * one at a time, so that when the first names no id no second one is already on its way (at
   * most one item is left behind per resource).
   */
  createInTurn<T>(name: string, create: () => Promise<T>): Promise<T> {
    if (this.named.has(name)) return create();
    const run = (this.queues.get(name) ?? Promise.resolve()).then(create);
    // The queue holds the turn, not the create's answer (an exchange per resource, all run long).
    this.queues.set(
      name,
      run.then(
        () => undefined,
        () => undefined,
      ),
    );
    return run;
  }

  /** Every exchange: the ids a successful read shows join the registry (the audit's own items aside). */
  observe(x: Exchange): void {
    if (x.method !== 'GET' || !is2xx(x)) return;
    const target = this.targetOf(x.url);
    if (!target) return;
    const { r, id } = target;
    const ids =
      id === undefined
        ? (listIds(x.json, r.idField, r.name) ?? [])
        : [id, idOf(unwrapItem(x.json, r.idField), r.idField)];
    for (const shown of ids) if (shown !== undefined && !this.ours(r, shown)) this.seen.record(r.name, shown);
  }

  /**
   * Before the first create on a resource: reads its collection (when `list` is declared, following
   * pages within a bound) so that every item it holds is known before anything is created.
   */
  prime(r: ResourceConfig, client: HttpClient): Promise<void> {
    if (!r.operations.includes('list')) return Promise.resolve();
    let done = this.primed.get(r.name);
    if (!done) {
      done = readCollection(client, r).then((read) => {
        if (read.whole) this.seen.markWhole(r.name);
      });
      this.primed.set(r.name, done);
    }
    return done;
  }

  /**
   * Every request a check sent, once answered (`point`: taken just before it was sent). A create's
   * answer is judged here, before the check sees it; `client` reads the named item when the
   * registry cannot vouch for it.
   */
  async settle(x: Exchange, options: SendOptions, point: number, client: HttpClient): Promise<void> {
    const target = this.targetOf(x.url);
    if (!target) return;
    const { r, id } = target;
    if (id === undefined) {
      if (x.method === 'POST') await this.adopt(x, r, bodyOf(options), point, client);
      return;
    }
    const path = itemUrl(r, id);
    if (!path || !is2xx(x)) return;
    if (x.method === 'DELETE') this.ledger.markDeleted(path);
    else if (x.method === 'PUT' || x.method === 'PATCH') {
      const body = bodyOf(options);
      if (body === undefined) return;
      this.ledger.noteWrite(path, body);
      this.noteAnswer(path, body, x, r);
    }
  }

  /** What the answer to an accepted write shows for the fields sent also counts as written. */
  private noteAnswer(path: string, body: unknown, x: Exchange, r: ResourceConfig): void {
    const shown = shownFor(body, x.json, r.idField);
    if (shown) this.ledger.noteWrite(path, shown);
  }

  /** What the audit made of a create's answer (undefined for anything but a POST to a collection). */
  adoption(x: Exchange): Adoption | undefined {
    return this.adoptions.get(x);
  }

  /** Creates whose effect is unknown, per resource, and how many more were not kept. */
  unaccountedCreates(): Array<{ resource: string; creates: Unaccounted[]; more: number }> {
    return [...this.unaccounted].map(([resource, creates]) => ({
      resource,
      creates,
      more: this.overflow.get(resource) ?? 0,
    }));
  }

  private async adopt(
    x: Exchange,
    r: ResourceConfig,
    body: unknown,
    point: number,
    client: HttpClient,
  ): Promise<void> {
    if (x.status === undefined) {
      // Sent, and no complete answer: the service may have stored it all the same.
      if (!x.error?.notSent)
        this.remember(r, { kind: 'lost', point, body, url: x.url, reason: `${answered(x)}` });
      return;
    }
    if (!is2xx(x)) return;
    const named = namedIds(x, r, this.basePath);
    const id = named.body ?? named.location;
    const refuse = (why: string): void => {
      const reason = `${answered(x)} naming ${why}`;
      this.adoptions.set(x, { kind: 'refused', reason });
      this.remember(r, { kind: 'refused', point, body, url: x.url, reason });
    };
    if (id === undefined) {
      const reason = `${answered(x)} but named no id${named.note ? ` (${named.note})` : ''}: the audit cannot delete it`;
      this.adoptions.set(x, { kind: 'no-id', reason });
      this.remember(r, { kind: 'no-id', point, body, url: x.url, reason });
      if (!this.named.has(r.name) && !this.noIds.has(r.name)) this.noIds.set(r.name, { reason, exchange: x });
      return;
    }
    if (!addressable(id)) {
      return refuse(
        `${r.idField} ${JSON.stringify(id)}, which no URL can address as one item (a "." or ".." path segment names another URL)`,
      );
    }
    for (const [name, where] of [
      [named.body, 'in its body'],
      [named.location, 'in its Location'],
    ] as const) {
      if (name !== undefined && !this.ours(r, name) && this.seen.seenBefore(r.name, name, point)) {
        return refuse(
          `${r.name} ${name} ${where}, an item that existed before this create (an earlier answer showed it): the service answered an existing item`,
        );
      }
    }
    const created: Created = {
      id,
      path: itemUrl(r, id)!,
      item: unwrapItem(x.json, r.idField),
      exchange: x,
    };
    if (this.ours(r, id)) {
      this.adoptions.set(x, { kind: 'ours', created });
      return;
    }
    if (!this.seen.whole(r.name)) {
      // The registry cannot vouch (no list operation, a collection longer than the audit reads,
      // more ids than it keeps): the item itself must show what was sent.
      const doubt = await this.doubt(client, r, created, body);
      if (doubt) return refuse(doubt);
    }
    this.ledger.add(r.name, created.path, body);
    this.noteAnswer(created.path, body, x, r);
    this.seen.forget(r.name, id);
    this.named.add(r.name);
    // Later creates no longer queue (creates already queued run on their own chain).
    this.queues.delete(r.name);
    this.adoptions.set(x, { kind: 'new', created });
    this.creations.note(r.name, created.path, id, x, named.body === id, r.idField);
  }

  /**
   * Why the named item is not the one just created, from one GET (read declared): it shows none of
   * the values sent and contradicts at least one. Undefined when it may be (or cannot be read).
   */
  private async doubt(
    client: HttpClient,
    r: ResourceConfig,
    created: Created,
    body: unknown,
  ): Promise<string | undefined> {
    if (body === undefined || !r.operations.includes('read')) return undefined;
    const read = await client.send({ method: 'GET', path: created.path, auth: 'full' }, r.name);
    if (!is2xx(read) || !read.isJson) return undefined;
    const { contradictions, agreed } = compareWritten([body], read.json, r.idField, this.config.ignoreFields);
    if (contradictions.length === 0 || agreed > 0) return undefined;
    return `${r.name} ${created.id}, an item that holds none of the values sent (GET ${created.path}: ${contradictions.join('; ')}): the service answered an existing item`;
  }

  /** True when the audit created the item at this path and a DELETE of it succeeded since. */
  deletedByAudit(path: string): boolean {
    return this.ledger.get(path)?.deleted === true;
  }

  /** True when the ledger holds this item as created by the audit and not yet deleted. */
  private ours(r: ResourceConfig, id: string): boolean {
    const path = itemUrl(r, id);
    const entry = path === undefined ? undefined : this.ledger.get(path);
    return entry !== undefined && !entry.deleted;
  }

  private remember(r: ResourceConfig, create: Unaccounted): void {
    const list = this.unaccounted.get(r.name) ?? [];
    this.unaccounted.set(r.name, list);
    if (list.length < MAX_UNACCOUNTED) list.push(create);
    else this.overflow.set(r.name, (this.overflow.get(r.name) ?? 0) + 1);
  }
}

/**
 * The ids a create's answer names: from its body (`createdIdFrom` as a JSON pointer, else the id
 * field, bare, enveloped or in a one-element array), and from its Location when that is on the
 * audit's origin and a URL of the item template (its path or its query names the id). With
 * `createdIdFrom: location` only the Location counts. A Location on another origin names nothing.
 */
function namedIds(
  x: Exchange,
  r: ResourceConfig,
  basePath: string,
): { body?: string; location?: string; note?: string } {
  const from = r.createdIdFrom;
  const pointed = from?.startsWith('/') ? scalarId(pointerGet(x.json, from)) : undefined;
  const body =
    from === 'location'
      ? undefined
      : from?.startsWith('/')
        ? pointed
        : idOf(unwrapItem(x.json, r.idField), r.idField);
  const bodyNote =
    from?.startsWith('/') && pointed === undefined
      ? `createdIdFrom ${from} matches no id in its body`
      : undefined;
  const header = x.headers.location;
  if (!header) return { body, ...(bodyNote ? { note: bodyNote } : {}) };
  let target: URL;
  try {
    target = new URL(header, x.url);
  } catch {
    return { body, note: `its Location ${JSON.stringify(header)} is not a URL` };
  }
  if (target.origin !== new URL(x.url).origin) {
    return { body, note: `its Location is on another origin (${target.origin}), which names nothing here` };
  }
  const shown = target.pathname + target.search;
  const relative = target.pathname.startsWith(`${basePath}/`)
    ? target.pathname.slice(basePath.length)
    : undefined;
  const id =
    relative === undefined ? undefined : matchTemplate(itemTemplate(r), relative, target.searchParams)?.[ID];
  if (id === undefined)
    return { body, note: `its Location ${shown} is not an item URL of ${r.name} (${itemTemplate(r)})` };
  return { body, location: id };
}

/** An id read by a JSON pointer: a non-empty string or a finite number, as a string. */
function scalarId(value: unknown): string | undefined {
  if (typeof value === 'string' && value.length > 0) return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** The JSON a request carried: `json`, else the raw body when it parses. */
function bodyOf(options: SendOptions): unknown {
  if (options.json !== undefined) return options.json;
  if (options.body === undefined) return undefined;
  try {
    return JSON.parse(options.body.toString()) as unknown;
  } catch {
    return undefined;
  }
}
