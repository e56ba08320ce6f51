// When the client may send its next request: pauses after a 429 (for the whole client) and --max-rps spacing.
import { sleep } from './retry.js';

/** Time as the client waits it (429 pauses, --max-rps spacing); tests inject a fake one. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or rejects when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The wall clock and real timers. */
export const realClock: Clock = { now: () => Date.now(), sleep };

/**
 * Hands out turns to send. A 429 pauses every request of the client, not only the one refused: a
 * service that says "wait" means the client, and the other requests in flight would be refused too.
 * With a rate cap, turns are spaced 1000 / maxRps ms apart, in the order they were asked for.
 */
export class Pacer {
  private pausedUntil = 0;
  private nextSlot = 0;

  constructor(
    private readonly clock: Clock,
    /** Cap on the request rate (requests per second); none when undefined or 0. */
    private readonly maxRps?: number,
  ) {}

  /** Holds every request back until `ms` from now (a longer pause already set stays). */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + ms);
  }

  /** Resolves when a request may go; rejects (with the signal's reason) when `signal` aborts first. */
  async turn(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      let wait = this.pausedUntil - now;
      if (this.maxRps && wait <= 0) {
        const slot = Math.max(now, this.nextSlot);
        this.nextSlot = slot + 1000 / this.maxRps;
        wait = slot - now;
        if (wait > 0) await this.clock.sleep(wait, signal);
        return;
      }
      if (wait <= 0) return;
      // A pause may be extended while this request waits (another 429): look again after it.
      await this.clock.sleep(wait, signal);
    }
  }
}
