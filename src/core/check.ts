// The check API: what a check declares and the context it runs with (model: ESLint rule meta + create).
import type { AuditConfig, Evidence, Operation, ResourceConfig, Secret, Severity } from './types.js';
import type { TransportError } from './transport-errors.js';

/** Which credential a request carries. A `{ authorization }` object sends that header value as-is. */
export type AuthChoice = 'full' | 'limited' | 'none' | { authorization: string };

export interface SendOptions {
  method: string;
  /** A path relative to the base URL ('/widgets/1'), or an absolute URL. */
  path: string;
  /** Credential to send (default 'full'). */
  auth?: AuthChoice;
  headers?: Record<string, string>;
  /** A JSON body: serialised, with `Content-Type: application/json` unless `contentType` says otherwise. */
  json?: unknown;
  /** A raw body sent byte for byte (for malformed payloads). */
  body?: string | Buffer;
  /** Content-Type to send with `body`/`json`; null sends none. */
  contentType?: string | null;
  /** On a 429, wait as told and retry (default true). Rate-limit checks turn it off. */
  retryOn429?: boolean;
  /** Per-request deadline override (ms). */
  timeoutMs?: number;
  /** 'fresh' opens a new connection for this request instead of the shared keep-alive pool. */
  connection?: 'shared' | 'fresh';
}

/** A sender bound to one keep-alive connection of its own (see `CheckContext.pinConnection`). */
export interface PinnedConnection {
  /** Sends over this connection only, one request at a time (`connection: 'fresh'` is ignored). */
  send(options: SendOptions): Promise<Exchange>;
  /**
   * Sockets opened so far: 1 means every request went over the same connection; more means the
   * server closed it in between (and so cannot have remembered it).
   */
  readonly connectionsOpened: number;
  /** Closes the connection (the engine also closes it when the run ends). */
  close(): Promise<void>;
}

/** `Exchange.jsonProblem` of a complete body that is simply not JSON: still comparable as text. */
export const NOT_JSON = 'does not parse as JSON';
/** `Exchange.jsonProblem` of a complete body that is not UTF-8: still comparable as text. */
export const NOT_UTF8 = 'is not valid UTF-8';

/** The result of one HTTP exchange, as a check sees it. */
export interface Exchange {
  method: string;
  url: string;
  /** Undefined when no complete response arrived (see `error`; the evidence still shows any headers). */
  status?: number;
  /** Response headers, names lower-cased; repeated headers joined with ', ' (set-cookie with '\n'). */
  headers: Record<string, string>;
  /** Body text (possibly truncated at the size cap). */
  text: string;
  /** Parsed JSON, or undefined when the body is empty or not JSON. */
  json: unknown;
  /** True when the body is non-empty and parsed as JSON. */
  isJson: boolean;
  /**
   * Why a complete, non-empty body is not usable JSON, completing "the body …": "does not parse
   * as JSON", "is not valid UTF-8", nested deeper than the audit parses, or compressed and not
   * decodable. Undefined when it parsed, is empty, was cut short, or is `undecoded`.
   */
  jsonProblem?: string;
  /** A Content-Encoding the audit does not decode: the body is as sent, and cannot be judged. */
  undecoded?: string;
  /** Media type of the response without parameters, lower-cased ('' when absent). */
  mediaType: string;
  truncated: boolean;
  durationMs: number;
  /** Transport failure: time-out, reset, body cap, refused redirect... */
  error?: TransportError;
  /** Resource the exchange was sent for (set by the engine). */
  resource?: string;
  /** The redacted record of this exchange, with its curl line. */
  evidence: Evidence;
}

/** A resource the audit created (and the ledger will delete at the end). */
export interface Created {
  id: string;
  /** Item path relative to the base URL. */
  path: string;
  /** The item as the create answer returned it (unwrapped from any envelope), if any. */
  item: Record<string, unknown> | undefined;
  exchange: Exchange;
}

/** What the audit made of a create's answer (see `CheckContext.creation`). */
export type Adoption =
  /** A new item: registered for cleanup; the audit may change and delete it. */
  | { kind: 'new'; created: Created }
  /** An item the audit created earlier (an idempotent replay, or a service answering an old item). */
  | { kind: 'ours'; created: Created }
  /**
   * The answer names an item the audit did not create (one an earlier answer showed, so it
   * existed before), or an id no URL can address as one item: the audit never touches it.
   */
  | { kind: 'refused'; reason: string }
  /** A 2xx that names no usable id (none in the body, no Location on this origin naming an item). */
  | { kind: 'no-id'; reason: string };

export interface Failure {
  message: string;
  evidence?: Array<Exchange | Evidence>;
  /** Defaults to the check's severity. */
  severity?: Severity;
}

