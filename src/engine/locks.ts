// Per-resource locks: a check that compares a collection's state never runs beside one that changes it.

export type LockMode = 'shared' | 'exclusive';

/**
 * One readers-writer lock: any number of `shared` holders at once, or one `exclusive` holder.
 * Waiters are served in arrival order (a waiting exclusive holder is not starved by new shared ones).
 */
class RwLock {
  private readers = 0;
  private writer = false;
  private readonly queue: Array<{ mode: LockMode; grant: () => void }> = [];

  acquire(mode: LockMode): Promise<void> {
    return new Promise((grant) => {
      this.queue.push({ mode, grant });
      this.drain();
    });
  }

  release(mode: LockMode): void {
    if (mode === 'shared') this.readers--;
    else this.writer = false;
    this.drain();
  }

  private drain(): void {
    while (this.queue.length > 0) {
      const head = this.queue[0];
      if (head.mode === 'shared' && !this.writer) {
        this.readers++;
      } else if (head.mode === 'exclusive' && !this.writer && this.readers === 0) {
        this.writer = true;
      } else {
        return;
      }
      this.queue.shift();
      head.grant();
    }
  }
}

/** Named locks; a task takes all the names it needs, in a fixed order (no deadlock). */
export class Locks {
  private readonly locks = new Map<string, RwLock>();

  constructor(names: string[]) {
    for (const name of names) this.locks.set(name, new RwLock());
  }

  /** Runs `fn` holding every named lock in the given mode (default exclusive). */
  async with<T>(names: string[], fn: () => Promise<T>, mode: LockMode = 'exclusive'): Promise<T> {
    const sorted = [...new Set(names)].filter((n) => this.locks.has(n)).sort();
    const held: RwLock[] = [];
    try {
      for (const name of sorted) {
        const lock = this.locks.get(name) as RwLock;
        await lock.acquire(mode);
        held.push(lock);
      }
      return await fn();
    } finally {
      for (const lock of held) lock.release(mode);
    }
  }
}
