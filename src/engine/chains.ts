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
  private answered = 0;
  deepest = 0;

  start(): () => void {
    const round = this.answered + 1;
    if (round > this.deepest) this.deepest = round;
    return () => {
      if (round > this.answered) this.answered = round;
    };
  }
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
  private readonly current = new AsyncLocalStorage<Rounds>();
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
    return (this.current.getStore() ?? (this.started ? this.between : this.setup)).start();
  }

  /** Runs a task (or the cleanup) counting the rounds of the requests it sends. */
  async run<T>(part: ChainPart, work: () => Promise<T>): Promise<T> {
    this.started = true;
    const rounds = new Rounds();
    try {
      return await this.current.run(rounds, work);
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
