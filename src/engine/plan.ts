// The plan: which checks run on which resources, after --only/--skip and sharding.
import { isResourceCheck, type ActiveCheck, type Check, type ObserverCheck } from '../core/check.js';
import type { AuditConfig, ResourceConfig } from '../core/types.js';
import { didYouMean } from '../config/suggest.js';
import { escapeRegExp } from '../core/regexp.js';

export interface Task {
  check: ActiveCheck;
  resource?: ResourceConfig;
  /**
   * Run only for its traffic: `--only` chose observers (GEN-JSON, ERR-BODY...), which judge the
   * exchanges other checks make, so those checks run without reporting results.
   */
  silent?: boolean;
}

export interface Plan {
  tasks: Task[];
  /** Tasks of `alone-last` checks: run after every other task, one at a time. */
  last: Task[];
  observers: ObserverCheck[];
  resources: ResourceConfig[];
}

export interface PlanOptions {
  only?: string[];
  skip?: string[];
  /** 1-based shard index and shard count. */
  shard?: { index: number; total: number };
}

/** The name matcher of a selector: whole name, case-insensitive, `*` for any run of characters. */
export function selectorPattern(selector: string): RegExp {
  return new RegExp(`^${selector.split('*').map(escapeRegExp).join('.*')}$`, 'i');
}

/** True when a selector (check id, rule id, suite name, with `*` wildcards) names the check. */
export function selects(selector: string, check: Check): boolean {
  const pattern = selectorPattern(selector);
  return pattern.test(check.id) || pattern.test(check.suite) || check.rules.some((r) => pattern.test(r));
}

/** Resources that belong to a shard: sorted by name, dealt round-robin. */
export function shardResources(
  resources: ResourceConfig[],
  shard?: { index: number; total: number },
): ResourceConfig[] {
  if (!shard || shard.total <= 1) return resources;
  const sorted = [...resources].sort((a, b) => a.name.localeCompare(b.name));
  return sorted.filter((_r, i) => i % shard.total === shard.index - 1);
}

/** The checks `--only` chooses (all without it) minus those `--skip` names. */
export function selectChecks(catalogue: Check[], only: string[] = [], skip: string[] = []): Check[] {
  return catalogue.filter(
    (check) =>
      (only.length === 0 || only.some((s) => selects(s, check))) && !skip.some((s) => selects(s, check)),
  );
}

export function buildPlan(config: AuditConfig, catalogue: Check[], options: PlanOptions = {}): Plan {
  const chosen = selectChecks(catalogue, options.only, options.skip);
  const resources = shardResources(config.resources, options.shard);
  // API-wide checks belong to the first shard only, so a merged set of shards has each once.
  const apiHere = !options.shard || options.shard.index === 1;
  const tasks: Task[] = [];
  const last: Task[] = [];
  for (const check of chosen) {
    if (check.kind !== 'active') continue;
    const list = check.schedule === 'alone-last' ? last : tasks;
    if (!isResourceCheck(check)) {
      if (apiHere) list.push({ check });
    } else {
      for (const resource of resources) list.push({ check, resource });
    }
  }
  const observers = chosen.filter((c): c is ObserverCheck => c.kind === 'observer');
  if (observers.length > 0 && options.only?.length) {
    // Observers send nothing: the checks --only left out still run (unless --skip names them),
    // silently, so there is traffic to judge.
    for (const check of catalogue) {
      if (check.kind !== 'active' || check.schedule === 'alone-last' || chosen.includes(check)) continue;
      if ((options.skip ?? []).some((s) => selects(s, check))) continue;
      if (!isResourceCheck(check)) {
        if (apiHere) tasks.push({ check, silent: true });
      } else {
        for (const resource of resources) tasks.push({ check, resource, silent: true });
      }
    }
  }
  return { tasks, last, observers, resources };
}

/** Problems with --only/--skip selectors that name no check, rule or suite (a typo would pass silently). */
export function unknownSelectors(catalogue: Check[], flag: string, selectors: string[] = []): string[] {
  const names = new Set(catalogue.flatMap((c) => [c.id, c.suite, ...c.rules]));
  return selectors
    .filter((selector) => !catalogue.some((check) => selects(selector, check)))
    .map(
      (selector) =>
        `${flag} ${selector}: no check, rule or suite of that name${didYouMean(selector, names)} (conformance list shows them)`,
    );
}
