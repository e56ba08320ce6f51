// Observer checks: each judges every exchange; findings are grouped into one result per resource.
import {
  NOT_JUDGED,
  type Exchange,
  type ExchangeGroup,
  type Finding,
  type ObserverCheck,
  type RunFacts,
  type RunMemory,
  type SummaryFinding,
} from '../core/check.js';
import type { ReproCheck } from '../core/reproduce.js';
import type { AuditConfig, CheckResult, Evidence, ResourceConfig, Severity } from '../core/types.js';
import { baseResult, CHECK_BROKE, joinMessages, ProblemList } from './results.js';
import { named } from '../core/named.js';

const MAX_EVIDENCE = 5;
/** Evidence kept per group of an observer's `group` hook. */
const GROUP_EVIDENCE = 2;
/** Distinct keys kept per observer: past it, exchanges with new keys are not filed. */
const MAX_GROUPS = 200;
/** How a message counts the findings of an observer's `summarise` unless it says otherwise. */
const SUMMARY_NOUN = { one: 'finding across the run', many: 'findings across the run' };

interface Tally {
  seen: number;
  /** Exchanges that got a complete response (the others only ERR-SERVER can judge). */
  answered: number;
  /** Exchanges the observer judged (it returned a verdict, not NOT_JUDGED). */
  judged: number;
  failed: number;
  /** Of `failed`: exchanges that got no complete response (a time-out is not a response). */
  failedUnanswered: number;
  /** How many exchanges each kept problem stands for (the list keeps a message once). */
  repeats: Map<string, number>;
  /** Every distinct finding (capped); evidence only of the first few. */
  problems: ProblemList;
  evidence: Evidence[];
  /** What the script of the first evidence's finding tests (the finding's own `reproduce`). */
  reproduce?: ReproCheck;
  /** The exchanges that script replays: those the finding needed before it, then its own. */
  replay?: Evidence[];
  severity: Severity | undefined;
}

/** Feeds exchanges to observers as they happen, keeping only counts and the first evidence. */
export class ObserverHub {
  /** Per observer (in `observers` order), the tallies by resource name ('' for API-wide). */
  private readonly tallies: Array<Map<string, Tally>>;
  /** Per observer id: the groups its `group` hook filed exchanges under. */
  private readonly groups = new Map<string, Map<string, ExchangeGroup>>();
  /** The resources of each group, as a set (`group.resources` keeps their order). */
  private readonly groupResources = new WeakMap<ExchangeGroup, Set<string>>();
  /** What each failed result's script tests: the reproduce of the finding its first evidence proves. */
  private readonly reproductions = new WeakMap<CheckResult, { check?: ReproCheck; evidence?: Evidence[] }>();

  /** Per observer (in `observers` order), what it remembers for this run. */
  private readonly memories: RunMemory[];

  constructor(
    private readonly observers: ObserverCheck[],
    private readonly config: AuditConfig,
  ) {
    this.tallies = observers.map(() => new Map());
    this.memories = observers.map(() => runMemory());
  }

  private tallyOf(observer: ObserverCheck, resource: string): Tally | undefined {
    return this.tallies[this.observers.indexOf(observer)]?.get(resource);
  }