export interface CheckContext {
  config: AuditConfig;
  /** The resource under test (resource-scoped checks); undefined for API-wide checks. */
  resource: ResourceConfig | undefined;
  readOnly: boolean;
  /** The user's cap on the audit's request rate (--max-rps), when set. */
  maxRps?: number;
  /** Aborted when the run is interrupted: stop sending. */
  signal: AbortSignal;
  /** Sends one request through the audit's client (time-outs, caps, 429 back-off, evidence). */
  send(options: SendOptions): Promise<Exchange>;
  /** Opens a keep-alive connection of the check's own, for probes that need requests on one socket. */
  pinConnection(): PinnedConnection;
  /**
   * Registers a value derived from a secret (e.g. the token with a character changed) so that no
   * report shows it; give `shell` so curl lines can rebuild it (`${CONFORMANCE_TOKEN%?}x`).
   */
  addSecret(secret: Secret): void;
  /** Path of the resource's collection (relative to the base URL). */
  collectionPath(resource?: ResourceConfig): string;
  /**
   * Path of one item of the resource: the id percent-encoded as one path segment. Skips the check
   * for an id no URL can address as one item ("." or "..", also between slashes).
   */
  itemPath(id: string, resource?: ResourceConfig): string;
  /**
   * Creates an item with the full token (default body: the resource's sample) and registers it
   * for cleanup. Skips the check when creating is impossible (no create operation, no sample)
   * and fails it when the service does not answer 2xx with a usable id.
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
  /** An id that was never issued, shaped like the resource's ids and proven absent by a GET. */
  unknownId(resource?: ResourceConfig): Promise<string>;
  /** Tells the ledger the audit itself removed this item (so cleanup does not retry it). */
  markDeleted(path: string): void;
  /** Registers something else the audit created (e.g. a webhook subscription) for deletion at the end. */
  track(path: string, label: string): void;
  /** Reports something the audit created but cannot delete (no id, no Location): the report lists it. */
  leftover(label: string, url: string, reason: string): void;
  /**
   * A value shared by every check of one run: the first caller computes it, later callers get the
   * same promise (e.g. one rate-limit burst that two checks judge). `compute` runs with the first
   * caller's context, so it returns data and never calls `fail`; a skip inside it skips every caller.
   */
  shared<T>(key: string, compute: () => Promise<T>): Promise<T>;
  /** Records a failure; the check goes on unless it returns. Several failures make one failed result. */
  fail(failure: Failure): void;
  /** Ends the check as skipped with this reason (throws a signal the engine catches). */
  skip(reason: string): never;
  /** Requires the resource to declare these operations; skips otherwise. */
  requireOperations(...operations: Operation[]): void;
}

export interface CheckDescription {
  /** What the check sends. */
  sends: string;
  /** What passes. */
  passes: string;
  /** Why it matters to the API's clients. */
  why: string;
}

interface CheckBase {
  /** Kebab-case id, equal to the file name under suites/<suite>/. */
  id: string;
  /** Rule ids from CONVENTIONS.md; never empty. */
  rules: string[];
  /** The suite (folder) the check belongs to. */
  suite: string;
  title: string;
  severity: Severity;
  description: CheckDescription;
}

/** A check that sends its own requests. */
export interface ActiveCheck extends CheckBase {
  kind: 'active';
  /** 'resource': run once per declared resource; 'api': once per run. */
  scope: 'resource' | 'api';
  /** True when it may change state: skipped under --read-only. */
  mutates: boolean;
  /** Run last and alone (e.g. the rate-limit burst). */
  exclusive?: boolean;
  /**
   * Which collections it may change, so the scheduler never runs it beside a check that compares
   * their state. Default: its own resource for resource scope; every resource for mutating API checks.
   */
  touches?: 'own' | 'all' | 'none';
  /**
   * 'shared': it only adds and changes items of its own and compares nothing beyond them, so it
   * may run beside other shared checks of the same resource (never beside an exclusive one).
   * Default 'exclusive': it compares a collection's state (or removes items), so it runs alone.
   */
  isolation?: 'shared' | 'exclusive';
  run(ctx: CheckContext): Promise<void>;
}

/**
 * What an observer's `inspect` returns for an exchange it has nothing to say about either way
 * (a 200 for the 401 observer): it does not count as judged, so an observer that judged nothing
 * on a resource is skipped with its `nothingToJudge` reason instead of passing on nothing.
 */
export const NOT_JUDGED: unique symbol = Symbol('not judged');

/** What an observer says about one exchange it dislikes. */
export interface Finding {
  message: string;
  severity?: Severity;
}

/** Exchanges an observer filed under one key (see `ObserverCheck.group`). */
export interface ExchangeGroup {
  key: string;
  count: number;
  /** Distinct statuses seen, ascending. */
  statuses: number[];
  /** Distinct resource names ('' for API-wide traffic), in order of first appearance. */
  resources: string[];
  /** Evidence of the first few exchanges filed under the key. */
  evidence: Evidence[];
}

/** A finding about the run as a whole, with its own evidence; placed on `resource` (default: API-wide). */
export interface SummaryFinding extends Finding {
  evidence: Evidence[];
  resource?: string;
}

/**
 * A check that judges every exchange the audit makes (e.g. "no 5xx"): it sends nothing.
 * The engine feeds it each exchange and groups its findings by resource.
 */
export interface ObserverCheck extends CheckBase {
  kind: 'observer';
  /**
   * Judges one exchange: a finding when it breaks the rule, undefined when it keeps it, NOT_JUDGED
   * when it is not the kind of exchange the rule is about.
   */
  inspect(exchange: Exchange, config: AuditConfig): Finding | typeof NOT_JUDGED | undefined;
  /**
   * Why a resource's result is skipped when responses came but none of them was judged, e.g.
   * "no 401 was answered".
   */
  nothingToJudge?: string;
  /**
   * Why the observer has nothing to judge for a resource (undefined: API-wide traffic), e.g. no
   * schema declared: its result is then skipped with this reason instead of passing vacuously.
   */
  skipReason?(resource: ResourceConfig | undefined, config: AuditConfig): string | undefined;
  /**
   * For rules judged across the whole run ("one error shape across the API"): files an exchange
   * under a key of the observer's choosing (undefined: not filed). The engine keeps only a count,
   * the statuses, the resources and a little evidence per key, so memory stays bounded.
   */
  group?(exchange: Exchange, config: AuditConfig): string | undefined;
  /** Called once at the end of the run with the groups `group` made; its findings join the results. */
  summarise?(groups: ExchangeGroup[], config: AuditConfig): SummaryFinding[];
}

export type Check = ActiveCheck | ObserverCheck;

/** Identity function that gives a check its type (and a place for future validation). */
export function defineCheck<T extends Check>(check: T): T {
  return check;
}
