// The context a check runs with: sending, test data, state comparison, time, verdicts (the engine implements it).
import type { Adoption, Created, Exchange, Failure, PinnedConnection, SendOptions } from './check.js';
import type {
  AuditConfig,
  Evidence,
  Operation,
  ResourceConfig,
  Secret,
  WebhookReceiverConfig,
} from './types.js';
import type { Snapshot, StateDiff, StateWatch } from './state.js';

/**
 * The run's time, as the client waits it (429 pauses, --max-rps spacing) and checks read it:
 * the wall clock in a run, a fake one in tests.
 */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or rejects when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * The context of every active check. `M` is the check's message ids (see `CheckBase.messages`):
 * `fail` accepts only those.
 */
export interface CheckContext<M extends string = string> {
  config: AuditConfig;
  /** The resource under test for resource checks (see `ResourceCheckContext`); undefined for API-wide checks. */
  resource: ResourceConfig | undefined;
  readOnly: boolean;
  /** The user's cap on the audit's request rate (--max-rps), when set. */
  maxRps?: number;
  /** Aborted when the run is interrupted: stop sending. */
  signal: AbortSignal;
  /**
   * The run's clock: checks read the time and wait with it, never with `Date.now()` or timers of
   * their own, so tests run them on a fake clock (no real sleeps). `sleep` rejects when the signal
   * given aborts.
   */
  clock: Clock;
  /** Sends one request through the audit's client (time-outs, caps, 429 back-off, evidence). */
  send(options: SendOptions): Promise<Exchange>;
  /**
   * Runs `fn` on every item together, at most --concurrency at once, and answers the results in
   * the items' order: the way to send requests that do not depend on each other's answers.
   */
  together<T, R>(items: readonly T[], fn: (item: T, index: number) => Promise<R>): Promise<R[]>;
  /** Opens a keep-alive connection of the check's own, for probes that need requests on one socket. */
  pinConnection(): PinnedConnection;
  /**
   * Evidence of a request the check judged without sending it (a path whose shape alone breaks
   * the rule): the request as it would go, a curl line that sends it, and the note "not sent: why".
   */
  notSent(request: { method?: string; path: string }, why: string): Evidence;
  /**
   * Registers a value derived from a secret (e.g. the token with a character changed) so that no
   * report shows it; give `shell` so curl lines can rebuild it (`${CONFORMANCE_TOKEN%?}x`).
   */
  addSecret(secret: Secret): void;
  /** Path of the resource's collection (relative to the base URL); default the resource under test. */
  collectionPath(resource?: ResourceConfig): string;
  /**
   * Path of one item of the resource: the id percent-encoded as one path segment. Skips the check
   * for an id no URL can address as one item ("." or "..", also between slashes).
   */
  itemPath(id: string, resource?: ResourceConfig): string;
  /**
   * Whether the audit may make test data in the resource (default the resource under test): it
   * declares the create operation, has a sample payload, and the run is not `--read-only`.
   * `create` skips the check with the reason when it may not.
   */
  canCreate(resource?: ResourceConfig): boolean;
  /**
   * Creates an item with the full token (default body: the resource's sample) and registers it
   * for cleanup. Skips the check when creating is impossible (see `canCreate`) or the service
   * does not answer 2xx with a usable id (create-answers-201 reports why).
   */
  create(options?: {
    body?: unknown;
    resource?: ResourceConfig;
    headers?: Record<string, string>;
  }): Promise<Created>;
  /**
   * What the audit made of the answer to a POST on a collection this check sent with `send`:
   * adopted as a new item, an item of the audit's own, refused (never touched), or naming no id.
   * Undefined for any other exchange, and for a create that got no complete answer.
   */
  creation(exchange: Exchange): Adoption | undefined;
  /**
   * The create whose 2xx answer named no id the audit could find, when one did in the resource
   * (default the resource under test): from then on the audit creates nothing more there (`create`
   * and `canCreate` say so), and checks that need no item of their own still run.
   */
  unnamedCreate(resource?: ResourceConfig): { reason: string; exchange: Exchange } | undefined;
  /**
   * Proves the resource's item URL shape is served before a check judges an unknown id there: a
   * known item (one the audit created, else one it creates when it may, else the first listed)
   * must answer 2xx, not an error object, at the item template. Undefined when proven; otherwise
   * why not ("the item URL /widgets/{id} is not served: a known item answered 404 (GET …)"), for
   * the check to skip with. Proven once per resource and run.
   */
  itemUrlServed(resource?: ResourceConfig): Promise<string | undefined>;
  /**
   * A payload of the config with its templates filled now: `{{unique}}` fresh, `{{id}}` with `id`
   * when given. `send` fills templates itself on every request (`{{id}}` from the item URL); a
   * check that must send the very same body twice (an idempotent retry) fills it once here.
   */
  payload(template: unknown, id?: string): unknown;
  /** An id that was never issued, shaped like the resource's ids and proven absent by a GET. */
  unknownId(resource?: ResourceConfig): Promise<string>;
  /** Tells the ledger the audit itself removed this item (so cleanup does not retry it). */
  markDeleted(path: string): void;
  /** Registers something else the audit created (e.g. a webhook subscription) for deletion at the end. */
  track(path: string, label: string): void;
  /** Reports something the audit created but cannot delete (no id, no Location): the report lists it. */
  leftover(label: string, url: string, reason: string): void;
  /**
   * Starts the audit's own webhook receiver (127.0.0.1 and any free port unless `where` says
   * otherwise); rejects when the address cannot be bound. The caller closes it.
   */
  webhookReceiver(where?: WebhookReceiverConfig): Promise<WebhookReceiverHandle>;
  /**
   * A value shared by every check of one run: the first caller computes it, later callers get the
   * same promise (e.g. one rate-limit burst that two checks judge). `compute` runs with the first
   * caller's context, so it returns data and never calls `fail`; a skip inside it skips every caller.
   */
  shared<T>(key: string, compute: () => Promise<T>): Promise<T>;
  /** Records a failure; the check goes on unless it returns. Several failures make one failed result. */
  fail(failure: Failure<M>): void;
  /** Ends the check as skipped with this reason (throws a `SkipSignal` the engine catches). */
  skip(reason: string): never;
}

