// Runs a plan: schedules tasks with per-resource isolation, feeds observers, cleans up, builds the result.
import { itemTemplate } from '../core/addressing.js';
import { setMaxListeners } from 'node:events';
import pLimit from 'p-limit';
import type { Check, Exchange } from '../core/check.js';
import type { AuditConfig, CheckResult, RunResult, Severity } from '../core/types.js';
import { toolVersion } from '../core/paths.js';
import { ConformanceError, UnreachableError } from '../core/errors.js';
import { INSECURE_NOTE, INSECURE_START_NOTE } from '../core/insecure.js';
import { HttpClient, type Clock } from '../http/client.js';
import { sleep } from '../http/retry.js';
import { isResourceCheck, SkipSignal } from '../core/check.js';
import { ResourceTaskContext, TaskContext, type ContextDeps } from './context.js';
import { lockSpec, startInOrder, startOrder } from './schedule.js';
import { Ledger } from './ledger.js';
import { Custody } from './custody.js';
import { buildPlan, type Task } from './plan.js';
import { ObserverHub } from './observers.js';
import { withReproduction } from './reproduce.js';
import type { Invocation } from '../core/reproduce.js';
import { Locks } from './locks.js';
import { cleanup } from './cleanup.js';
import { markConsequences } from './consequences.js';
import { currentSender, sendingAs, type Sender } from './sender.js';
import { bindNested } from './nesting.js';
import { renderPayload, uniqueValue } from '../core/payloads.js';
import { summarise } from './summary.js';
import { baseResult, joinMessages, problemList } from './results.js';
import { applyWaiver } from './waivers.js';
import { logIn } from './login.js';
import { named } from '../core/named.js';
import { Chains, type ChainPart, type ChainStats } from './chains.js';

export interface RunOptions {
  catalogue: Check[];
  only?: string[];
  skip?: string[];
  concurrency?: number;
  timeoutMs?: number;
  readOnly?: boolean;
  maxRps?: number;
  shard?: { index: number; total: number };
  /** Aborting it stops sending; the run cleans up and returns what it has, marked interrupted. */
  signal?: AbortSignal;
  /** Called as each result is known. */
  onResult?: (result: CheckResult, done: number, total: number) => void;
  /** Called with every exchange the audit makes (HAR export...). */
  onExchange?: (exchange: Exchange, sender: Sender) => void;
  /** Called once with each warning about the run (also in RunResult.notes), e.g. a secret too short to redact well. */
  onNote?: (note: string) => void;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Clock for waiver expiry, read once at the start (default: the start of the run); tests inject one. */
  now?: () => Date;
  /** Skip the reachability probe (tests of unreachable handling turn it on). */
  skipPreflight?: boolean;
  /** `--force`: audit even when every declared collection answers 404 (a base URL missing a prefix). */
  force?: boolean;
  /** The run's clock: the HTTP client's waits (429 pauses, --max-rps) and the checks' (`ctx.clock`); tests inject a fake one. */
  clock?: Clock;
  /** Source of the 429 back-off jitter, in [0, 1) (default Math.random); tests inject a fixed one. */
  random?: () => number;
  /** Called once the run is over with its longest chain of request rounds (the bench's lower bound). */
  onChains?: (chains: ChainStats) => void;
  /** How the audit was started (the CLI's command and options): failures' re-run commands repeat it. */
  invocation?: Invocation;
}

/** Real time. */
const REAL_CLOCK: Clock = { now: () => Date.now(), sleep };

/** Problems whose exchanges a failed result keeps, and the most exchanges it keeps in all. */
const EVIDENCE_PROBLEMS = 10;
const MAX_EVIDENCE = 20;
/**
 * Tasks under way at most (waiting for a lock or a slot, or running): enough that tasks of other
 * resources are always ready beside a busy one, few enough that memory does not grow with the plan.
 */
const TASK_WINDOW = 256;

