// The audit's own limit: the longest chain of request rounds that had to follow one another, counted as the run goes.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { LockSpec } from './schedule.js';

/**
 * The longest chain of the run, in request rounds. A round is one request's time on the wire:
 * times the service's latency, the chain is the shortest wall time any schedule could reach with
 * the checks as written (unlimited concurrency), so the bench can say how far a run is from it.
 */
export interface ChainStats {
  /** setup + tasks + last + cleanup: rounds that had to follow one another across the run. */
  rounds: number;
  /** Rounds before the first task (reachability probe, login, binding nested resources). */
  setup: number;
  /** The longest chain through the tasks: one resource's locked tasks in turn, or one unlocked task. */
  tasks: number;
  /** The resource whose tasks make that chain (undefined: an unlocked task or none). */
  resource?: string;
  /** Tasks that run alone after all others, one after another. */
  last: number;
  /** Rounds of the cleanup. */
  cleanup: number;
}

/**
 * Rounds of one strand of work (a task, the setup, the cleanup): a request goes one round after the
 * deepest answer already in when it left, so requests sent together share a round and a request
 * sent after an answer (whether or not it needed it) counts one more.
 */
class Rounds {
  answered: number;
  deepest: number;

  /** `base`: the rounds already behind the strand when it starts (see `strand`). */
  constructor(base = 0) {
    this.answered = base;
    this.deepest = base;
  }

  start(): () => void {
    const round = this.answered + 1;
    if (round > this.deepest) this.deepest = round;
    return () => {
      if (round > this.answered) this.answered = round;
    };
  }
}

/** The strand of work requests are counted in now (module-wide: `strand` needs no engine handle). */
const current = new AsyncLocalStorage<Rounds>();

/**
 * Runs `work` as a strand of its own beside others of the same task: its requests depend on what
 * was answered before it started, not on its siblings'. Without it, requests a task sends side by
 * side but a few at a time (to stay within --concurrency) would count as following one another.
 * The task continues after it from the deepest round the strand reached.
 */
export async function strand<T>(work: () => Promise<T>): Promise<T> {
  return strandsFromHere()(work);
}

/**
 * Starts strands (see `strand`) that all begin at this point of the current one, however late each
 * is started: a batch that starts its items as slots free up does not make an item depend on the
 * items before it, and holds no pending strand per item waiting for its turn.
 */
export function strandsFromHere(): <T>(work: () => Promise<T>) => Promise<T> {
  const parent = current.getStore();
  if (!parent) return (work) => work();
  const base = parent.answered;
  return async (work) => {
    const rounds = new Rounds(base);
    try {
      return await current.run(rounds, work);
    } finally {
      parent.answered = Math.max(parent.answered, rounds.answered);
      parent.deepest = Math.max(parent.deepest, rounds.deepest);
    }
  };
}

/** What a task is, for the chain: its locks, or a phase that runs alone. */
export type ChainPart = LockSpec | 'last' | 'cleanup';

/**
 * Counts request rounds per task and adds them up the way the locks serialize them: tasks holding
 * a resource exclusively follow one another; tasks sharing it may run together (the longest
 * counts); tasks with no lock run beside everything. Tasks the engine runs last, and the cleanup,
 * follow everything.
 */
export class Chains {
  private readonly setup = new Rounds();
  /** Requests of no task sent while tasks run: a strand beside them. */
  private readonly between = new Rounds();
  private started = false;
  private readonly exclusive = new Map<string, number>();
  private readonly shared = new Map<string, number>();
  private unlocked = 0;
  private last = 0;
  private cleanup = 0;

  /** Called as a request leaves; the function it returns, once its answer (or failure) is in. */
  request(): () => void {
    return (current.getStore() ?? (this.started ? this.between : this.setup)).start();
  }

  /** Runs a task (or the cleanup) counting the rounds of the requests it sends. */
  async run<T>(part: ChainPart, work: () => Promise<T>): Promise<T> {
    this.started = true;
    const rounds = new Rounds();
    try {
      return await current.run(rounds, work);
    } finally {
      this.add(part, rounds.deepest);
    }
  }

  private add(part: ChainPart, rounds: number): void {
    if (part === 'last') this.last += rounds;
    else if (part === 'cleanup') this.cleanup += rounds;
    else if (part.names.length === 0) this.unlocked = Math.max(this.unlocked, rounds);
    else if (part.mode === 'exclusive')
      for (const name of part.names) this.exclusive.set(name, (this.exclusive.get(name) ?? 0) + rounds);
    else for (const name of part.names) this.shared.set(name, Math.max(this.shared.get(name) ?? 0, rounds));
  }

  /** The chain so far (complete once the cleanup has run). */
  stats(): ChainStats {
    let tasks = Math.max(this.unlocked, this.between.deepest);
    let resource: string | undefined;
    for (const name of new Set([...this.exclusive.keys(), ...this.shared.keys()])) {
      const rounds = (this.exclusive.get(name) ?? 0) + (this.shared.get(name) ?? 0);
      if (rounds > tasks) [tasks, resource] = [rounds, name];
    }
    const setup = this.setup.deepest;
    return {
      rounds: setup + tasks + this.last + this.cleanup,
      setup,
      tasks,
      ...(resource !== undefined ? { resource } : {}),
      last: this.last,
      cleanup: this.cleanup,
    };
  }
}
