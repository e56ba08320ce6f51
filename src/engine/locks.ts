// Per-resource locks: a check that compares a collection's state never runs beside one that changes it.

/** Named async mutexes; a task takes all the names it needs, in a fixed order (no deadlock). */
export class Locks {
  private readonly tails = new Map<string, Promise<void>>();

  constructor(names: string[]) {
    for (const name of names) this.tails.set(name, Promise.resolve());
  }

  /** Runs `fn` holding every named lock. */
  async with<T>(names: string[], fn: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(names)].filter((n) => this.tails.has(n)).sort();
    const releases: Array<() => void> = [];
    for (const name of sorted) {
      const previous = this.tails.get(name) as Promise<void>;
      let release!: () => void;
      const next = new Promise<void>((resolve) => (release = resolve));
      this.tails.set(
        name,
        previous.then(() => next),
      );
      await previous;
      releases.push(release);
    }
    try {
      return await fn();
    } finally {
      for (const release of releases) release();
    }
  }
}
