// A failure's reproduction script: the items it needs created again, its exchanges replayed, the rule's test, cleanup.
import type { Invocation, ReproCheck } from '../core/reproduce.js';
import type { AuditConfig, CheckResult, Evidence } from '../core/types.js';
import type { HttpClient } from '../http/client.js';
import type { CurlInput, CurlOptions } from '../http/curl.js';
import { sentRequest } from '../http/evidence.js';
import type { Custody } from './custody.js';
import { hookScriptable } from './repro-hooks.js';
import { Plan } from './repro-plan.js';
import { rerunCommand } from './rerun.js';

export interface ReproDeps {
  config: AuditConfig;
  client: HttpClient;
  custody: Custody;
  /** How the audit was started (default: `conformance run` with no options). */
  invocation?: Invocation;
}

/** What the script reproduces: the check, where, the failure's first problem and its evidence. */
export interface ReproFailure {
  checkId: string;
  rules: string[];
  resource?: string;
  message: string;
  evidence: Evidence[];
  reproduce?: ReproCheck;
  /** The command that runs the check again alone (see rerunCommand). */
  rerun: string;
}

/**
 * The bash script that reproduces a failure, or undefined when its evidence cannot be replayed by
 * a script (a delivery to the audit's webhook receiver, a request the audit did not send).
 */
export function reproScript(deps: ReproDeps, failure: ReproFailure): string | undefined {
  const check = failure.reproduce ?? { kind: 'status' };
  if (check.kind === 'none') return undefined;
  if (check.kind === 'webhook') {
    // Only the triggering exchange is replayed: the receiver and the subscription are the script's own.
    const cause = failure.evidence[check.at];
    const s = cause && !notSent(cause) ? sentRequest(cause) : undefined;
    if (!s || !hookScriptable(deps.config, check)) return undefined;
    return new Plan(deps, { ...failure, evidence: [cause] }, check).script([s]);
  }
  const sent = failure.evidence.map((e) => sentRequest(e));
  if (check.kind !== 'base-url') {
    if (failure.evidence.length === 0) return undefined;
    if (sent.some((s, i) => s === undefined || notSent(failure.evidence[i]))) return undefined;
  }
  // A failure about the base URL itself replays nothing: its evidence holds requests not sent.
  if (check.kind === 'base-url') return new Plan(deps, { ...failure, evidence: [] }, check).script([]);
  return new Plan(deps, failure, check).script(sent as Array<{ input: CurlInput; options: CurlOptions }>);
}

function notSent(e: Evidence): boolean {
  return e.response === null && (e.notes ?? []).some((n) => n.startsWith('not sent'));
}

/**
 * The result with its reproduction script and re-run command, when it failed: `evidence` are the
 * exchanges of its first problem (default: the result's first exchange), `check` what to test.
 */
export function withReproduction(
  result: CheckResult,
  deps: ReproDeps,
  check?: ReproCheck,
  evidence: Evidence[] = result.evidence.slice(0, 1),
): CheckResult {
  if (result.status !== 'failed') return result;
  const { redactor } = deps.client;
  const rerun = redactor.text(
    rerunCommand(result.checkId, result.resource, deps.invocation, result.severity),
  );
  const script = reproScript(deps, {
    checkId: result.checkId,
    rules: result.rules,
    resource: result.resource,
    message: result.problems?.[0] ?? result.message ?? '',
    evidence,
    reproduce: check,
    rerun,
  });
  return {
    ...result,
    ...(script !== undefined ? { reproduce: redactor.text(script) } : {}),
    rerun,
  };
}
