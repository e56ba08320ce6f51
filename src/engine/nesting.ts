// Nested resources: a parent item of the audit's own for each, and the child's templates bound to its ids.
import type { ResourceConfig } from '../core/types.js';
import { fillTemplate, itemTemplate, placeholders } from '../core/addressing.js';
import { answered } from '../core/verdicts.js';
import { ancestors } from '../config/shapes.js';
import type { HttpClient } from '../http/client.js';
import type { Custody } from './custody.js';
import type { SendOptions } from '../core/check.js';

/** What binding made of the nested resources: bound forms, and why the others do not run. */
export interface Bindings {
  /** The resources as the run addresses them: the nested ones bound, in the order given. */
  resources: ResourceConfig[];
  /** Why a nested resource is not audited (its checks are skipped with this), by name. */
  unbound: Map<string, string>;
}

/**
 * Binds every nested resource (outermost first): its `path` and `item` get the ids of a parent
 * chain. The parent item is one the audit creates now (with the parent's sample,
 * through custody, so cleanup deletes it after the children: the ledger deletes newest first);
 * under `--read-only` it is `parentId`, and nothing is created. A resource whose parent cannot be
 * had is left unbound, with the reason.
 */
export async function bindNested(
  declared: readonly ResourceConfig[],
  client: HttpClient,
  custody: Custody,
  options: { readOnly: boolean; payload: (r: ResourceConfig) => unknown },
): Promise<Bindings> {
  // Bound in this copy as they go, so a grandchild is created under its parent's bound path.
  const resources = [...declared];
  const unbound = new Map<string, string>();
  /** Ancestor ids of each bound (or top-level) resource, outermost first. */
  const chains = new Map<string, string[]>();
  const depth = (r: ResourceConfig): number => ancestors(r, declared).length;
  const nested = declared.filter((r) => r.parent !== undefined).sort((a, b) => depth(a) - depth(b));
  for (const r of nested) {
    const index = resources.findIndex((x) => x.name === r.name);
    const parent = resources.find((p) => p.name === r.parent)!;
    const why = unbound.get(parent.name);
    if (why !== undefined) {
      unbound.set(r.name, `not run: ${r.name} is nested under ${parent.name}, which is not audited (${why})`);
      continue;
    }
    const parentChain = chains.get(parent.name) ?? [];
    const got = await parentItem(r, parent, client, custody, options);
    if ('skip' in got) {
      unbound.set(r.name, got.skip);
      continue;
    }
    const ids = [...parentChain, got.id];
    const values = Object.fromEntries(placeholders(r.path).map((name, i) => [name, ids[i]]));
    const path = fillTemplate(r.path, values);
    const item = fillTemplate(itemTemplate(r), values);
    if (path === undefined || item === undefined) {
      unbound.set(
        r.name,
        `not run: the ${parent.name} id ${JSON.stringify(got.id)} cannot be placed in ${r.path}`,
      );
      continue;
    }
    const bound: ResourceConfig = { ...r, path, item };
    resources[index] = bound;
    custody.bind(bound);
    chains.set(r.name, ids);
  }
  return { resources, unbound };
}

/** The id of the parent item to nest the resource under, or why there is none. */
async function parentItem(
  r: ResourceConfig,
  parent: ResourceConfig,
  client: HttpClient,
  custody: Custody,
  options: { readOnly: boolean; payload: (r: ResourceConfig) => unknown },
): Promise<{ id: string } | { skip: string }> {
  if (options.readOnly) {
    if (r.parentId !== undefined) return { id: r.parentId };
    return {
      skip: `--read-only: ${r.name} is nested under ${parent.name}, and no parentId names an existing ${parent.name} item to read under`,
    };
  }
  const cannot = `the audit runs ${r.name} only under a ${parent.name} item of its own`;
  if (!parent.operations.includes('create') || parent.sample === undefined) {
    return {
      skip: `not run: ${cannot}, and ${parent.name} ${parent.operations.includes('create') ? 'has no sample payload' : 'does not declare create'}`,
    };
  }
  const blocked = custody.noIdReason(parent.name);
  if (blocked) return { skip: `not run: ${cannot}, and creates in ${parent.name} name no id (${blocked})` };
  const target = client.resolve(parent.path);
  const created = custody.targetOf(target);
  if (created) await custody.prime(created.r, client);
  const request: SendOptions = {
    method: 'POST',
    path: parent.path,
    json: options.payload(parent),
    auth: 'full',
  };
  const point = custody.seen.mark();
  const x = await client.send(request, parent.name);
  await custody.settle(x, request, point, client);
  const adoption = custody.adoption(x);
  if (adoption?.kind === 'new') return { id: adoption.created.id };
  const reason = adoption && 'reason' in adoption ? adoption.reason : answered(x);
  return { skip: `not run: ${cannot}, and creating one failed: ${reason}` };
}
