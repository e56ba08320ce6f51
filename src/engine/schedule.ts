// How a task is scheduled, read from its check's `schedule` alone: which resource locks it holds, in which mode.
import type { Schedule } from '../core/check.js';
import type { LockMode } from './locks.js';
import { strandsFromHere } from './chains.js';

/** The locks a task takes while it runs (names of resources), and in which mode. */
export interface LockSpec {
  names: string[];
  mode: LockMode;
}

/**
 * The locks of a task (see `Schedule`): `own-items` shares its resource's lock with its kind,
 * `compares-collection` holds it alone, `api-writes` holds every resource alone, `api-read` and
 * `alone-last` (which runs after everything, one at a time) hold none.
 */
export function lockSpec(schedule: Schedule, resource: string | undefined, all: string[]): LockSpec {
  switch (schedule) {
    case 'own-items':
      return { names: resource ? [resource] : [], mode: 'shared' };
    case 'compares-collection':
      return { names: resource ? [resource] : [], mode: 'exclusive' };
    case 'api-writes':
      return { names: all, mode: 'exclusive' };
    case 'api-read':
    case 'alone-last':
      return { names: [], mode: 'shared' };
  }
}

/**
 * Runs `start` on each item in order, with at most `window` of them under way: the next starts
 * when one ends. A plan of thousands of resources then holds a bounded number of pending tasks
 * (each with its promises, lock waiters and closures) instead of one per check × resource from the
 * start. Stops starting new items once one has failed; the returned promise rejects with it.
 */
export async function startInOrder<T>(
  items: readonly T[],
  window: number,
  start: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const lane = async (): Promise<void> => {
    while (!failed && next < items.length) {
      try {
        await start(items[next++]);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, window), items.length) }, lane));
}

/**
 * Runs `fn` on every item with at most `width()` under way at once (the next starts as one ends)
 * and answers the results in the items' order. A check's independent requests go out this way,
 * the width being --concurrency, so one task never has more requests in flight than the run has
 * task slots; it is read again before each start, so a run that narrows it (a service answering
 * 429: see `batchWidth` in run.ts) sends the rest of a batch one at a time. An item starts only
 * when it gets its slot (the cleanup of a large API passes tens of thousands), and none starts
 * after one has failed: the returned promise then rejects with that failure.
 */
export function together<T, R>(
  items: readonly T[],
  width: number | (() => number),
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const now = typeof width === 'number' ? () => width : width;
  // Each item is a strand of its own from here (see chains.ts): waiting for a slot is not a
  // dependency on the items before it.
  const start = strandsFromHere();
  const results = new Array<R>(items.length);
  return new Promise<R[]>((resolve, reject) => {
    let next = 0;
    let active = 0;
    let ended = 0;
    let failed = false;
    // Slots are handed out in the items' order, each as one frees up and only while the width
    // (read again each time: it may drop to 1) allows.
    const pump = (): void => {
      while (!failed && next < items.length && active < Math.max(1, now())) {
        const i = next++;
        active++;
        start(() => fn(items[i], i)).then(
          (result) => {
            results[i] = result;
            active--;
            if (++ended === items.length) resolve(results);
            else pump();
          },
          (err: unknown) => {
            active--;
            if (!failed) reject(err); // no more starts: the check is ending with this error (or skip)
            failed = true;
          },
        );
      }
    };
    if (items.length === 0) resolve(results);
    else pump();
  });
}

/** What `startOrder` needs of a task. */
export interface Orderable {
  check: { schedule: Schedule };
  resource?: { name: string; operations: readonly string[] };
}

/**
 * The order tasks start in, so the run does not end waiting on one resource's chain. A resource's
 * `compares-collection` tasks run one after another (they hold it alone): they are its chain, and
 * start first, the resources with the longest chains (most such tasks, then most operations) before
 * the others; its `own-items` tasks come after them, next to each other, so they share the lock
 * at once rather than in several rounds between the chain's links. Resources take turns (the first
 * task of each, then the second...), so the bounded window of `startInOrder` holds work for every
 * resource. API-wide reads (no lock) start first, `api-writes` (every lock) last.
 */
export function startOrder<T extends Orderable>(tasks: readonly T[]): T[] {
  const first: T[] = [];
  const last: T[] = [];
  const byResource = new Map<string, { chain: T[]; shared: T[]; operations: number }>();
  for (const task of tasks) {
    const r = task.resource;
    if (r === undefined) {
      (task.check.schedule === 'api-writes' ? last : first).push(task);
      continue;
    }
    let lists = byResource.get(r.name);
    if (!lists) byResource.set(r.name, (lists = { chain: [], shared: [], operations: r.operations.length }));
    (task.check.schedule === 'compares-collection' ? lists.chain : lists.shared).push(task);
  }
  // Longest chains first; the sort is stable, so equal resources keep the config's order.
  const queues = [...byResource.values()]
    .sort((a, b) => b.chain.length - a.chain.length || b.operations - a.operations)
    .map((lists) => [...lists.chain, ...lists.shared]);
  const turns: T[] = [];
  for (let i = 0; queues.some((q) => i < q.length); i++) {
    for (const queue of queues) if (i < queue.length) turns.push(queue[i]);
  }
  return [...first, ...turns, ...last];
}
