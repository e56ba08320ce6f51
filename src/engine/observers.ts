// Observer checks: each judges every exchange; findings are grouped into one result per resource.
import {
  NOT_JUDGED,
  type Exchange,
  type ExchangeGroup,
  type Finding,
  type ObserverCheck,
  type RunFacts,
  type SummaryFinding,
} from '../core/check.js';
import type { AuditConfig, CheckResult, Evidence, ResourceConfig, Severity } from '../core/types.js';
import { baseResult, CHECK_BROKE, joinMessages, ProblemList } from './results.js';
import { named } from '../core/named.js';

const MAX_EVIDENCE = 5;
/** Evidence kept per group of an observer's `group` hook. */
const GROUP_EVIDENCE = 2;
/** Distinct keys kept per observer: past it, exchanges with new keys are not filed. */
const MAX_GROUPS = 200;

interface Tally {
  seen: number;
  /** Exchanges that got a complete response (the others only ERR-SERVER can judge). */
  answered: number;
  /** Exchanges the observer judged (it returned a verdict, not NOT_JUDGED). */
  judged: number;
  failed: number;
  /** Every distinct finding (capped); evidence only of the first few. */
  problems: ProblemList;
  evidence: Evidence[];
  severity: Severity | undefined;
}

/** Feeds exchanges to observers as they happen, keeping only counts and the first evidence. */
export class ObserverHub {
  private readonly tallies = new Map<string, Tally>();
  /** Per observer id: the groups its `group` hook filed exchanges under. */
  private readonly groups = new Map<string, Map<string, ExchangeGroup>>();
  /** The resources of each group, as a set (`group.resources` keeps their order). */
  private readonly groupResources = new WeakMap<ExchangeGroup, Set<string>>();

  constructor(
    private readonly observers: ObserverCheck[],
    private readonly config: AuditConfig,
  ) {}

  inspect(exchange: Exchange): void {
    for (const observer of this.observers) {
      const key = `${observer.id}\u0000${exchange.resource ?? ''}`;
      let tally = this.tallies.get(key);
      if (!tally) {
        tally = {
          seen: 0,
          answered: 0,
          judged: 0,
          failed: 0,
          problems: new ProblemList(),
          evidence: [],
          severity: undefined,
        };
        this.tallies.set(key, tally);
      }
      tally.seen++;
      if (exchange.status !== undefined) tally.answered++;
      this.file(observer, exchange);
      let finding: Finding | typeof NOT_JUDGED | undefined;
      try {
        finding = observer.inspect(exchange, this.config);
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
      const severity = finding.severity ?? observer.severity;
      if (severity === 'error' || tally.severity === undefined) tally.severity = severity;
      const before = tally.problems.total;
      tally.problems.add(finding.message, finding.messageId);
      // Evidence of the first few distinct problems: the report names every problem, proves the first.
      if (tally.problems.total > before && tally.evidence.length < MAX_EVIDENCE) {
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
      if (this.tallies.has(`${observer.id}\u0000`) || summaries.has('')) names.push(undefined);
      for (const name of names) {
        const tally = this.tallies.get(`${observer.id}\u0000${name ?? ''}`);
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
          const parts: string[] = [];
          const problems = new ProblemList();
          if (tally && tally.failed > 0) {
            const { kept, ids, total } = tally.problems;
            parts.push(
              `${tally.failed} of ${tally.seen} responses broke the rule: ${joinMessages(kept, total)}`,
            );
            kept.forEach((m, i) => problems.add(m, ids[i]));
            problems.dropped += tally.problems.dropped;
          }
          for (const finding of across) {
            parts.push(finding.message);
            problems.add(finding.message, finding.messageId);
          }
          const severities = [tally?.severity, ...across.map((f) => f.severity ?? observer.severity)];
          out.push({
            ...base,
            status: 'failed',
            severity: severities.includes('error')
              ? 'error'
              : (severities.find((s) => s) ?? observer.severity),
            message: parts.join('; '),
            ...problems.fields(),
            evidence: [...(tally?.evidence ?? []), ...across.flatMap((f) => f.evidence)].slice(
              0,
              2 * MAX_EVIDENCE,
            ),
          });
        }
      }
    }
    return out;
  }
}