  inspect(exchange: Exchange): void {
    const resource = exchange.resource ?? '';
    for (let at = 0; at < this.observers.length; at++) {
      const observer = this.observers[at];
      const tallies = this.tallies[at];
      let tally = tallies.get(resource);
      if (!tally) {
        tally = {
          seen: 0,
          answered: 0,
          judged: 0,
          failed: 0,
          failedUnanswered: 0,
          repeats: new Map(),
          problems: new ProblemList(),
          evidence: [],
          severity: undefined,
        };
        tallies.set(resource, tally);
      }
      tally.seen++;
      if (exchange.status !== undefined) tally.answered++;
      this.file(observer, exchange);
      let finding: Finding | typeof NOT_JUDGED | undefined;
      try {
        finding = observer.inspect(exchange, this.config, this.memories[at]);
      } catch (err) {
        finding = {
          messageId: CHECK_BROKE,
          message: `the check itself broke on ${exchange.method} ${exchange.url}: ${String(err)}`,
        };
      }
      if (finding === NOT_JUDGED) continue;
      tally.judged++;
      if (!finding) continue;
      tally.failed++;
      if (exchange.status === undefined) tally.failedUnanswered++;
      const severity = finding.severity ?? observer.severity;
      if (severity === 'error' || tally.severity === undefined) tally.severity = severity;
      const before = tally.problems.total;
      tally.problems.add(finding.message, finding.messageId);
      const repeats = tally.repeats.get(finding.message);
      if (repeats !== undefined) tally.repeats.set(finding.message, repeats + 1);
      else if (tally.problems.total > before && tally.problems.dropped === 0)
        tally.repeats.set(finding.message, 1);
      // Evidence of the first few distinct problems: the report names every problem, proves the first.
      if (tally.problems.total > before && tally.evidence.length < MAX_EVIDENCE) {
        if (tally.evidence.length === 0) {
          tally.reproduce = finding.reproduce;
          if (finding.before?.length) tally.replay = [...finding.before, exchange.evidence];
        }
        tally.evidence.push(exchange.evidence);
      }
    }
  }

  /** Files an exchange under the key the observer's `group` hook gives it (a broken hook files nothing). */
  private file(observer: ObserverCheck, exchange: Exchange): void {
    if (!observer.group) return;
    let key: string | undefined;
    try {
      key = observer.group(exchange, this.config);
    } catch {
      key = undefined;
    }
    if (key === undefined) return;
    let byKey = this.groups.get(observer.id);
    if (!byKey) this.groups.set(observer.id, (byKey = new Map()));
    let group = byKey.get(key);
    if (!group) {
      if (byKey.size >= MAX_GROUPS) return;
      group = { key, count: 0, statuses: [], resources: [], evidence: [] };
      byKey.set(key, group);
      this.groupResources.set(group, new Set());
    }
    group.count++;
    if (exchange.status !== undefined && !group.statuses.includes(exchange.status)) {
      group.statuses.push(exchange.status);
      group.statuses.sort((a, b) => a - b);
    }
    const resource = exchange.resource ?? '';
    // A set beside the list: a group (one error shape) may span every resource of a large API.
    const resources = this.groupResources.get(group);
    if (resources && !resources.has(resource)) {
      resources.add(resource);
      group.resources.push(resource);
    }
    if (group.evidence.length < GROUP_EVIDENCE) group.evidence.push(exchange.evidence);
  }

  /** The observer's findings across the run, by resource name ('' for API-wide). */
  private summaries(
    observer: ObserverCheck,
    resources: ResourceConfig[],
    facts: RunFacts,
  ): Map<string, SummaryFinding[]> {
    const out = new Map<string, SummaryFinding[]>();
    if (!observer.summarise) return out;
    let findings: SummaryFinding[];
    try {
      findings = observer.summarise([...(this.groups.get(observer.id)?.values() ?? [])], this.config, facts);
    } catch (err) {
      findings = [
        {
          messageId: CHECK_BROKE,
          message: `the check itself broke while summarising: ${String(err)}`,
          evidence: [],
        },
      ];
    }
    for (const finding of findings) {
      const name = named(resources, finding.resource) ? (finding.resource ?? '') : '';
      out.set(name, [...(out.get(name) ?? []), finding]);
    }
    return out;
  }

  /**
   * What the reproduction script of one of `results` tests (`check`: the `reproduce` of the finding
   * its first evidence proves, else the observer's; undefined: the statuses seen) and replays
   * (`evidence`: what that finding needed before its exchange, then the exchange; else the
   * result's first exchange, or its first four for an error-body verdict, which compares the
   * shapes of several answers).
   */
  reproduceOf(result: CheckResult): { check?: ReproCheck; evidence: Evidence[] } {
    const { check, evidence } = this.reproductions.get(result) ?? {};
    return { check, evidence: evidence ?? result.evidence.slice(0, check?.kind === 'error-body' ? 4 : 1) };
  }

  /** How many results observers will produce at most (for progress totals). */
  expectedResults(resources: ResourceConfig[]): number {
    return this.observers.length * resources.length;
  }

