// The check API: what a check declares and the context it runs with (model: ESLint rule meta + create).
import type { AuditConfig, Evidence, HungKind, Operation, ResourceConfig, Severity } from './types.js';
import type { TransportError } from './transport-errors.js';
import type { CheckContext, ResourceCheckContext } from './context.js';
import type { ReproCheck } from './reproduce.js';

export type { ReproCheck } from './reproduce.js';

export type {
  Batch,
  BatchResult,
  CheckContext,
  Clock,
  Delivery,
  ItemToWorkOn,
  ResourceCheckContext,
  StateService,
  WebhookReceiverHandle,
} from './context.js';

/** Which credential a request carried: the configured full or limited one, none, or an invalid one of a check's own. */
export type CredentialKind = 'full' | 'limited' | 'none' | 'invalid';

/** "the full credential", "no credential"…: a credential kind in words. */
export function credentialWords(kind: CredentialKind): string {
  return kind === 'none'
    ? 'no credential'
    : kind === 'invalid'
      ? 'an invalid credential'
      : `the ${kind} credential`;
}

/**
 * Which credential a request carries. A `{ authorization }` object sends that Authorization header
 * value as-is (and no configured credential); a `{ credential }` object puts that value where the
 * configured scheme puts the credential (the whole header value, prefix included; the query
 * parameter's or the cookie's value).
 */
export type AuthChoice = 'full' | 'limited' | 'none' | { authorization: string } | { credential: string };

