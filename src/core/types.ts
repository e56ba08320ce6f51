// Shared data types: the resolved config, evidence, check results and the run result.

/** The six operations a resource can declare (CONTRACT.md, "Operations"). */
export type Operation = 'list' | 'read' | 'create' | 'replace' | 'update' | 'delete';
export const OPERATIONS: readonly Operation[] = ['list', 'read', 'create', 'replace', 'update', 'delete'];

/** Outcome of one check on one resource. `waived`: failed, but covered by an unexpired waiver. */
export type Status = 'passed' | 'failed' | 'skipped' | 'errored' | 'waived';
export type Severity = 'error' | 'warning';

/** A secret value and, when known, the environment variable it came from (used in curl lines). */
export interface Secret {
  value: string;
  /** Environment variable the value came from: curl lines say `$VAR` instead of the value. */
  envVar?: string;
  /**
   * A shell expression that rebuilds the value for curl lines, for values derived from a secret
   * (e.g. the token with its last character changed: `${API_TOKEN%?}x`).
   */
  shell?: string;
  /** Where the value is set, for messages about it (e.g. `auth.token`); never the value itself. */
  source?: string;
}

export interface ResourceConfig {
  name: string;
  /** Collection path relative to baseUrl, starting with '/'. */
  path: string;
  idField: string;
  operations: Operation[];
  sample?: unknown;
  replace?: unknown;
  update?: unknown;
  invalid: unknown[];
  /** JSON Schema of one item (already loaded), if declared. */
  schema?: Record<string, unknown>;
  forbidden: Operation[];
  idempotencyKey: boolean;
  // Shapes (issue 10a): how items are addressed and found, and nesting.
  /**
   * Item URL template relative to baseUrl, with `{id}` (and, for a nested resource, its ancestors'
   * `{name}`s): `/widgets/{id}/`, `/widgets?id=eq.{id}`. Absent: `<path without trailing slash>/{id}`
   * (use `itemTemplate` from core/addressing.ts).
   */
  item?: string;
  /** Where a create's answer names the new item: a JSON pointer into its body, or `location`. */
  createdIdFrom?: string;
  /** The resource this one is nested under (its items' ids fill the ancestors' placeholders). */
  parent?: string;
  /** An existing parent's id, used only for reads under `--read-only`. */
  parentId?: string;
  /** Headers and query parameters of this resource's requests, per operation (see `RequestExtras`). */
  requests?: ResourceRequests;
}

/** Headers (names lower-cased) and query parameters added to some requests (config `headers:`/`query:`). */
export interface RequestExtras {
  headers: Record<string, string>;
  query: Record<string, string>;
}

/**
 * A resource's request settings, already merged (top level < resource < reads/writes < operation):
 * what a request imitating each operation carries, and the media type of its bodies.
 */
export interface ResourceRequests {
  operations: Record<Operation, RequestExtras>;
  contentType?: string;
}

/**
 * Where the credential goes: a header with a prefix (`Authorization: Bearer <t>`, `X-API-Key: <t>`;
 * HTTP Basic is `Authorization: Basic <base64>` with `basic` set), a query parameter or a cookie.
 */
export type CredentialPlacement =
  | { in: 'header'; name: string; prefix: string; basic?: boolean }
  | { in: 'query'; name: string }
  | { in: 'cookie'; name: string };

/** The default placement: `Authorization: Bearer <token>`. */
export const BEARER_PLACEMENT: CredentialPlacement = {
  in: 'header',
  name: 'Authorization',
  prefix: 'Bearer',
};

/** A login request sent before the run to obtain a token (config `auth.login`/`auth.limitedLogin`). */
export interface LoginConfig {
  /** `auth.login` or `auth.limitedLogin`: named in messages. */
  step: string;
  method: string;
  /** Relative to the base URL, or an absolute URL on its origin. */
  path: string;
  json?: unknown;
  form?: Record<string, string>;
  /** Header names lower-cased; `authorization` set when `basic` is configured. */
  headers: Record<string, string>;
  /** JSON pointer to the token in the answer. */
  token: string;
}

