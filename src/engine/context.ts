// The context a check runs with: sending through the shared client, creating test data, verdicts.
import type { Invocation } from '../core/reproduce.js';
import { randomUUID } from 'node:crypto';
import {
  SkipSignal,
  type ActiveCheck,
  type Adoption,
  type CheckContext,
  type Clock,
  type Created,
  type Exchange,
  type Failure,
  type ItemToWorkOn,
  type PinnedConnection,
  type ResourceCheckContext,
  type SendOptions,
  type WebhookReceiverHandle,
} from '../core/check.js';
import type {
  AuditConfig,
  Evidence,
  Operation,
  ResourceConfig,
  Secret,
  WebhookReceiverConfig,
} from '../core/types.js';
import { deepEqual, idOf, listIds, unwrapItem } from '../core/shapes.js';
import { byQuery, itemTemplate, itemUrl } from '../core/addressing.js';
import { existence } from '../core/error-body.js';
import { SAFE_METHODS } from '../core/methods.js';
import { hasTemplate, renderPayload, renderText, uniqueValue } from '../core/payloads.js';
import { requestLine, statusText } from '../core/verdicts.js';
import type { HttpClient } from '../http/client.js';
import { curlLine } from '../http/curl.js';
import type { Ledger } from './ledger.js';
import type { Custody } from './custody.js';
import { StateReader } from './state-service.js';
import { together } from './schedule.js';
import { deliveryEvidence, WebhookReceiver } from './webhook-receiver.js';

export { SkipSignal };

export interface ContextDeps {
  config: AuditConfig;
  client: HttpClient;
  ledger: Ledger;
  /** What the audit created and may touch; sees every request a check sends. */
  custody: Custody;
  readOnly: boolean;
  maxRps?: number;
  signal: AbortSignal;
  /** Values shared by the checks of one run (see CheckContext.shared). */
  shared?: Map<string, Promise<unknown>>;
  /** The run's clock (the client's too). */
  clock: Clock;
  /** Nested resources that do not run, and why (see bindNested). */
  unbound?: Map<string, string>;
  /** How the audit was started: each failure's command to run its check again is built from it. */
  invocation?: Invocation;
  /** The most requests one check sends together (`together`, `state.batch`): see `batchWidth` in run.ts. */
  width?: () => number;
}

/** Per-task context; collects failures for the engine to turn into a result. */
export class TaskContext implements CheckContext {
  readonly failures: Failure[] = [];
  readonly config: AuditConfig;
  readonly readOnly: boolean;
  readonly maxRps: number | undefined;
  readonly signal: AbortSignal;
  readonly clock: Clock;

  constructor(
    private readonly deps: ContextDeps,
    readonly check: ActiveCheck,
    readonly resource: ResourceConfig | undefined,
  ) {
    this.config = deps.config;
    this.readOnly = deps.readOnly;
    this.maxRps = deps.maxRps;
    this.signal = deps.signal;
    this.clock = deps.clock;
  }

  async send(options: SendOptions): Promise<Exchange> {
    return this.through(options, (o) => this.deps.client.send(o, this.resource?.name));
  }

  together<T, R>(items: readonly T[], fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
    return together(items, this.deps.width ?? 8, fn);
  }

  pinConnection(): PinnedConnection {
    const pinned = this.deps.client.pin();
    const resource = this.resource?.name;
    return {
      send: (options) => this.through(options, (o) => pinned.send(o, resource)),
      get connectionsOpened() {
        return pinned.connectionsOpened;
      },
      close: () => pinned.close(),
    };
  }