export interface SendOptions {
  method: string;
  /** A path relative to the base URL ('/widgets/1'), or an absolute URL. */
  path: string;
  /** Credential to send (default 'full'). */
  auth?: AuthChoice;
  /**
   * The operation whose configured headers and query parameters the request carries (default: the
   * one it imitates, from its method and whether it targets the collection: see http/decorate.ts).
   */
  operation?: Operation;
  headers?: Record<string, string>;
  /** A JSON body: serialised, with `Content-Type: application/json` unless `contentType` says otherwise. */
  json?: unknown;
  /** A raw body sent byte for byte (for malformed payloads). */
  body?: string | Buffer;
  /** Content-Type to send with `body`/`json`; null sends none. */
  contentType?: string | null;
  /** On a 429, wait as told and retry (default true). Rate-limit checks turn it off. */
  retryOn429?: boolean;
  /**
   * The request is one of a bounded burst of at most this many copies (the rate-limit burst): an
   * observer's finding about its answer is reproduced by sending the same burst (see `Exchange.burst`).
   */
  burst?: number;
  /** Per-request deadline override (ms). */
  timeoutMs?: number;
  /** 'fresh' opens a new connection for this request instead of the shared keep-alive pool. */
  connection?: 'shared' | 'fresh';
  /**
   * A POST that makes an item on a service that accepts it (beside valid payloads sent as `json`,
   * which count anyway): queued behind the resource's first create, and not sent (the check is
   * skipped) once creates there name no id.
   */
  creates?: boolean;
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
  /** What the request carried as body ("unparseable JSON", "no body"…; see `bodyKind`), set by the client. */
  bodyKind?: string;
  /** Which credential the request carried, set by the client. */
  credential?: CredentialKind;
  /**
   * Set by the client when the request was one of a bounded burst of at most this many copies
   * (`SendOptions.burst`): what its answer shows may need the requests before it.
   */
  burst?: number;
  /** The redacted record of this exchange, with its curl line. */
  evidence: Evidence;
  /**
   * The JSON body the audit sent, payload templates (`{{id}}`, `{{unique}}`) filled: what a
   * read-back is compared with. Set for requests a check sent with `json`.
   */
  sent?: unknown;
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

/**
 * One problem a check found. `messageId` names it among the check's declared `messages` (stable:
 * tests and tools match it); `message` is the wording users read, with the specifics.
 */
export interface Failure<M extends string = string> {
  messageId: NoInfer<M>;
  message: string;
  evidence?: Array<Exchange | Evidence>;
  /** Defaults to the check's severity. */
  severity?: Severity;
  /**
   * What the failure's reproduction script tests after replaying `evidence` in order (default: the
   * statuses the audit saw). Declare it when the proof is a value, a count or a header.
   */
  reproduce?: ReproCheck;
}

export interface CheckDescription {
  /** What the check sends. */
  sends: string;
  /** What passes. */
  passes: string;
  /** Why it matters to the API's clients. */
  why: string;
}

interface CheckBase<M extends string = string> {
  /** Kebab-case id, equal to the file name under suites/<suite>/. */
  id: string;
  /**
   * Every kind of problem the check reports, by stable id (camelCase) with a one-line description
   * (model: ESLint's `meta.messages`). Each failure and finding names one of them as `messageId`;
   * tests identify failures by id, so rewording a message breaks no test.
   */
  messages: Record<M, string>;
  /** Rule ids from CONVENTIONS.md; never empty. */
  rules: string[];
  /** The suite (folder) the check belongs to. */
  suite: string;
  title: string;
  severity: Severity;
  description: CheckDescription;
  /**
   * Checks this one relies on (ids): e.g. a check that tests an item it creates relies on
   * create-answers-201. When one of them failed on the same resource, the report puts that failure
   * first and says this one may follow from it.
   */
  dependsOn?: readonly string[];
  /**
   * The problems of this check (message ids) that may make a check depending on it fail: a failure
   * of a dependent follows from this check only when this check's result has one of them. Default:
   * every problem. create-answers-201 names a create refused or not readable back, not a 200 that
   * created the item (the dependents' items are made all the same).
   */
  causes?: readonly M[];
}

/**
 * How an active check may be scheduled: the one declaration the scheduler reads (locks, order,
 * once per resource or once per run). A check that compares state must not run beside one that
 * changes it; everything else may overlap.
 *
 * - `own-items`: once per resource. It changes (and reads) only items it created itself, or reads
 *   listed ones, and compares nothing beyond them: it may run beside other `own-items` checks of
 *   its resource (a shared lock), never beside a `compares-collection` one.
 * - `compares-collection`: once per resource. It compares the state of its collection (reads
 *   before and after a request, looks for items in the list) or removes items: it runs alone on
 *   its resource (an exclusive lock). Other resources are audited meanwhile.
 * - `api-read`: once per run. It changes no collection another check compares (reads, requests
 *   any server must refuse, at most an item in a collection that cannot be listed) and compares
 *   none: it runs beside anything.
 * - `api-writes`: once per run. It may change any collection (e.g. webhooks triggered by
 *   operations on several resources): it runs alone, holding every resource.
 * - `alone-last`: once per run, after every other check, one at a time (the rate-limit burst:
 *   nothing else may share the service's budget or be refused because of it).
 */
export type Schedule = ResourceSchedule | ApiSchedule;
/** The schedules of checks that run once per declared resource (see `Schedule`). */
export type ResourceSchedule = 'own-items' | 'compares-collection';
/** The schedules of checks that run once per run (see `Schedule`). */
export type ApiSchedule = 'api-read' | 'api-writes' | 'alone-last';

/** The schedules that run once per resource. */
export const RESOURCE_SCHEDULES: readonly ResourceSchedule[] = ['own-items', 'compares-collection'];

/**
 * What a check needs to write, which decides what `--read-only` does with it:
 * - `required`: it changes state to judge anything (creates, changes, deletes): skipped whole;
 * - `when-allowed`: it judges what it can without writing (reads listed items, sends only requests
 *   any server must refuse) and its writes are left out;
 * - `none`: it never sends a request that could change state.
 */
export type Writes = 'required' | 'when-allowed' | 'none';

interface ActiveBase<M extends string> extends CheckBase<M> {
  kind: 'active';
  /** See `Writes`: what `--read-only` does with the check. */
  writes: Writes;
}

/** An active check run once per declared resource: its context always names the resource. */
export interface ResourceCheck<M extends string = string> extends ActiveBase<M> {
  schedule: ResourceSchedule;
  run(ctx: ResourceCheckContext<M>): Promise<void>;
}

/** An active check run once per run (API-wide). */
export interface ApiCheck<M extends string = string> extends ActiveBase<M> {
  schedule: ApiSchedule;
  run(ctx: CheckContext<M>): Promise<void>;
}

/** A check that sends its own requests. */
export type ActiveCheck<M extends string = string> = ResourceCheck<M> | ApiCheck<M>;

/** True for a check run once per declared resource. */
export function isResourceCheck(check: ActiveCheck): check is ResourceCheck {
  return (RESOURCE_SCHEDULES as readonly string[]).includes(check.schedule);
}

/**
 * What an observer's `inspect` returns for an exchange it has nothing to say about either way
 * (a 200 for the 401 observer): it does not count as judged, so an observer that judged nothing
 * on a resource is skipped with its `nothingToJudge` reason instead of passing on nothing.
 */
export const NOT_JUDGED: unique symbol = Symbol('not judged');

/** What an observer says about one exchange it dislikes. */
export interface Finding<M extends string = string> {
  /** One of the observer's declared `messages` ids. */
  messageId: NoInfer<M>;
  message: string;
  severity?: Severity;
  /**
   * What the reproduction script of this finding tests on its exchange (default: the observer's
   * `reproduce`): the member and keyword a schema finding is about, a burst a 5xx answered within.
   */
  reproduce?: ReproCheck;
  /**
   * Exchanges the finding's exchange needed before it, replayed first by its script (the read of an
   * item that changed what a list shows): `reproduce` indexes them, the exchange comes last.
   */
  before?: Evidence[];
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

/** What the run learnt beyond single exchanges, handed to `ObserverCheck.summarise`. */
export interface RunFacts {
  /** Kinds of request that hung: two in a row got no answer in time, the rest were not sent. */
  hung: readonly HungKind[];
}

/** A finding about the run as a whole, with its own evidence; placed on `resource` (default: API-wide). */
export interface SummaryFinding<M extends string = string> extends Finding<M> {
  evidence: Evidence[];
  resource?: string;
}

/** What an observer keeps for one run: the engine makes one per observer per run. */
export interface RunMemory {
  /** The value kept under `key`, made by `make` the first time it is asked for. */
  remember<T>(key: object | string, make: () => T): T;
}

/**
 * A check that judges every exchange the audit makes (e.g. "no 5xx"): it sends nothing.
 * The engine feeds it each exchange and groups its findings by resource.
 */
export interface ObserverCheck<M extends string = string> extends CheckBase<M> {
  kind: 'observer';
  /**
   * Judges one exchange: a finding when it breaks the rule, undefined when it keeps it, NOT_JUDGED
   * when it is not the kind of exchange the rule is about. What it must remember between exchanges
   * goes in `memory`, this run's own: never in module state, which a second run with the same
   * config objects (a library caller's) would see.
   */
  inspect(
    exchange: Exchange,
    config: AuditConfig,
    memory: RunMemory,
  ): Finding<M> | typeof NOT_JUDGED | undefined;
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
  /**
   * What the reproduction script of a finding tests on its exchange (default: its status), unless
   * the finding declares its own `reproduce`.
   */
  reproduce?: ReproCheck;
  /** Called once at the end of the run with the groups `group` made; its findings join the results. */
  summarise?(groups: ExchangeGroup[], config: AuditConfig, facts: RunFacts): SummaryFinding<M>[];
  /**
   * How a result's message counts the findings of `summarise` ("2 kinds of request hung"); by
   * default "findings across the run".
   */
  summaryNoun?: { one: string; many: string };
}

export type Check<M extends string = string> = ActiveCheck<M> | ObserverCheck<M>;

/**
 * Thrown by `ctx.skip()` and caught by the engine (the check ends skipped with the reason). A check
 * that must go on after a part of it was skipped catches it (`err instanceof SkipSignal`).
 */
export class SkipSignal {
  constructor(readonly reason: string) {}
}

/**
 * Identity function that gives a check its type: its message ids are the keys of its `messages`,
 * so a `ctx.fail` or a finding naming an undeclared id does not compile.
 */
export function defineCheck<const M extends string, T extends Check<M>>(
  check: T & { messages: Record<M, string> },
): T {
  return check;
}
