// The check context's state comparison: snapshots read with the full token, compared by one rule set.
import type { Exchange, SendOptions, StateService } from '../core/check.js';
import type { AuditConfig, ResourceConfig } from '../core/types.js';
import { VOLATILE_FIELDS } from '../core/shapes.js';
import {
  changesMembers,
  diffState,
  MANAGED_FIELDS,
  noiseBetween,
  readsOf,
  type Snapshot,
  type StateDiff,
  type StateWatch,
} from '../core/state.js';
import { couldNotCompare } from '../core/verdicts.js';

/**
 * Implements `StateService` for one check on one resource. `send` is the check's own (so custody,
 * the --read-only guard and skips apply); `rules` are the check's, which pick how server-managed
 * fields count (MANAGED_FIELDS).
 */
export class StateReader implements StateService {
  constructor(
    private readonly r: ResourceConfig,
    private readonly config: AuditConfig,
    private readonly rules: readonly string[],
    private readonly send: (options: SendOptions) => Promise<Exchange>,
  ) {}

  async read(watch: StateWatch): Promise<Snapshot> {
    const r = this.r;
    const listed = (watch.collection ?? true) && r.operations.includes('list');
    const paths = r.operations.includes('read') ? (watch.items ?? []) : [];
    const [collection, ...items] = await Promise.all([
      listed ? this.send({ method: 'GET', path: r.path }) : undefined,
      ...paths.map((path) => this.send({ method: 'GET', path })),
    ]);
    return {
      watch,
      ...(collection ? { collection } : {}),
      items: paths.map((path, i) => ({ path, read: items[i] as Exchange })),
    };
  }

  async compare(before: Snapshot, after: Snapshot): Promise<StateDiff> {
    const ignore = new Set(
      this.managed() === 'ignored' ? [...VOLATILE_FIELDS, ...this.config.ignoreFields] : [],
    );
    const diff = diffState(this.r, before, after, ignore);
    if (diff.incomparable !== undefined || !changesMembers(diff)) return diff;
    // The read-noise rule: what a mere re-read changes too is not the request's doing.
    const again = await this.read(after.watch);
    const cut = couldNotCompare(...readsOf(again));
    if (cut !== undefined) return { incomparable: cut, items: [], noise: new Set() };
    const noise = noiseBetween(after, again);
    if (noise.size === 0) return diff;
    return diffState(this.r, before, after, new Set([...ignore, ...noise]), noise);
  }

  /** How the running check's rule counts server-managed fields; a rule with no entry is a bug of the check. */
  private managed(): 'ignored' | 'counted' {
    const rule = this.rules.find((id) => MANAGED_FIELDS[id] !== undefined);
    if (rule === undefined) {
      throw new Error(
        `no state-comparison policy for ${this.rules.join(', ')}: add the rule to MANAGED_FIELDS in src/core/state.ts, as CONVENTIONS.md says it treats server-managed fields`,
      );
    }
    return MANAGED_FIELDS[rule];
  }
}
