// A clock for tests: time moves only when someone waits on it, so waits of seconds take none.
import type { Clock } from '../core/context.js';

/**
 * Time that moves only when the audit waits (`sleep` adds the wait and returns at once). Give the
 * same instance to the fixture server (`now`) and the run (`clock`) so both see the same time.
 * `sleep` returns within the same turn (waits of concurrent callers add up, as if taken in turn):
 * code that polls the network in a loop of sleeps needs the real clock.
 */
export class FakeClock implements Clock {
  /** The current time, ms since the epoch (a fixed start, so tests are repeatable). */
  t = Date.parse('2030-01-01T00:00:00Z');
  /** Every wait asked for, in order (ms). */
  readonly sleeps: number[] = [];
  now = (): number => this.t;
  sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
    this.t += ms;
  };
}
