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