  /**
   * Sends one request of the check. Before the first create on a resource its collection is read
   * (so every id it held is known); each answer then goes to custody before the check sees it, so
   * that a created item is in the ledger even if the check stops right after.
   */
  private async through(
    options: SendOptions,
    sender: (options: SendOptions) => Promise<Exchange>,
  ): Promise<Exchange> {
    this.guard(options);
    const custody = this.deps.custody;
    this.refuseBareWrite(options);
    const target = custody.targetOf(this.deps.client.resolve(options.path));
    const creates = target !== undefined && target.id === undefined && this.createsItem(target.r, options);
    options = this.filled(options, target?.id);
    if (options.method.toUpperCase() === 'POST') {
      if (target && target.id === undefined) {
        await custody.prime(target.r, this.deps.client);
        if (creates) {
          const r = target.r;
          return custody.createInTurn(r.name, () => {
            const blocked = custody.noIdReason(r.name);
            if (blocked) this.skip(noMoreCreates(r, blocked));
            return this.sendOne(options, sender);
          });
        }
      }
    }
    return this.sendOne(options, sender);
  }

  /**
   * Whether a POST would make an item on a service that works: a valid payload (the sample or the
   * replacement) as JSON with the full token. Malformed and refused probes are not creates.
   */
  private createsItem(r: ResourceConfig, options: SendOptions): boolean {
    const full = options.auth === undefined || options.auth === 'full';
    const json = options.json;
    if (options.creates === true) return true;
    return (
      full &&
      options.contentType === undefined &&
      json !== undefined &&
      (this.deps.custody.isPayload(json) || deepEqual(json, r.sample) || deepEqual(json, r.replace))
    );
  }

  /** The request with the payload templates of its body filled (`{{id}}`: the id its URL names). */
  private filled(options: SendOptions, id: string | undefined): SendOptions {
    const fill = { id, unique: uniqueValue() };
    if (options.json !== undefined && hasTemplate(options.json)) {
      const json = renderPayload(options.json, fill);
      this.deps.custody.notePayload(json);
      return { ...options, json };
    }
    if (typeof options.body === 'string' && hasTemplate(options.body))
      return { ...options, body: renderText(options.body, fill) };
    return options;
  }

  payload(template: unknown, id?: string): unknown {
    if (!hasTemplate(template)) return template;
    const json = renderPayload(template, { id, unique: uniqueValue() });
    this.deps.custody.notePayload(json);
    return json;
  }

  /** Sends one request and hands its answer to custody before the check sees it. */
  private async sendOne(
    options: SendOptions,
    sender: (options: SendOptions) => Promise<Exchange>,
  ): Promise<Exchange> {
    const custody = this.deps.custody;
    const point = custody.seen.mark();
    const exchange = await sender(options);
    if (options.json !== undefined) exchange.sent = options.json;
    await custody.settle(exchange, options, point, this.deps.client);
    return this.settle(exchange, options);
  }

  /**
   * A PUT, PATCH or DELETE to the bare collection URL of a resource whose items are addressed by a
   * query filter would act on every item (PostgREST's `DELETE /widgets` empties the table): never sent.
   */
  private refuseBareWrite(options: SendOptions): void {
    const method = options.method.toUpperCase();
    if (!['PUT', 'PATCH', 'DELETE'].includes(method)) return;
    const target = this.deps.custody.targetOf(this.deps.client.resolve(options.path));
    if (target && target.id === undefined && byQuery(itemTemplate(target.r))) {
      this.skip(
        `not sent: ${method} ${options.path} names no item of ${target.r.name} (its items are ${itemTemplate(target.r)}) and could act on all of them`,
      );
    }
  }

  creation(exchange: Exchange): Adoption | undefined {
    return this.deps.custody.adoption(exchange);
  }

  addSecret(secret: Secret): void {
    this.deps.client.redactor.add(secret);
  }

  /** Stops sending once interrupted; under --read-only, refuses writes that carry a working credential. */
  private guard(options: SendOptions): void {
    if (this.signal.aborted) this.skip('not finished: the audit was interrupted');
    const stopped = this.deps.client.stoppedAnswering;
    if (stopped) this.skip(`not finished: ${stopped}`);
    const method = options.method.toUpperCase();
    if (this.readOnly && !SAFE_METHODS.has(method) && this.carriesToken(options)) {
      this.skip(`--read-only: this check needs to send ${method} with credentials`);
    }
  }

