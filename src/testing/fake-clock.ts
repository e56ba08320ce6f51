// A clock for tests of waits (429 pauses, pacing, --max-rps): time moves only when someone waits.
import type { Clock } from '../http/pacing.js';

/**
 * Time that moves only when someone waits: a sleep ends at the time it was asked for plus its
 * length (two requests waiting at once for 250 and 500 ms end at +250 and +500, not +750). Every
 * sleep asked for is recorded in `sleeps`.
 */
export class FakeClock implements Clock {
  t: number;
  readonly sleeps: number[] = [];

  constructor(start = Date.parse('2030-01-01T00:00:00Z')) {
    this.t = start;
  }

  now = (): number => this.t;

  sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
    const end = this.now() + ms;
    await Promise.resolve();
    this.moveTo(end);
  };

  /** Moves the time on to `end` when a sleep ends (never back: an earlier, longer sleep stands). */
  protected moveTo(end: number): void {
    this.t = Math.max(this.t, end);
  }
}