/** The context of a check run once per resource (`own-items`, `compares-collection`): the resource is always set. */
export interface ResourceCheckContext<M extends string = string> extends CheckContext<M> {
  resource: ResourceConfig;
  /** Requires the resource to declare these operations; skips otherwise. */
  requireOperations(...operations: Operation[]): void;
  /**
   * Up to `n` items of the resource to work on: created by the audit when it may (`canCreate`),
   * else the first ones the collection lists (the audit never changes those: read them only).
   * Skips the check when it finds fewer than `atLeast` (default 1), saying why none could be had.
   */
  items(n: number, options?: { atLeast?: number }): Promise<ItemToWorkOn[]>;
  /** The one way to compare the resource's state around a request (see `StateService`). */
  state: StateService;
}

/** An item a check works on (see `ResourceCheckContext.items`). */
export interface ItemToWorkOn {
  id: string;
  /** Item path relative to the base URL. */
  path: string;
  /** `created` by the audit (it may change and delete it) or `listed` by the collection (read only). */
  origin: 'created' | 'listed';
  /** The create's answer, for created items. */
  created?: Created;
}

/**
 * Snapshot, act, snapshot: reads the resource's state with the full token before and after a
 * request and says what changed, the same way for every check that compares state.
 *
 * - Server-managed fields (createdAt, updatedAt, etags, revisions, the config's ignoreFields) are
 *   left out or counted as CONVENTIONS.md says for the running check's rule (`MANAGED_FIELDS` in
 *   src/core/state.ts; a rule missing there makes `compare` throw, so the check errors loudly).
 * - The read-noise rule, applied once here: when members changed, the same state is read once
 *   more, and members that this mere re-read changes too (a view counter: IDEM-GET's finding) are
 *   not an effect of the request.
 * - A read cut short (no complete answer, body cut at the cap, undecodable) makes the diff
 *   `incomparable` ("could not compare: …"), never a change.
 * - Existence is judged by status and body: a 2xx whose body is an error object is no item.
 */