  /**
   * Ends the check as skipped when it cannot judge what came back: a request never sent (the service
   * stopped answering), one cut short by an interruption, or a 429 that outlasted the client's bounded
   * waits (the service's rate limit, not the rule under test, refused it: no false failure).
   */
  private settle(exchange: Exchange, options: SendOptions): Exchange {
    const error = exchange.error;
    if (exchange.status === 429 && options.retryOn429 !== false && !this.signal.aborted) {
      this.skip(
        `rate-limited: ${requestLine(exchange)} was still answered 429 after the audit waited as the service said (bounded), so this check could not be judged`,
      );
    }
    if (error?.code === 'E_SERVICE_DOWN') this.skip(`not finished: ${error.reason}`);
    // A request of a kind that hangs was not sent: what needed it is not judged (ERR-SERVER names them).
    if (error?.code === 'E_HANGS')
      this.skip(`not judged: ${requestLine(exchange)} was not sent: ${error.reason}`);
    if (error?.code === 'E_INTERRUPTED' && this.signal.aborted)
      this.skip('not finished: the audit was interrupted');
    return exchange;
  }

  /** Whether the Authorization sent holds a configured token (invalid credentials may write under --read-only). */
  private carriesToken(options: SendOptions): boolean {
    const header =
      Object.entries(options.headers ?? {}).find(([k]) => k.toLowerCase() === 'authorization')?.[1] ??
      this.deps.client.authorization(options.auth);
    const tokens = [this.config.auth.token, this.config.auth.limitedToken].filter((t): t is string => !!t);
    return header !== undefined && tokens.some((t) => header.includes(t));
  }

  collectionPath(resource?: ResourceConfig): string {
    const r = resource ?? this.requireResource();
    return r.path;
  }

  itemPath(id: string, resource?: ResourceConfig): string {
    const path = itemUrl(resource ?? this.requireResource(), id);
    if (path === undefined) {
      this.skip(
        `the service named an item ${JSON.stringify(id)}, which no URL can address as one item (a "." or ".." path segment names another URL)`,
      );
    }
    return path;
  }

  requireOperations(...operations: Operation[]): void {
    const r = this.requireResource();
    const missing = operations.filter((op) => !r.operations.includes(op));
    if (missing.length > 0)
      this.skip(
        `${r.name} does not declare the ${missing.join(', ')} operation${missing.length > 1 ? 's' : ''}`,
      );
  }

  canCreate(resource?: ResourceConfig): boolean {
    return this.createBlocker(resource ?? this.requireResource()) === undefined;
  }

  /** Why the audit may not make test data in the resource (with `body` as the payload), if it may not. */
  private createBlocker(r: ResourceConfig, body: unknown = r.sample): string | undefined {
    if (!r.operations.includes('create'))
      return `${r.name} does not declare the create operation, so the audit cannot make test data`;
    if (body === undefined) return `${r.name} has no sample payload to create test data with`;
    if (this.readOnly) return '--read-only: this check needs to create test data';
    const noId = this.deps.custody.noIdReason(r.name);
    if (noId !== undefined) return noMoreCreates(r, noId);
    return undefined;
  }

  async create(
    options: { body?: unknown; resource?: ResourceConfig; headers?: Record<string, string> } = {},
  ): Promise<Created> {
    const r = options.resource ?? this.requireResource();
    const body = options.body ?? r.sample;
    const blocker = this.createBlocker(r, body);
    if (blocker !== undefined) this.skip(blocker);
    const exchange = await this.send({ method: 'POST', path: r.path, json: body, headers: options.headers });
    const status = exchange.status ?? 0;
    if (status < 200 || status > 299) {
      this.skip(
        `could not create a test ${r.name} item: POST ${r.path} ${exchange.error ? `failed (${exchange.error.message})` : `answered ${status}`} (create-answers-201 reports why)`,
      );
    }
    const adoption = this.creation(exchange);
    if (adoption?.kind === 'refused') {
      this.skip(`could not create a test ${r.name} item: ${adoption.reason} (create-answers-201 reports it)`);
    }
    if (adoption?.kind === 'ours') {
      this.skip(
        `could not create a test ${r.name} item: POST ${r.path} answered ${adoption.created.id}, an item the audit had already created (create-answers-201 reports it)`,
      );
    }
    if (adoption?.kind !== 'new') {
      this.skip(
        `created a test ${r.name} item but found no "${r.idField}" in the answer and no usable Location header`,
      );
    }
    return adoption.created;
  }

