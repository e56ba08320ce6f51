// Observer checks: each judges every exchange; findings are grouped into one result per resource.
import type { Exchange, ObserverCheck } from '../core/check.js';
import type { AuditConfig, CheckResult, Evidence, ResourceConfig, Severity } from '../core/types.js';
import { baseResult, joinMessages } from './results.js';

const MAX_EVIDENCE = 5;

interface Tally {
  seen: number;
  failed: number;
  messages: string[];
  evidence: Evidence[];
  severity: Severity | undefined;
}

/** Feeds exchanges to observers as they happen, keeping only counts and the first evidence. */
export class ObserverHub {
  private readonly tallies = new Map<string, Tally>();

  constructor(
    private readonly observers: ObserverCheck[],
    private readonly config: AuditConfig,
  ) {}

  inspect(exchange: Exchange): void {
    for (const observer of this.observers) {
      const key = `${observer.id}\u0000${exchange.resource ?? ''}`;
      let tally = this.tallies.get(key);
      if (!tally) {
        tally = { seen: 0, failed: 0, messages: [], evidence: [], severity: undefined };
        this.tallies.set(key, tally);
      }
      tally.seen++;
      let finding;
      try {
        finding = observer.inspect(exchange, this.config);
      } catch (err) {
        finding = { message: `the check itself broke on ${exchange.method} ${exchange.url}: ${String(err)}` };
      }
      if (!finding) continue;
      tally.failed++;
      const severity = finding.severity ?? observer.severity;
      if (severity === 'error' || tally.severity === undefined) tally.severity = severity;
      if (tally.messages.length < MAX_EVIDENCE) {
        tally.messages.push(finding.message);
        tally.evidence.push(exchange.evidence);
      }
    }
  }

  /** How many results observers will produce at most (for progress totals). */
  expectedResults(resources: ResourceConfig[]): number {
    return this.observers.length * resources.length;
  }

  /** One result per observer and resource (plus API-wide traffic, when there was any). */
  results(resources: ResourceConfig[]): CheckResult[] {
    const out: CheckResult[] = [];
    for (const observer of this.observers) {
      const names: Array<string | undefined> = resources.map((r) => r.name);
      if (this.tallies.has(`${observer.id}\u0000`)) names.push(undefined);
      for (const name of names) {
        const tally = this.tallies.get(`${observer.id}\u0000${name ?? ''}`);
        const base = baseResult(observer, name);
        const notApplicable = observer.skipReason?.(
          resources.find((r) => r.name === name),
          this.config,
        );
        if (notApplicable !== undefined) {
          out.push({ ...base, status: 'skipped', message: notApplicable });
        } else if (!tally || tally.seen === 0) {
          out.push({ ...base, status: 'skipped', message: 'no exchange with this resource was made' });
        } else if (tally.failed === 0) {
          out.push({ ...base, status: 'passed' });
        } else {
          const head = `${tally.failed} of ${tally.seen} responses broke the rule`;
          out.push({
            ...base,
            status: 'failed',
            severity: tally.severity ?? observer.severity,
            message: `${head}: ${joinMessages(tally.messages)}`,
            evidence: tally.evidence,
          });
        }
      }
    }
    return out;
  }
}