/** Runs the audit and returns its result; throws UnreachableError when the target cannot be reached. */
export async function runAudit(config: AuditConfig, options: RunOptions): Promise<RunResult> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const signal = options.signal ?? new AbortController().signal;
  const clock = options.clock ?? REAL_CLOCK;
  // Every request waiting out a 429 or the --max-rps spacing listens to it: many at once is normal.
  setMaxListeners(0, signal);
  const plan = buildPlan(config, options.catalogue, {
    only: options.only,
    skip: options.skip,
    shard: options.shard,
  });
  const ledger = new Ledger();
  const custody = new Custody(config, ledger);
  const hub = new ObserverHub(plan.observers, config);
  // Counted only for a caller that reads them (the bench): it costs a store run per task and a
  // call per request.
  const chains = options.onChains ? new Chains() : undefined;
  const counted = <T>(part: ChainPart, work: () => Promise<T>): Promise<T> =>
    chains ? chains.run(part, work) : work();
  /** Off during the reachability probe and cleanup: observers judge only the checks' own traffic. */
  let observing = false;
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const client = new HttpClient({
    baseUrl: config.baseUrl,
    tokens: { full: config.auth.token, limited: config.auth.limitedToken },
    requests: { placement: config.auth.placement, requests: config.requests, resources: config.resources },
    secrets: config.secrets,
    timeoutMs: options.timeoutMs,
    maxRps: options.maxRps,
    defaultRetryWaitMs: config.rateLimit.waitMs,
    signal,
    clock,
    random: options.random,
    urlShape: (url) => urlShape(custody, config, url),
    userAgent: `conformance/${toolVersion()}`,
    network: { tls: config.tls, env: options.env },
    onNote: options.onNote,
    ...(chains ? { onRequest: () => chains.request() } : {}),
    onExchange: (exchange) => {
      // Every answer read, the probes' and cleanup's too, tells which ids exist.
      custody.observe(exchange);
      if (observing) hub.inspect(exchange);
      options.onExchange?.(exchange, currentSender());
    },
  });
  // Said before the first request (and first among the reports' notes): nothing else vouches for the answers.
  const runNotes = config.tls?.insecure ? [INSECURE_NOTE] : [];
  if (config.tls?.insecure) options.onNote?.(INSECURE_START_NOTE);
  try {
    if (!options.skipPreflight) await preflight(client);
    // The tokens a login obtains are needed by every check, the credential probe below included.
    const loggedIn = await logIn(client, config);
    if (!options.skipPreflight) {
      const first = await credentialsAccepted(client, loggedIn);
      if (!options.force) await collectionsFound(client, loggedIn, first);
    }
    observing = true;
    const { resources, unbound } = await bindNested(config.resources, client, custody, {
      readOnly: options.readOnly ?? false,
      payload: (r) => {
        const body = renderPayload(r.sample, { unique: uniqueValue() });
        custody.notePayload(body);
        return body;
      },
    });
    // The config as this run addresses it: the tokens the login obtained, and nested resources
    // bound to a parent item of their own.
    const run: AuditConfig = { ...loggedIn, resources };
    const results: CheckResult[] = [];
    const reported = plan.tasks.filter((t) => !t.silent).length;
    // Observers give a row per resource plus at most one API-wide row each: an upper bound until
    // their results are known, then exact, so progress never shows 100% before the last result.
    let total = reported + plan.last.length + hub.expectedResults(plan.resources) + plan.observers.length;
    // One instant for every waiver, so a waiver cannot expire halfway through a run.
    const waiverNow = options.now?.() ?? new Date(started);
    const record = (raw: CheckResult): void => {
      // Applied as each result is known, so progress lines already say "waived".
      const result = applyWaiver(redactResult(raw, client), config.waivers, waiverNow);
      results.push(result);
      options.onResult?.(result, results.length, total);
    };
    const shared = new Map<string, Promise<unknown>>();
    const limit = pLimit(concurrency);
    const deps = {
      // The run's `concurrency` request slots, shared out among the tasks running now: a task alone
      // (the others waiting on its resource's lock) sends its independent requests up to
      // `concurrency` at once; eight tasks running send one each. So the requests in flight stay
      // within --concurrency while no slot idles. Once the service has answered an ordinary request
      // 429, one at a time: a batch of identical requests would meet a per-endpoint limit all at
      // once and outlast the client's retries.
      width: () =>
        client.metRateLimit ? 1 : Math.max(1, Math.floor(concurrency / Math.max(1, limit.activeCount))),
      config: run,
      unbound,
      client,
      ledger,
      custody,
      readOnly: options.readOnly ?? false,
      maxRps: options.maxRps,
      signal,
      shared,
      clock,
      invocation: options.invocation,
    };
    const names = config.resources.map((r) => r.name);
    const locks = new Locks(names);
    // Tasks start longest chains first (startOrder), a bounded window of them at a time (all of
    // them for a small API).
    await startInOrder(startOrder(plan.tasks), Math.max(TASK_WINDOW, concurrency * 32), async (task) => {
      // Locks first, then a slot: a task waiting for a busy resource must not hold one of the
      // `concurrency` slots (with few resources, that left every other task waiting too).
      const lock = lockSpec(task.check.schedule, task.resource?.name, names);
      const result = await counted(lock, () =>
        locks.with(lock.names, () => limit(() => runTask(task, deps)), lock.mode),
      );
      if (!task.silent) record(result);
    });
    for (const task of plan.last) record(await counted('last', () => runTask(task, deps)));
    const observed = hub.results(plan.resources, { hung: client.hungKinds });
    total = results.length + observed.length;
    for (const result of observed) {
      const { check, evidence } = hub.reproduceOf(result);
      record(withReproduction(result, { ...deps, config: run }, check, evidence));
    }
    // Root causes first, and a failure that may follow from another says so (declared dependsOn).
    // A new array, not spread back into this one: 10,000 resources give 220,000 results, more
    // arguments than a call takes (the audit ended in "Maximum call stack size exceeded").
    const ordered = markConsequences(results, options.catalogue);
    observing = false;
    // Cleanup runs even after an interruption, and gives a service that stopped answering one more try.
    await client.beginCleanup(ledger.pending().length > 0 || custody.unaccountedCreates().length > 0);
    const cleanupReport = await counted('cleanup', () =>
      sendingAs({ phase: 'cleanup' }, () => cleanup(client, ledger, custody, run, deps.width)),
    );
    if (chains) options.onChains?.(chains.stats());
    const interrupted = signal.aborted;
    return {
      tool: { name: 'conformance', version: toolVersion() },
      target: { baseUrl: client.redactor.text(config.baseUrl) },
      startedAt,
      durationMs: Date.now() - started,
      summary: summarise(ordered, client.requestCount, client.answerCount),
      results: ordered,
      cleanup: cleanupReport,
      ...(interrupted ? { interrupted: true } : {}),
      ...(options.shard ? { shard: options.shard } : {}),
      ...(config.notProbed?.length ? { notProbed: config.notProbed.map((n) => ({ ...n })) } : {}),
      ...(runNotes.length + client.redactor.notes.length > 0
        ? { notes: [...runNotes, ...client.redactor.notes] }
        : {}),
    };
  } finally {
    await client.close();
  }
}

