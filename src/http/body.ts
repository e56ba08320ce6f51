// Reading a response body within a per-response cap and a memory budget shared by concurrent responses.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Bytes of a body kept once it is known to be over the cap: enough for evidence, small enough to hold many. */
export const KEPT_WHEN_TRUNCATED = 64 * 1024;

/** Bodies over the cap after which later bodies are read only to REDUCED_CAP. */
export const OVER_CAP_BEFORE_REDUCING = 3;
/** The cap once a service has shown that it sends huge bodies. */
export const REDUCED_CAP = 1024 * 1024;

/**
 * The limits of one client's response bodies: a per-response cap, and a budget of bytes held in
 * memory at once across every response being read (a burst of 50 concurrent requests to a service
 * that streams gigabytes must not hold 50 caps' worth). Once a service has sent
 * OVER_CAP_BEFORE_REDUCING bodies over the cap, later bodies are read only to REDUCED_CAP: such
 * bodies cannot be judged anyway, and reading each to the full cap costs the service bandwidth and
 * the audit memory.
 */
export class BodyLimits {
  private used = 0;
  private overCap = 0;

  constructor(
    readonly fullCap: number,
    readonly budget: number,
  ) {}

  /** The cap for the next body. */
  get cap(): number {
    return this.overCap >= OVER_CAP_BEFORE_REDUCING ? Math.min(this.fullCap, REDUCED_CAP) : this.fullCap;
  }

  /** Counts a body that was over the cap. */
  noteOverCap(): void {
    this.overCap++;
  }

  /** Reserves `n` bytes of the budget; false when that would pass it. */
  take(n: number): boolean {
    if (this.used + n > this.budget) return false;
    this.used += n;
    return true;
  }

  give(n: number): void {
    this.used = Math.max(0, this.used - n);
  }
}

export interface BodyRead {
  bytes: Buffer;
  /** True when the client stopped reading before the end (see `stopped`). */
  truncated: boolean;
  /** Why reading stopped early (E_BODY_TOO_LARGE). */
  stopped?: { code: string; message: string };
  /** The stream failed before its end (time-out, reset, short body): what it threw. */
  failure?: unknown;
}

/**
 * Reads a body up to `cap` bytes, taking each chunk from the shared budget. Stops (and destroys the
 * stream, so the server's writes fail instead of filling memory) when the body is larger than the
 * cap, when Content-Length already says so, or when the budget is spent. Never throws.
 */
export async function readBody(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  limits: BodyLimits,
  contentLength?: number,
): Promise<BodyRead> {
  const cap = limits.cap;
  const reduced =
    cap < limits.fullCap
      ? ` (lowered from ${limits.fullCap} after ${OVER_CAP_BEFORE_REDUCING} bodies over it)`
      : '';
  const chunks: Buffer[] = [];
  let size = 0;
  let held = 0;
  let stopped: BodyRead['stopped'];
  // Content-Length over the cap: read only what evidence shows, then stop.
  const limit = contentLength !== undefined && contentLength > cap ? KEPT_WHEN_TRUNCATED : cap;
  try {
    for await (const chunk of body) {
      if (size + chunk.length > limit) {
        stopped = {
          code: 'E_BODY_TOO_LARGE',
          message:
            limit < cap
              ? `response body of ${contentLength} bytes (Content-Length), larger than the cap of ${cap} bytes${reduced}: read the first ${limit} bytes and stopped reading at the cap`
              : `response body larger than ${cap} bytes: stopped reading at the cap${reduced}`,
        };
      } else if (!limits.take(chunk.length)) {
        stopped = {
          code: 'E_BODY_TOO_LARGE',
          message: `response body over ${size} bytes while other responses held the rest of the ${limits.budget} bytes the audit keeps in memory at once: stopped reading at the cap`,
        };
      }
      if (stopped) {
        chunks.push(chunk.subarray(0, Math.max(0, Math.min(chunk.length, KEPT_WHEN_TRUNCATED - size))));
        body.destroy();
        if (size + chunk.length > cap || limit < cap) limits.noteOverCap();
        readBytes(chunk.length);
        break;
      }
      held += chunk.length;
      chunks.push(chunk);
      size += chunk.length;
      readBytes(chunk.length);
    }
  } catch (failure) {
    return { bytes: Buffer.concat(chunks), truncated: false, failure };
  } finally {
    limits.give(held);
  }
  if (!stopped) return { bytes: Buffer.concat(chunks, size), truncated: false };
  // Over the cap the body is unusable: keep a copy of its start only, so the chunks can be freed.
  return { bytes: prefix(chunks, KEPT_WHEN_TRUNCATED), truncated: true, stopped };
}

/** A fresh buffer with the first `n` bytes of the chunks (no copy of the rest). */
function prefix(chunks: Buffer[], n: number): Buffer {
  const out: Buffer[] = [];
  let size = 0;
  for (const chunk of chunks) {
    if (size >= n) break;
    const piece = chunk.subarray(0, n - size);
    out.push(piece);
    size += piece.length;
  }
  return Buffer.concat(out, size);
}

/** Body bytes read since the last collection. */
let unreclaimed = 0;
/** Collect after this many bytes of bodies were read. */
const COLLECT_AFTER = 4 * 1024 * 1024;
let collector: (() => void) | null | undefined;

/**
 * Counts body bytes read and collects garbage once they add up. Why: every socket read is a fresh
 * buffer, and V8 frees such buffers only when its own heap (not their size) asks for a collection,
 * so reading a service that streams gigabytes would grow the process by the 60-90 MB of external
 * memory V8 tolerates before it collects. A collection per 4 MB read costs a few ms; an API with
 * small bodies rarely pays for one.
 */
function readBytes(bytes: number): void {
  unreclaimed += bytes;
  if (unreclaimed < COLLECT_AFTER) return;
  unreclaimed = 0;
  if (collector === undefined) {
    try {
      // --expose-gc set at run time exposes gc() to new contexts only; it changes nothing else.
      setFlagsFromString('--expose-gc');
      collector = runInNewContext('gc') as () => void;
    } catch {
      collector = null;
    }
  }
  collector?.();
}
