// The check context's state comparison: snapshots read with the full token, compared by one rule set.
import type { Batch, BatchResult, Exchange, SendOptions, StateService } from '../core/check.js';
import type { AuditConfig, ResourceConfig } from '../core/types.js';
import { VOLATILE_FIELDS } from '../core/shapes.js';
import {
  changed,
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
import { together } from './schedule.js';

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
    /** Steps of a batch under way at once (see `together`). */
    private readonly width: () => number = () => 8,
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

  async compare(before: Snapshot, after: Snapshot, alsoIgnore: Iterable<string> = []): Promise<StateDiff> {
    const ignore = new Set(
      this.managed() === 'ignored' ? [...VOLATILE_FIELDS, ...this.config.ignoreFields, ...alsoIgnore] : [],
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

  /**
   * The steps together (at most `width()` at once), the state read once after them. Nothing changed:
   * each step that compares gets that empty diff, as it would have one by one. Something changed:
   * the batch cannot say which step did it, so `fresh` makes new targets and the steps whose change
   * would be a finding (`rerun`) run again one at a time, each compared on its own (what a check
   * without batches did), and those results stand. A single step is already attributed.
   */
  async batch<T, R>(steps: readonly T[], b: Batch<T, R>): Promise<BatchResult<T, R>> {
    const compares = b.compares ?? (() => true);
    const before = b.from ?? (await this.read(b.watch()));
    if (steps.length === 0) return { steps: [], last: before };
    const results = await together(steps, this.width, (step) => b.send(step));
    const judged = steps.map((step, i) => ({ step, result: results[i] }));
    if (!judged.some((s) => compares(s.step, s.result))) return { steps: judged, last: before };
    const after = await this.read(before.watch);
    const diff = await this.compare(before, after);
    if (steps.length === 1 || diff.incomparable !== undefined || !changed(diff)) {
      const out = judged.map((s) => (compares(s.step, s.result) ? { ...s, diff } : s));
      return { steps: out, last: after };
    }
    const rerun = b.rerun ?? compares;
    const again = [...judged.keys()].filter((i) => rerun(judged[i].step, judged[i].result));
    // The steps not run again keep their place and their answer from the batch, with no diff.
    if (again.length === 0) return { steps: judged, last: after, together: diff };
    const narrowed = await this.oneByOne(
      again.map((i) => judged[i].step),
      b,
      compares,
    );
    const out: BatchResult<T, R>['steps'] = judged;
    again.forEach((at, i) => (out[at] = narrowed.steps[i]));
    return { steps: out, last: narrowed.last, together: diff };
  }

  /** The steps again, one at a time, the state compared after each that calls for it. */
  private async oneByOne<T, R>(
    steps: readonly T[],
    b: Batch<T, R>,
    compares: (step: T, result: R) => boolean,
  ): Promise<BatchResult<T, R>> {
    await b.fresh?.();
    let last = await this.read(b.watch());
    const out: BatchResult<T, R>['steps'] = [];
    for (const [i, step] of steps.entries()) {
      const result = await b.send(step);
      if (!compares(step, result)) {
        out.push({ step, result });
        continue;
      }
      const after = await this.read(last.watch);
      out.push({ step, result, diff: await this.compare(last, after) });
      last = after;
      if (b.renew && (await b.renew(after, steps.slice(i + 1)))) last = await this.read(b.watch());
    }
    return { steps: out, last };
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