  unnamedCreate(resource?: ResourceConfig): { reason: string; exchange: Exchange } | undefined {
    return this.deps.custody.unnamedCreate((resource ?? this.requireResource()).name);
  }

  itemUrlServed(resource?: ResourceConfig): Promise<string | undefined> {
    const r = resource ?? this.requireResource();
    return this.shared(`item-url-served:${r.name}`, async () => {
      try {
        return await this.itemUrlProblem(r);
      } catch (err) {
        if (err instanceof SkipSignal)
          return `could not prove the item URL ${itemTemplate(r)} is served: ${err.reason}`;
        throw err;
      }
    });
  }

  /** See `itemUrlServed`: one GET of a known item at the item template. */
  private async itemUrlProblem(r: ResourceConfig): Promise<string | undefined> {
    const template = itemTemplate(r);
    if (!r.operations.includes('read')) {
      return `could not prove the item URL ${template} is served: ${r.name} declares no read operation`;
    }
    // An item of the audit's own first: even a GET may change an item (a view counter), and the
    // audit reads items it did not create only when it cannot create one.
    let path = this.ownItem(r)?.path;
    if (path === undefined && this.canCreate(r)) {
      try {
        path = (await this.create({ resource: r })).path;
      } catch (err) {
        // A create that names no id (or is refused): a listed item still proves the URL shape.
        if (!(err instanceof SkipSignal)) throw err;
      }
    }
    if (path === undefined) {
      const [id] = await this.listedIds(r);
      if (id !== undefined) path = itemUrl(r, id);
    }
    if (path === undefined) {
      return `could not prove the item URL ${template} is served: no known ${r.name} item to read (none listed, and the audit cannot create one)`;
    }
    const read = await this.send({ method: 'GET', path });
    if (existence(read, r) === 'exists') return undefined;
    return `the item URL ${template} is not served: a known item answered ${statusText(read)} (${requestLine(read)}), so an unknown id answering 404 there proves nothing`;
  }

  async unknownId(resource?: ResourceConfig): Promise<string> {
    const r = resource ?? this.requireResource();
    const sample = this.ownItem(r)?.id ?? (await this.listedIds(r))[0];
    for (let attempt = 0; attempt < 3; attempt++) {
      const id = neverIssuedId(sample);
      const probe = await this.send({ method: 'GET', path: this.itemPath(id, r) });
      // Only an answer that really carries this id proves the id is taken; a 200 without it is the service's bug.
      if (probe.status !== 200 || idOf(unwrapItem(probe.json, r.idField), r.idField) !== id) return id;
    }
    this.skip(
      `could not find an id that ${r.name} does not hold (three random ids were all answered with a matching item)`,
    );
  }

  async items(n: number, options: { atLeast?: number } = {}): Promise<ItemToWorkOn[]> {
    const r = this.requireResource();
    const atLeast = options.atLeast ?? 1;
    if (this.canCreate(r)) {
      const out: ItemToWorkOn[] = [];
      for (let i = 0; i < n; i++) {
        const created = await this.create({ resource: r });
        out.push({ id: created.id, path: created.path, origin: 'created', created });
      }
      return out;
    }
    const why = this.createBlocker(r) as string;
    const listed = await this.listedIds(r);
    if (listed.length < atLeast) {
      const where = r.operations.includes('list')
        ? `the collection lists ${listed.length === 0 ? 'none' : `only ${listed.length}`} with a "${r.idField}"`
        : `${r.name} declares no list operation to find one in`;
      this.skip(
        `no ${r.name} item${atLeast > 1 ? 's' : ''} to work on: the audit cannot create one (${why}) and ${where}`,
      );
    }
    return listed.slice(0, n).map((id) => ({ id, path: this.itemPath(id, r), origin: 'listed' }));
  }