/**
 * One request to the base URL. Only a service that could not even be connected to is unreachable
 * (exit 2); one that accepts connections and then stalls or resets is audited, and the circuit
 * breaker ends that audit promptly with the evidence.
 */
async function preflight(client: HttpClient): Promise<void> {
  const probe = await client.send({ method: 'GET', path: '', auth: 'none', retryOn429: false });
  const shown = client.redactor.text(client.baseUrl);
  const via = client.route ? ` through the proxy ${client.route.proxy} (${client.route.variable})` : '';
  // A refused certificate is no unreachable service: say what was refused and the way around it.
  if (probe.error?.code === 'E_TLS')
    throw new UnreachableError(`${shown}${via}: ${probe.error.message}${tlsHint(probe.error.cause)}`);
  if (probe.status !== undefined || client.everConnected || probe.error?.code === 'E_INTERRUPTED') return;
  const why =
    probe.error?.code === 'E_TIMEOUT'
      ? 'no connection within the time-out'
      : (probe.error?.message ?? 'no answer');
  throw new UnreachableError(`cannot reach ${shown}${via}: ${why}`);
}

/** What to do about a TLS failure, by its low-level code. */
function tlsHint(cause: string | undefined): string {
  if (cause === undefined || cause.startsWith('ERR_SSL_')) return '';
  if (cause === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return ': use the host name the certificate names in the base URL, or --insecure (no verification) to audit anyway';
  return ': trust its CA with tls.ca in the config (a PEM file), or pass --insecure (no verification) to audit anyway';
}

/**
 * One authenticated GET on the first listable collection: a token the API refuses (401) would
 * turn every check into a false failure, so the audit stops (exit 2) saying so. A 401 that sets
 * cookies is retried with them once: a stateful API is GEN-STATELESS's finding, not a bad token.
 * Returns the probe's answer (status undefined: none came), or undefined when nothing was sent.
 */
async function credentialsAccepted(
  client: HttpClient,
  config: AuditConfig,
): Promise<{ status?: number } | undefined> {
  const collection = config.resources.find((r) => r.operations.includes('list') && !nested(r));
  const token = config.auth.token;
  if (!collection || !token) return undefined;
  let probe = await client.send({ method: 'GET', path: collection.path });
  const setCookie = probe.headers['set-cookie'];
  if (probe.status === 401 && setCookie) {
    const cookie = setCookie
      .split('\n')
      .map((c) => c.split(';')[0].trim())
      .filter(Boolean)
      .join('; ');
    probe = await client.send({ method: 'GET', path: collection.path, headers: { cookie } });
  }
  if (probe.status !== 401) return { status: probe.status };
  const envVar = config.secrets.find((s) => s.value === token)?.envVar;
  throw new ConformanceError(
    'E_CONFIG',
    `the API refused auth.token${envVar ? ` (from ${envVar})` : ''}: GET ${collection.path} answered 401, so every check would fail for want of credentials; set a valid, unexpired token`,
  );
}

/**
 * A GET on each declared collection (that lists) until one answers other than 404: when none does,
 * the base URL is almost certainly wrong (a missing /v1), and every check would fail for that one
 * reason, so the audit stops (exit 2) saying so; `--force` audits anyway. `first` is the answer
 * credentialsAccepted already had from the first collection (undefined when it sent nothing).
 */
async function collectionsFound(
  client: HttpClient,
  config: AuditConfig,
  first: { status?: number } | undefined,
): Promise<void> {
  const paths = [
    ...new Set(
      config.resources.filter((r) => r.operations.includes('list') && !nested(r)).map((r) => r.path),
    ),
  ];
  if (paths.length === 0) return;
  for (const [index, path] of paths.entries()) {
    const status =
      index === 0 && first !== undefined ? first.status : (await client.send({ method: 'GET', path })).status;
    if (status !== 404) return;
  }
  const tried =
    paths.length > 3 ? `${paths.slice(0, 3).join(', ')} and ${paths.length - 3} more` : paths.join(', ');
  // Some APIs hide what an anonymous caller may not see behind a 404: then the token is the suspect too.
  const anonymous = config.auth.token
    ? ''
    : '; no auth.token is set, and some APIs answer 404 to anonymous requests';
  throw new ConformanceError(
    'E_CONFIG',
    `every collection answered 404 at ${client.redactor.text(client.baseUrl)}: is the base URL missing a prefix such as /v1? (GET ${tried}${anonymous}; pass --force to audit anyway)`,
  );
}

/** The URL shape of the resource a URL names (`/v1/widgets/{id}`), undefined when it names none. */
function urlShape(custody: Custody, config: AuditConfig, url: string): string | undefined {
  const target = custody.targetOf(url);
  if (!target) return undefined;
  const base = new URL(config.baseUrl).pathname.replace(/\/+$/, '');
  return `${base}${target.id === undefined ? target.r.path : itemTemplate(target.r)}`;
}

/** A resource under a parent: its path names the parent's id, so the preflight cannot read it. */
function nested(r: AuditConfig['resources'][number]): boolean {
  return r.parent !== undefined || r.path.includes('{');
}

/** A result with every secret removed from its message and problems (checks may quote what the service said). */
function redactResult(result: CheckResult, client: HttpClient): CheckResult {
  const text = (t: string): string => client.redactor.text(t);
  return {
    ...result,
    ...(result.message !== undefined ? { message: text(result.message) } : {}),
    ...(result.problems ? { problems: result.problems.map(text) } : {}),
  };
}

/** Runs one check on one resource; never throws. */
export async function runTask(task: Task, deps: ContextDeps): Promise<CheckResult> {
  const { check } = task;
  // A nested resource runs bound to its parent item (see bindNested), or not at all.
  const resource = task.resource && (named(deps.config.resources, task.resource.name) ?? task.resource);
  const unbound = resource && deps.unbound?.get(resource.name);
  const started = performance.now();
  const base = baseResult(check, resource?.name);
  const done = (fields: Partial<CheckResult>): CheckResult => ({
    ...base,
    ...fields,
    durationMs: Math.round(performance.now() - started),
  });
  if (deps.signal.aborted) return done({ status: 'skipped', message: 'not run: the audit was interrupted' });
  const stopped = deps.client.stoppedAnswering;
  if (stopped) return done({ status: 'skipped', message: `not run: ${stopped}` });
  if (unbound !== undefined) return done({ status: 'skipped', message: unbound });
  if (deps.readOnly && check.writes === 'required') {
    return done({ status: 'skipped', message: '--read-only: this check changes state on the service' });
  }
  const own = isResourceCheck(check) && resource ? new ResourceTaskContext(deps, check, resource) : undefined;
  const ctx = own ?? new TaskContext(deps, check, resource);
  try {
    await sendingAs({ checkId: check.id, rules: check.rules }, async () => {
      if (!isResourceCheck(check)) await check.run(ctx);
      else if (own) await check.run(own);
      else throw new Error(`check ${check.id} runs once per resource and was given none`);
    });
  } catch (err) {
    if (err instanceof SkipSignal) {
      // Failures found before the skip still count.
      if (ctx.failures.length === 0) return done({ status: 'skipped', message: err.reason });
    } else {
      const message = err instanceof Error ? err.message : String(err);
      return done({ status: 'errored', message: `the check itself broke: ${message}` });
    }
  }
  if (ctx.failures.length === 0) return done({ status: 'passed' });
  // What fails the run comes first: error-level problems before warning-level ones, each in the
  // order found (a check's 422 warnings listed before its 200 read as if they had failed it), so
  // the message, the evidence and the reproduction lead with an error when there is one.
  const isError = (f: (typeof ctx.failures)[number]): boolean => (f.severity ?? check.severity) === 'error';
  const failures = [...ctx.failures.filter(isError), ...ctx.failures.filter((f) => !isError(f))];
  const severity: Severity = isError(failures[0]) ? 'error' : 'warning';
  const problems = problemList(failures);
  const first = failures[0];
  const firstExchanges = (first.evidence ?? []).map((e) => ('evidence' in e ? e.evidence : e));
  const failed = done({
    status: 'failed',
    severity,
    message: joinMessages(problems.kept, problems.total),
    ...problems.fields(),
    evidence: firstEvidence(failures),
  });
  return withReproduction(failed, deps, first.reproduce, firstExchanges);
}

/**
 * The exchanges of the first failures, each once (several findings often cite the same request),
 * so the evidence proves the first problems listed rather than repeating one of them.
 */
function firstEvidence(failures: TaskContext['failures']): CheckResult['evidence'] {
  const seen = new Set<unknown>();
  const out: CheckResult['evidence'] = [];
  for (const failure of failures.slice(0, EVIDENCE_PROBLEMS)) {
    for (const e of failure.evidence ?? []) {
      const evidence = 'evidence' in e ? e.evidence : e;
      if (seen.has(evidence) || out.length >= MAX_EVIDENCE) continue;
      seen.add(evidence);
      out.push(evidence);
    }
  }
  return out;
}
