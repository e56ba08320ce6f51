// When the client may send its next request: 429 pauses, --max-rps spacing, and a rate that adapts to the service's limiter.
import type { Clock } from '../core/context.js';
import { rateBudget, sleep } from './retry.js';

export type { Clock };

/** The wall clock and real timers. */
export const realClock: Clock = { now: () => Date.now(), sleep };

/**
 * How a request takes its turn: `paced` (ordinary requests) keeps to the adaptive rate and the
 * service's advertised budget; `burst` (requests that look for a 429 on purpose, retryOn429: false)
 * keeps only to pauses and --max-rps, so the rate-limit burst stays a burst.
 */
export type TurnMode = 'paced' | 'burst';

/** Fraction of the rate kept after a 429 (multiplicative decrease). */
export const DECREASE = 0.7;
/** Requests per second the adaptive rate gains per second of answers without a 429 (additive increase). */
export const INCREASE_PER_S = 5;
/** The adaptive rate never goes below this (requests per second). */
export const MIN_RPS = 1;
/** Longest wait for an advertised budget (`RateLimit-Remaining: 0`) to reset before sending anyway (ms). */
export const MAX_BUDGET_WAIT_MS = 30_000;

/**
 * Hands out turns to send. A 429 pauses every request of the client, not only the one refused: a
 * service that says "wait" means the client, and the other requests in flight would be refused too.
 * With a rate cap, turns are spaced 1000 / rate ms apart, in the order they were asked for. The cap
 * is the lowest of --max-rps, the adaptive rate (AIMD: cut to 70% of the rate the service admitted
 * on each 429, raised by 5 requests per second every second after) and, when the service
 * advertises its budget (`RateLimit-Remaining`/`-Reset` and their spellings) and little is left,
 * what is left spread over the time to its reset; with nothing left, requests wait for the reset.
 */
export class Pacer {
  private pausedUntil = 0;
  private nextSlot = 0;
  /** The adaptive rate (requests per second); undefined until the first 429. */
  private rate: number | undefined;
  private decreasedAt = -Infinity;
  /** When recent paced requests were answered other than 429 (the last second's). */
  private admitted: number[] = [];
  /** Entries of `admitted` before this index are older than a second (dropped lazily, see recentAdmitted). */
  private admittedFrom = 0;
  /** What the service's last answer said is left of its budget, and when it resets. */
  private budget: { left: number; low: number; resetAt: number } | undefined;

  constructor(
    private readonly clock: Clock,
    /** Cap on the request rate (requests per second); none when undefined or 0. */
    private readonly maxRps?: number,
  ) {}

  /** The adaptive rate now (requests per second); undefined while no 429 has lowered it. */
  get adaptiveRps(): number | undefined {
    return this.rate;
  }

  /** Holds every request back until `ms` from now (a longer pause already set stays). */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + ms);
  }

  /**
   * A paced request sent at `sentAt` was answered 429: the rate drops to 70% of what the service
   * admitted in the last second (or of the adaptive rate), once per round: 429s to requests sent
   * before the last cut say nothing about the new rate.
   */
  limited(sentAt: number): void {
    if (sentAt < this.decreasedAt) return;
    const now = this.clock.now();
    const admitted = this.recentAdmitted(now);
    const base = this.rate ?? Math.max(admitted, 10);
    this.rate = Math.max(MIN_RPS, Math.min(base, Math.max(admitted, MIN_RPS)) * DECREASE);
    this.decreasedAt = now;
    this.budget = undefined;
  }

  /** A paced request got an answer other than 429: the rate rises a little; the advertised budget is noted. */
  answered(headers: Record<string, string>): void {
    const now = this.clock.now();
    this.admitted.push(now);
    if (this.admitted.length - this.admittedFrom > 4096) this.recentAdmitted(now);
    if (this.rate !== undefined) this.rate += INCREASE_PER_S / this.rate;
    const told = rateBudget(headers, now);
    if (told) {
      const low = Math.max(5, (told.limit ?? 50) * 0.2);
      this.budget = { left: told.remaining, low, resetAt: now + told.resetMs };
    }
  }

  /** Resolves once no pause holds requests back (rejects when `signal` aborts first); takes no turn. */
  async unpaused(signal?: AbortSignal): Promise<void> {
    for (let wait = this.pausedUntil - this.clock.now(); wait > 0; wait = this.pausedUntil - this.clock.now())
      await this.clock.sleep(wait, signal);
  }

  /**
   * Resolves with the time the request may go; rejects (with the signal's reason) when `signal`
   * aborts first.
   */
  async turn(signal?: AbortSignal, mode: TurnMode = 'paced'): Promise<number> {
    for (;;) {
      const now = this.clock.now();
      const paused = this.pausedUntil - now;
      if (paused > 0) {
        // A pause may be extended while this request waits (another 429): look again after it.
        await this.clock.sleep(paused, signal);
        continue;
      }
      const budget = mode === 'paced' ? this.budget : undefined;
      if (budget && now >= budget.resetAt) this.budget = undefined;
      else if (budget && budget.left <= 0) {
        // Nothing left until the reset: wait for it (bounded), then go by the 429s again.
        this.budget = undefined;
        await this.clock.sleep(Math.min(budget.resetAt - now, MAX_BUDGET_WAIT_MS), signal);
        continue;
      }
      const cap = this.cap(now, mode);
      let at = now;
      if (cap !== undefined) {
        at = Math.max(now, this.nextSlot);
        this.nextSlot = at + 1000 / cap;
        if (at > now) await this.clock.sleep(at - now, signal);
      }
      if (mode === 'paced' && this.budget) this.budget.left--;
      return at;
    }
  }

  /** The lowest of the rates that apply now, or undefined when none does. */
  private cap(now: number, mode: TurnMode): number | undefined {
    const caps: number[] = [];
    if (this.maxRps) caps.push(this.maxRps);
    if (mode === 'paced') {
      if (this.rate !== undefined) caps.push(this.rate);
      const b = this.budget;
      // Little left: spread it over the time to the reset, so the last of it is not refused.
      if (b && b.left < b.low)
        caps.push(Math.max(MIN_RPS, b.left / Math.max(0.001, (b.resetAt - now) / 1000)));
    }
    return caps.length > 0 ? Math.min(...caps) : undefined;
  }

  /** Answers other than 429 in the last second (older ones are dropped). */
  private recentAdmitted(now: number): number {
    // Times only grow: skip the old ones from where the last look stopped, and copy the array only
    // once most of it is old (a scan and a copy at every answer made a fast run quadratic).
    const since = now - 1000;
    let from = this.admittedFrom;
    while (from < this.admitted.length && this.admitted[from] <= since) from++;
    if (from > 1024 && from * 2 > this.admitted.length) {
      this.admitted = this.admitted.slice(from);
      from = 0;
    }
    this.admittedFrom = from;
    return this.admitted.length - from;
  }
}