  /** One result per observer and resource (plus API-wide traffic, when there was any). */
  results(resources: ResourceConfig[], facts: RunFacts = { hung: [] }): CheckResult[] {
    const out: CheckResult[] = [];
    for (const observer of this.observers) {
      const summaries = this.summaries(observer, resources, facts);
      const names: Array<string | undefined> = resources.map((r) => r.name);
      if (this.tallyOf(observer, '') || summaries.has('')) names.push(undefined);
      for (const name of names) {
        const tally = this.tallyOf(observer, name ?? '');
        const across = summaries.get(name ?? '') ?? [];
        const base = baseResult(observer, name);
        const notApplicable = observer.skipReason?.(named(resources, name), this.config);
        if (notApplicable !== undefined) {
          out.push({ ...base, status: 'skipped', message: notApplicable });
        } else if ((!tally || tally.seen === 0) && across.length === 0) {
          out.push({ ...base, status: 'skipped', message: 'no exchange with this resource was made' });
        } else if (tally && tally.failed === 0 && tally.answered === 0 && across.length === 0) {
          // Nothing came back to judge: a pass would claim more than was seen.
          out.push({ ...base, status: 'skipped', message: 'no complete response arrived to judge' });
        } else if (tally && tally.judged === 0 && across.length === 0) {
          // None of the responses was of the kind the rule is about (no 401 at all): nothing passed.
          // The same words on every resource, so the console counts them as one reason.
          const why = observer.nothingToJudge ?? 'no response of the kind this check judges arrived';
          out.push({ ...base, status: 'skipped', message: why });
        } else if ((!tally || tally.failed === 0) && across.length === 0) {
          out.push({ ...base, status: 'passed' });
        } else {
          // The head counts what the list below holds: every failing exchange is one listed problem
          // (a repeated one says how many times), every finding of `summarise` is one more.
          const counts: string[] = [];
          const problems = new ProblemList();
          if (tally && tally.failed > 0) {
            const answeredFailed = tally.failed - tally.failedUnanswered;
            if (answeredFailed > 0)
              counts.push(`${answeredFailed} of ${tally.answered} responses broke the rule`);
            if (tally.failedUnanswered > 0)
              counts.push(`${tally.failedUnanswered} of ${tally.seen} requests got no complete answer`);
            const { kept, ids } = tally.problems;
            kept.forEach((m, i) => {
              const times = tally.repeats.get(m) ?? 1;
              problems.add(times > 1 ? `${m} (${times} times)` : m, ids[i]);
            });
            problems.dropped += tally.problems.dropped;
          }
          for (const finding of across) problems.add(finding.message, finding.messageId);
          if (across.length > 0) {
            const noun = observer.summaryNoun ?? SUMMARY_NOUN;
            counts.push(`${across.length} ${across.length === 1 ? noun.one : noun.many}`);
          }
          const head =
            counts.length > 1 ? `${counts.slice(0, -1).join(', ')} and ${counts.at(-1)}` : counts[0];
          const severities = [tally?.severity, ...across.map((f) => f.severity ?? observer.severity)];
          const failed: CheckResult = {
            ...base,
            status: 'failed',
            severity: severities.includes('error')
              ? 'error'
              : (severities.find((s) => s) ?? observer.severity),
            message: `${head}: ${joinMessages(problems.kept, problems.total)}`,
            ...problems.fields(),
            // A finding of `summarise` often proves itself with an exchange already kept: once each.
            evidence: [...new Set([...(tally?.evidence ?? []), ...across.flatMap((f) => f.evidence)])].slice(
              0,
              2 * MAX_EVIDENCE,
            ),
          };
          // The script reproduces the finding of the first evidence, as that finding declares it.
          const own = tally && tally.evidence.length > 0;
          const first = own ? tally.reproduce : across[0]?.reproduce;
          this.reproductions.set(failed, {
            check: first ?? observer.reproduce,
            evidence: own ? tally.replay : undefined,
          });
          out.push(failed);
        }
      }
    }
    return out;
  }
}

/** A run's memory for one observer: a map from key to value made on first use. */
export function runMemory(): RunMemory {
  const kept = new Map<unknown, unknown>();
  return {
    remember<T>(key: object | string, make: () => T): T {
      if (!kept.has(key)) kept.set(key, make());
      return kept.get(key) as T;
    },
  };
}