  /** The newest item the audit created in the resource and has not deleted: its path, and its id. */
  private ownItem(r: ResourceConfig): { path: string; id?: string } | undefined {
    const entry = this.deps.ledger.newestPending(r.name);
    if (!entry) return undefined;
    return { path: entry.path, id: this.deps.custody.targetOf(this.deps.client.resolve(entry.path))?.id };
  }

  /** The ids the collection's first page lists: none when it declares no list or does not answer 200 with one. */
  private async listedIds(r: ResourceConfig): Promise<string[]> {
    if (!r.operations.includes('list')) return [];
    const list = await this.send({ method: 'GET', path: r.path });
    return list.status === 200 ? (listIds(list.json, r.idField, r.name) ?? []) : [];
  }

  notSent(request: { method?: string; path: string }, why: string): Evidence {
    const client = this.deps.client;
    const method = request.method ?? 'GET';
    const url = client.resolve(request.path);
    return {
      request: { method, url: client.redactor.text(url), headers: {}, body: null },
      response: null,
      notes: [`not sent: ${why}`],
      curl: curlLine({ method, url, headers: {} }, client.redactor),
    };
  }

  async webhookReceiver(where: WebhookReceiverConfig = {}): Promise<WebhookReceiverHandle> {
    const receiver = await WebhookReceiver.start(where);
    const secrets = this.config.secrets;
    return {
      url: receiver.url,
      deliveries: () => receiver.deliveries(),
      dropped: () => receiver.dropped(),
      mark: () => receiver.mark(),
      waitFor: (accept, options) => receiver.waitFor(accept, options),
      evidence: (delivery) => deliveryEvidence(delivery, receiver.url, secrets),
      close: () => receiver.close(),
    };
  }

  markDeleted(path: string): void {
    this.deps.ledger.markDeleted(path);
  }

  track(path: string, label: string): void {
    this.deps.ledger.add(label, path);
  }

  leftover(label: string, url: string, reason: string): void {
    this.deps.ledger.addUntrackable(label, this.deps.client.redactor.text(url), reason);
  }

  shared<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const store = (this.deps.shared ??= new Map());
    let value = store.get(key) as Promise<T> | undefined;
    if (!value) {
      value = compute();
      store.set(key, value);
    }
    return value;
  }

  fail(failure: Failure): void {
    this.failures.push(failure);
  }

  skip(reason: string): never {
    throw new SkipSignal(reason);
  }

  protected requireResource(): ResourceConfig {
    if (!this.resource) throw new Error(`check ${this.check.id} is API-wide and named no resource`);
    return this.resource;
  }
}

/** The context of a check run once per resource: the resource is always set, with its state service. */
export class ResourceTaskContext extends TaskContext implements ResourceCheckContext {
  declare readonly resource: ResourceConfig;
  readonly state: StateReader;

  constructor(deps: ContextDeps, check: ActiveCheck, resource: ResourceConfig) {
    super(deps, check, resource);
    this.state = new StateReader(resource, deps.config, check.rules, (o) => this.send(o), deps.width);
  }
}

/** Why no more items are created in a resource whose creates name no id (see Custody.noIdReason). */
function noMoreCreates(r: ResourceConfig, why: string): string {
  return `the audit creates nothing more in ${r.name}: ${why} (set createdIdFrom to a JSON pointer or location; create-answers-201 reports it)`;
}

/** An id of the same shape as `sample` that no service would have issued. */
export function neverIssuedId(sample?: string): string {
  const rand = Math.floor(Math.random() * 40_000_000);
  if (sample === undefined || /^\d+$/.test(sample)) return String(2_100_000_000 + rand);
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(sample)) return randomUUID();
  if (/^[0-9a-f]{24}$/i.test(sample)) return randomUUID().replace(/-/g, '').slice(0, 24);
  const prefix = /^([a-z]+_)/i.exec(sample)?.[1] ?? '';
  return `${prefix}conformance0missing${rand}`;
}
