// A memo keyed by text (e.g. a body already judged), bounded by the characters it keeps, least recently used forgotten first.

/**
 * Values remembered by text key for one run, within a budget of key characters for the whole run
 * (not per resource: an API of 10,000 resources gets the same bound as one of two). Past the
 * budget the least recently used keys are forgotten; a key longer than the budget is not kept.
 */
export class TextMemo<V> {
  private readonly entries = new Map<string, V>();
  private chars = 0;

  /** @param budget Characters of keys kept at most, counted with `overhead` per entry. */
  constructor(
    private readonly budget: number,
    private readonly overhead = 64,
  ) {}

  /** The value remembered under `key` (now the most recently used), or undefined. */
  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Remembers `value` under `key`, forgetting the least recently used keys past the budget. */
  set(key: string, value: V): void {
    const cost = key.length + this.overhead;
    if (cost > this.budget) return;
    if (this.entries.has(key)) this.forget(key);
    this.entries.set(key, value);
    this.chars += cost;
    while (this.chars > this.budget) this.forget(this.entries.keys().next().value as string);
  }

  /** Keys remembered now. */
  get size(): number {
    return this.entries.size;
  }

  private forget(key: string): void {
    this.entries.delete(key);
    this.chars -= key.length + this.overhead;
  }
}