export interface WebhookSignatureConfig {
  header: string;
  algorithm: string; // e.g. hmac-sha256
  encoding: 'hex' | 'base64';
  prefix: string;
  secret: string;
}

export interface WebhookConfig {
  subscribe: { path: string; method?: string; body: unknown };
  expect: Array<{ after: { resource: string; operation: Operation }; event: string }>;
  eventField: string;
  timeoutMs: number;
  signature?: WebhookSignatureConfig;
  /** Where the audit's own receiver listens, and the URL the service is told to call (when given). */
  receiver?: WebhookReceiverConfig;
}

export interface WebhookReceiverConfig {
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Port (default 0: any free port). */
  port?: number;
  /** The URL sent as {{receiverUrl}} when the service cannot reach host:port (default: http://host:port/). */
  publicUrl?: string;
}

export interface WaiverConfig {
  rule?: string;
  check?: string;
  resource?: string;
  reason: string;
  /** ISO date (YYYY-MM-DD or full timestamp). */
  expires: string;
}

/** The config after loading, interpolation, validation and defaults. */
export interface AuditConfig {
  baseUrl: string;
  auth: {
    token?: string;
    limitedToken?: string;
    /** Where the credential goes (default `BEARER_PLACEMENT`). */
    placement?: CredentialPlacement;
    /** Requests that obtain `token`/`limitedToken` before the run. */
    login?: LoginConfig;
    limitedLogin?: LoginConfig;
  };
  /** Headers, query parameters and body media type of every request (config top level). */
  requests?: RequestExtras & { contentType?: string };
  /** Every secret value to redact, with its source variable where known. */
  secrets: Secret[];
  idempotency: { header: string };
  /** `maxWaitMs`: the longest wait for a 429 to lift before LIM-RETRY gives up (checks default to 60 s). */
  rateLimit: { maxRequests: number; expected: boolean; waitMs?: number; maxWaitMs?: number };
  ignoreFields: string[];
  webhooks?: WebhookConfig;
  waivers: WaiverConfig[];
  resources: ResourceConfig[];
  /** Where the config came from (file path), for messages. */
  source?: string;
  /** `openapi` from the config: an http(s) URL, or an absolute file path (resolved against the config file). */
  openapiSource?: string;
  /** Paths that are not probed but are still linted by RES-NOUN (e.g. from an OpenAPI document). */
  extraPaths?: string[];
  /** Paths of an OpenAPI document the audit does not probe, with the reason (shown in reports). */
  notProbed?: NotProbedPath[];
  /** TLS settings of the connections to the service (config `tls`, `--insecure`). */
  tls?: TlsSettings;
}

/**
 * TLS settings of the audit's connections, files already read (PEM text). Never disables
 * verification process-wide: they go only to the audit's own dispatchers (src/http/dispatchers.ts).
 */
export interface TlsSettings {
  /** CA certificates to trust beside Node's bundled ones (a private CA, a self-signed certificate). */
  ca?: string;
  /** Client certificate (chain) and its private key, sent when the service asks for one. */
  cert?: string;
  key?: string;
  /** Certificate verification off (`tls.insecure: true` or `--insecure`): reports say so loudly. */
  insecure?: boolean;
  /** The files as the config names them, resolved against its folder (curl lines quote them). */
  files?: { ca?: string; cert?: string; key?: string };
}

/** A declared path the audit does not probe, and why (e.g. `/widgets/{id}/parts`: nested). */
export interface NotProbedPath {
  path: string;
  reason: string;
}

/** A request as shown in evidence: secrets already redacted. */
export interface RequestRecord {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Parsed JSON when the body was JSON, the text otherwise, null when none. */
  body: unknown;
}

export interface ResponseRecord {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when it parsed, the (truncated) text otherwise, null when empty. */
  body: unknown;
  durationMs: number;
  /** True when the body was cut at the size cap. */
  truncated?: boolean;
}

/**
 * A kind of request that hangs (src/http/hang-classes.ts): two requests of it in a row got no answer
 * within the deadline, so the rest were not sent. ERR-SERVER's one finding about it.
 */
