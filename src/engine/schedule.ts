// How a task is scheduled, read from its check's `schedule` alone: which resource locks it holds, in which mode.
import type { Schedule } from '../core/check.js';
import type { LockMode } from './locks.js';

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
 * Runs `fn` on every item with at most `limit` under way at once (the next starts as one ends)
 * and answers the results in the items' order. A check's independent requests go out this way,
 * `limit` being --concurrency, so one task never has more requests in flight than the run has
 * task slots.
 */
export async function together<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const lane = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        out[i] = await fn(items[i], i);
      } catch (err) {
        failed = true; // no more starts: the check is ending with this error (or skip)
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, lane));
  return out;
}
