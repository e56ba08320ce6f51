// Circuit breaker: when several requests in a row get no complete answer, one probe decides whether the
// service stopped answering; if it did, later requests fail fast instead of each waiting out its time-out.
import { faultOf, type TransportError } from '../core/transport-errors.js';

/** The part of an exchange the breaker judges. */
export interface Outcome {
  /** Undefined when no complete response arrived. */
  status?: number;
  error?: TransportError;
}

/**
 * Counts consecutive requests that got no complete answer (time-out, reset, stalled or cut body).
 * At `threshold` it runs `probe` once (concurrent senders wait for it): an answer clears the count,
 * since the failures were particular to those requests (a service may drop a malformed request);
 * no answer means the service stopped answering, and `stopped` then says why.
 */
export class Breaker {
  private streak = 0;
  private last = '';
  private reason: string | undefined;
  private probing: Promise<void> | undefined;

  constructor(
    private readonly threshold: number,
    private readonly probe: () => Promise<{ outcome: Outcome; what: string }>,
  ) {}

  /** Why requests are no longer sent, once the service stopped answering. */
  get stopped(): string | undefined {
    return this.reason;
  }

  /** Judges one completed exchange; starts the probe when the streak reaches the threshold. */
  record(outcome: Outcome): void {
    if (outcome.status !== undefined) {
      this.streak = 0;
      return;
    }
    // Failures of the audit's own (its stop, refusals, requests never sent) say nothing about the service.
    if (!outcome.error || faultOf(outcome.error) === 'audit') return;
    this.streak++;
    this.last = outcome.error.message;
    if (this.streak >= this.threshold && this.reason === undefined && this.probing === undefined) {
      // The probe never throws (the client turns failures into outcomes); guard anyway, since a
      // rejection here would surface in whichever send is waiting on it.
      this.probing = this.check()
        .catch(() => undefined)
        .finally(() => {
          this.probing = undefined;
        });
    }
  }

  /** Resolves once no probe is running. */
  async ready(): Promise<void> {
    while (this.probing) await this.probing;
  }

  /** Probes a stopped service once more (before cleanup): if it answers now, requests flow again. */
  async recheck(): Promise<void> {
    await this.ready();
    if (this.reason === undefined) return;
    const { outcome } = await this.probe();
    if (outcome.status !== undefined) {
      this.reason = undefined;
      this.streak = 0;
    }
  }

  private async check(): Promise<void> {
    const streak = this.streak;
    const last = this.last;
    const { outcome, what } = await this.probe();
    if (outcome.status !== undefined) {
      this.streak = 0;
      return;
    }
    // A probe the audit itself stopped (an interruption) proves nothing about the service.
    if (outcome.error && faultOf(outcome.error) === 'audit') return;
    this.reason =
      `the service stopped answering: ${streak} requests in a row got no complete answer (the last: ${last}), ` +
      `and neither did ${what} sent to check (${outcome.error?.message ?? 'no answer'})`;
  }
}