export interface HungKind {
  /** Method, URL shape and kind of body: "POST /v1/widgets with unparseable JSON". */
  kind: string;
  /** The resource whose check first sent it. */
  resource?: string;
  /** Requests of the kind that timed out in a row. */
  timeouts: number;
  /** Evidence of the first request of the kind that timed out. */
  evidence: Evidence;
  /** The credentials the timed-out requests carried, in words ("no credential"), distinct, in order. */
  credentials: string[];
  /** The requests not sent ("POST /v1/widgets with the full credential"), the first 20. */
  notSent: string[];
  /** How many requests of the kind were not sent in all. */
  notSentCount: number;
}

/** One exchange as a report shows it. `response` is null when none arrived (see `error`). */
export interface Evidence {
  request: RequestRecord;
  response: ResponseRecord | null;
  /** Transport failure (time-out, reset, body cap...), when there was one. */
  error?: string;
  /** What happened around it (redirects not followed, waits on 429...). */
  notes?: string[];
  curl: string;
}

export interface CheckResult {
  checkId: string;
  rules: string[];
  suite: string;
  /** Resource name; absent for API-wide checks. */
  resource?: string;
  title: string;
  status: Status;
  severity: Severity;
  /** Why it failed, was skipped or errored; absent on a plain pass. */
  message?: string;
  /**
   * Failed (and waived) results: every distinct problem found, one line each, in the order found
   * (the `message` numbers only the first few). At most PROBLEM_CAP are kept.
   */
  problems?: string[];
  /**
   * The message id of each entry of `problems`, in the same order: which of the check's declared
   * `messages` it is (stable across wording changes, for tools and tests).
   */
  problemIds?: string[];
  /** Distinct problems found beyond the cap and left out of `problems`. */
  problemsDropped?: number;
  /** The exchanges that prove the first problems (not one per problem: see `problems`). */
  evidence: Evidence[];
  durationMs: number;
  /**
   * Failed (and waived) results: a bash script that sets up the state the failure needs, replays
   * it, prints `reproduced: ...` (exit 1) or `not reproduced: ...` (exit 0) and deletes what it
   * created. Secrets only as environment variables. Absent when the failure cannot be replayed
   * by a script (e.g. it needs the audit's webhook receiver).
   */
  reproduce?: string;
  /** Failed (and waived) results: the command that runs this check again on this resource alone. */
  rerun?: string;
  /** For waived results: the waiver's reason and expiry. */
  waiver?: { reason: string; expires: string };
  /**
   * Failed results that may be a consequence of another failure: the ids of the checks this one
   * relies on that failed (their results come first in the report; the message says so too).
   */
  followsFrom?: string[];
}

export interface RunSummary {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  errored: number;
  waived: number;
  requests: number;
  /**
   * Requests that got a complete, valid HTTP answer (any status). 0 with requests sent: the service
   * gave no valid answer to anything, and the run fails whatever the checks say. Absent in reports
   * written before it existed.
   */
  answered?: number;
}

export interface CleanupReport {
  created: number;
  deleted: number;
  /** Resources the audit created and could not delete (or did not, with the reason). */
  leftovers: Array<{ resource: string; url: string; reason: string }>;
  /**
   * Items a create stored without naming them (its answer was lost, named no usable id, or named
   * an item that existed before), found in the collection and deleted; counted in `deleted`.
   */
  recovered?: Array<{ resource: string; url: string; reason: string }>;
  /**
   * Items deleted whose read-back answers 2xx with an error object instead of 404 (ERR-STATUS's
   * finding): deleted, counted in `deleted`, not left over; the reason says so.
   */
  deletedWithErrorBody?: Array<{ resource: string; url: string; reason: string }>;
}

export interface RunResult {
  tool: { name: string; version: string };
  target: { baseUrl: string };
  startedAt: string;
  durationMs: number;
  summary: RunSummary;
  results: CheckResult[];
  cleanup: CleanupReport;
  /** True when the run was stopped by a signal before it finished. */
  interrupted?: boolean;
  /** Set when the run is one shard of a larger plan. */
  shard?: { index: number; total: number };
  /** Declared paths that were not probed, with the reason (from the config's `notProbed`). */
  notProbed?: NotProbedPath[];
  /** Warnings about the run itself (e.g. a secret too short to redact its echoes reliably). */
  notes?: string[];
}