export interface StateService {
  /** Reads what `watch` names (the collection's first page, the items), at once. */
  read(watch: StateWatch): Promise<Snapshot>;
  /**
   * What changed from `before` to `after`, two snapshots of the same watch (see above); members
   * named in `alsoIgnore` count as server-managed too (where the rule leaves those out).
   */
  compare(before: Snapshot, after: Snapshot, alsoIgnore?: Iterable<string>): Promise<StateDiff>;
  /**
   * Sends independent steps together and tells what each one changed, as if they had gone one at
   * a time with the state read around each (see `Batch`): the state is read once after the batch,
   * and only when it changed are the steps run again one by one (after `fresh`) to attribute it.
   */
  batch<T, R>(steps: readonly T[], batch: Batch<T, R>): Promise<BatchResult<T, R>>;
}

/** How `StateService.batch` runs a check's steps (a step: one request, or a few that belong together). */
export interface Batch<T, R> {
  /** What to read around the steps; asked again after `fresh` and `renew`, which may change it. */
  watch: () => StateWatch;
  /** The state before the first step, when the check has it already (default: read now). */
  from?: Snapshot;
  /** Sends one step. The steps of a batch go out together: none may depend on another's answer. */
  send: (step: T) => Promise<R>;
  /**
   * Whether a step's result calls for the state to be compared after it (default: every one). When
   * none does, the state is not read at all and the steps carry no diff.
   */
  compares?: (step: T, result: R) => boolean;
  /**
   * Which steps run again one by one when the batch changed the state (default: those that
   * compare). The others keep their answer from the batch and carry no diff: a step whose effect
   * is no finding of its own (an accepted request the check fails anyway) is not sent twice, so a
   * service that stores what it should have refused is not left with two copies.
   */
  rerun?: (step: T, result: R) => boolean;
  /**
   * Before the steps are run again one by one: make what they go to as new (a fresh item), since
   * the batch changed it. The steps must read what they go to when they are sent.
   */
  fresh?: () => Promise<void>;
  /** After a step run alone: true when it made a new item to go to (then the state is read anew). */
  renew?: (after: Snapshot, rest: readonly T[]) => Promise<boolean>;
}

/** What `StateService.batch` found: each step's result and what that step alone changed. */
export interface BatchResult<T, R> {
  steps: Array<{ step: T; result: R; diff?: StateDiff }>;
  /** The state read last: the `from` of what follows. */
  last: Snapshot;
  /** When the steps were run again one by one: what the batch together changed (items it left). */
  together?: StateDiff;
}

/** One request the audit's webhook receiver got, as it arrived (the raw bytes are what a signature covers). */
export interface Delivery {
  /** Order of arrival, from 1. */
  seq: number;
  receivedAt: number;
  method: string;
  /** Request target as sent (path and query). */
  target: string;
  /** Header names lower-cased; repeated headers joined with ', '. */
  headers: Record<string, string>;
  /** The raw body (cut at the cap, see `truncated`). */
  body: Buffer;
  text: string;
  /** Parsed JSON, or undefined when the body is empty or not JSON. */
  json: unknown;
  isJson: boolean;
  truncated: boolean;
}

/** The audit's webhook receiver as a check uses it (see `CheckContext.webhookReceiver`). */
export interface WebhookReceiverHandle {
  /** The URL to subscribe at the service ({{receiverUrl}}). */
  readonly url: string;
  /** The deliveries kept, in order of arrival (see `dropped` for those that were not). */
  deliveries(): readonly Delivery[];
  /** Deliveries not kept (past the receiver's limits): counted, with their body bytes. */
  dropped(): { count: number; bytes: number };
  /** The sequence number of the latest delivery (0 when none): pass it as `since` to wait for newer ones. */
  mark(): number;
  /**
   * The first delivery after `since` that `accept` takes, as soon as there is one; undefined when
   * none arrives within `timeoutMs` or the signal aborts.
   */
  waitFor(
    accept: (delivery: Delivery) => boolean,
    options: { since: number; timeoutMs: number; signal?: AbortSignal },
  ): Promise<Delivery | undefined>;
  /** A delivery as report evidence (secrets redacted, a curl line that replays it); works after `close`. */
  evidence(delivery: Delivery): Evidence;
  /** Stops listening; pending waits resolve with undefined. */
  close(): Promise<void>;
}
