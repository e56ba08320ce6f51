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
 * Runs `fn` on every item with at most `width()` under way at once (the next starts as one ends)
 * and answers the results in the items' order. A check's independent requests go out this way,
 * the width being --concurrency, so one task never has more requests in flight than the run has
 * task slots; it is read again before each start, so a run that narrows it (a service answering
 * 429: see `batchWidth` in run.ts) sends the rest of a batch one at a time.
 */
export async function together<T, R>(
  items: readonly T[],
  width: number | (() => number),
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const now = typeof width === 'number' ? () => width : width;
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const lane = async (lane: number): Promise<void> => {
    while (!failed && next < items.length && lane < Math.max(1, now())) {
      const i = next++;
      try {
        out[i] = await fn(items[i], i);
      } catch (err) {
        failed = true; // no more starts: the check is ending with this error (or skip)
        throw err;
      }
    }
  };
  const lanes = Math.min(Math.max(1, now()), items.length);
  await Promise.all(Array.from({ length: lanes }, (_x, i) => lane(i)));
  return out;
}
