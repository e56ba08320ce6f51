// Reading a response body within a per-response cap and a memory budget shared by concurrent responses.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { SAFE_METHODS } from '../core/methods.js';
import type { TransportErrorCode } from '../core/transport-errors.js';

/** Bytes of a body kept once it is known to be over the cap: enough for evidence, small enough to hold many. */
export const KEPT_WHEN_TRUNCATED = 64 * 1024;

/** Bodies smaller than this are not counted as held by their exchange (see `BodyLimits.hold`). */
export const HELD_FROM = 64 * 1024;

/** Bodies over the cap after which later bodies are read only to REDUCED_CAP. */
export const OVER_CAP_BEFORE_REDUCING = 3;
/** The cap once a service has shown that it sends huge bodies. */
export const REDUCED_CAP = 1024 * 1024;

/**
 * The limits of one client's response bodies: a per-response cap, a budget of bytes being read at
 * once across concurrent responses (a burst of 50 requests to a service that streams gigabytes
 * must not hold 50 caps' worth), and the same budget again for what exchanges still hold of the
 * bodies they were given (a check keeping seventy answers of 9 MB must not hold 630 MB): a held
 * body counts until its exchange is garbage-collected. Once a service has sent
 * OVER_CAP_BEFORE_REDUCING bodies over the cap, later bodies are read only to REDUCED_CAP: such
 * bodies cannot be judged anyway, and reading each to the full cap costs the service bandwidth
 * and the audit memory.
 */
export class BodyLimits {
  /** Bytes reserved by bodies being read. */
  private used = 0;
  /** Bytes held by exchanges (given back when they are collected). */
  private held = 0;
  private overCap = 0;
  /** Readers waiting for bytes to be given back. */
  private readonly waiting = new Set<() => void>();
  /** Bodies being read, oldest first (see `acquire`). */
  private readonly readers: object[] = [];
  /** Gives back a held body's bytes once its owner is collected. */
  private readonly released = new FinalizationRegistry<number>((n) => {
    this.held = Math.max(0, this.held - n);
  });

  constructor(
    readonly fullCap: number,
    readonly budget: number,
    /** Forces a garbage collection (injected by tests); default: the process's own. */
    private readonly collect: () => void = collectGarbage,
  ) {}

  /** The cap for the next body. */
  get cap(): number {
    return this.overCap >= OVER_CAP_BEFORE_REDUCING ? Math.min(this.fullCap, REDUCED_CAP) : this.fullCap;
  }

  /** Bytes of bodies in memory now: being read, and held by exchanges. */
  get inUse(): { reading: number; held: number } {
    return { reading: this.used, held: this.held };
  }

  /** Counts a body that was over the cap. */
  noteOverCap(): void {
    this.overCap++;
  }

  /** Reserves `n` bytes of the reading budget; false when that would pass it. */
  take(n: number): boolean {
    if (this.used + n > this.budget) return false;
    this.used += n;
    return true;
  }

  /** Registers a body being read (the token passed to `acquire`); `leave` when it is read. */
  enter(): object {
    const reader = {};
    this.readers.push(reader);
    return reader;
  }

  leave(reader: object): void {
    const at = this.readers.indexOf(reader);
    if (at >= 0) this.readers.splice(at, 1);
    this.wake();
  }

  /**
   * Reserves `n` bytes for reading, waiting (at most until `until`, a Date.now() time) for other
   * readers to give bytes back. Only the oldest body being read may use the last cap's worth of
   * the budget: so it can always be read whole, and two bodies each half read cannot wait for
   * each other until the wait runs out. False: not reserved, also when what exchanges hold is past
   * the budget even after a collection (waiting would not help: only the checks holding them can
   * let go). `essential` (the 2xx answer to a write) is refused only when exchanges hold twice the
   * budget, and when the wait is over may still pass the reading budget, up to twice it: a ceiling
   * that holds even then (a service answering every write with a decompression bomb must not hold
   * the cap per write).
   */
  async acquire(n: number, options: Claim = {}): Promise<boolean> {
    if (this.grab(n, options)) return true;
    const heldLimit = options.essential ? 2 * this.budget : this.budget;
    // What exchanges hold grows while a reader waits (the readers ahead of it finish and are
    // held): checked again after every wait, or a batch of waiting readers would each pass it.
    const heldFits = async (): Promise<boolean> => {
      if (this.held <= heldLimit) return true;
      await this.relieve();
      return this.held <= heldLimit;
    };
    if (!(await heldFits())) return false;
    const fits = (): boolean => this.grab(n, options, false);
    if (fits()) return true;
    const until = options.until ?? 0;
    while (Date.now() < until) {
      await this.givenBack(until - Date.now());
      if (!(await heldFits())) return false;
      if (fits()) return true;
    }
    if (!options.essential || this.used + n > 2 * this.budget) return false;
    this.used += n;
    return true;
  }

  /**
   * `acquire` without waiting or collecting: true when the bytes fit now (the common case, so a
   * body of many chunks pays no promise per chunk).
   */
  grab(n: number, options: Claim = {}, checkHeld = true): boolean {
    if (checkHeld && this.held > (options.essential ? 2 : 1) * this.budget) return false;
    const oldest = options.reader === undefined || this.readers[0] === options.reader;
    if (this.used + n > (oldest ? this.budget : this.budget - this.fullCap)) return false;
    this.used += n;
    return true;
  }

  give(n: number): void {
    this.used = Math.max(0, this.used - n);
    this.wake();
  }

  private wake(): void {
    for (const wake of [...this.waiting]) wake();
  }

  /**
   * Counts `n` bytes as held until `owner` (the exchange holding them) is garbage-collected. Bodies
   * under HELD_FROM are not counted: what a check can hoard of them stays small, and watching
   * every exchange for its collection delays the collection of all of them (10 MB more at peak
   * in an audit of 18,000 small answers).
   */
  hold(owner: object, n: number): void {
    if (n < HELD_FROM) return;
    this.held += n;
    this.released.register(owner, n);
  }

  /**
   * Admits a parsed value of about `n` bytes to be held, counted until `value` is collected.
   * What a body becomes is known only once it is parsed (megabytes of dense JSON take several
   * times their characters), and bodies read side by side all passed the check before any was
   * parsed: so the bound is enforced here, where the cost is known. False: holding it would pass
   * the budget (twice it for `essential` answers) even after a collection; the caller cuts it.
   */
  async admit(value: object, n: number, essential = false): Promise<boolean> {
    const limit = essential ? 2 * this.budget : this.budget;
    if (this.held + n > limit) {
      await this.relieve();
      if (this.held + n > limit) return false;
    }
    this.held += n;
    this.released.register(value, n);
    return true;
  }

  /**
   * Frees the budget of bodies nobody holds any more: a collection, then a turn of the event loop
   * for the finalizers to give their bytes back. Called before a reader is made to wait or cut.
   */
  async relieve(): Promise<void> {
    this.collect();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /** Resolves when bytes are given back, or after `ms`. */
  private givenBack(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.waiting.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(1, ms));
      this.waiting.add(wake);
    });
  }
}

/**
 * True for the 2xx answer to a write: it may name what the write created or changed, so the
 * budget is stretched for it (see `BodyLimits.acquire` and `admit`) rather than cut it.
 */
export function isEssential(method: string, status: number | undefined): boolean {
  return !SAFE_METHODS.has(method) && status !== undefined && status < 300;
}

/** Who asks `BodyLimits.acquire` for bytes, and how long it may wait. */
export interface Claim {
  /** The 2xx answer to a write (see `acquire`). */
  essential?: boolean;
  /** Until when (a Date.now() time) the reader may wait. */
  until?: number;
  /** The body being read (from `enter`). */
  reader?: object;
}

/** Why reading stopped early (E_BODY_TOO_LARGE: over the cap; E_BODY_BUDGET: memory budget spent). */
export interface Stop {
  code: Extract<TransportErrorCode, 'E_BODY_TOO_LARGE' | 'E_BODY_BUDGET'>;
  message: string;
}

export interface BodyRead {
  bytes: Buffer;
  /** True when the client stopped reading before the end (see `stopped`). */
  truncated: boolean;
  stopped?: Stop;
  /** The stream failed before its end (time-out, reset, short body, undecodable): what it threw. */
  failure?: unknown;
  /**
   * Bytes of the budget still reserved for this body, with `keepReserved`: the caller gives them
   * back once it has turned the bytes into what it keeps.
   */
  reserved: number;
}

export interface ReadOptions {
  /**
   * Read the body whole up to the cap even when the memory budget is spent (up to twice the
   * budget): the answer to a write, whose id or state the audit must know (cutting it could lose
   * track of what it created).
   */
  essential?: boolean;
  /** How the body was encoded, for messages ("gzip-compressed"), when it was decoded on the way. */
  coding?: string;
  /**
   * Until when (a Date.now() time) a reader may wait for other readers to give memory back before
   * its body is cut for want of budget (default: it does not wait).
   */
  waitUntil?: number;
  /** Leave the body's bytes reserved (see BodyRead.reserved): decoding it takes memory too. */
  keepReserved?: boolean;
}

/**
 * Reads a body up to `cap` bytes, taking each chunk from the shared budget. Stops (and destroys the
 * stream, so the server's writes fail instead of filling memory) when the body is larger than the
 * cap, when Content-Length already says so, or when the budget is spent. Chunks are copied into
 * blocks of the reader's own, so a service that sends a body one byte per chunk costs its bytes,
 * not an object per byte (nor the socket buffers such slices would keep alive). Never throws.
 */
export async function readBody(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  limits: BodyLimits,
  contentLength?: number,
  options: ReadOptions = {},
): Promise<BodyRead> {
  const cap = limits.cap;
  const reduced =
    cap < limits.fullCap
      ? ` (lowered from ${limits.fullCap} after ${OVER_CAP_BEFORE_REDUCING} bodies over it)`
      : '';
  const what = options.coding ? `${options.coding} response body, decoded,` : 'response body';
  const reader = limits.enter();
  const budget = { essential: options.essential, until: options.waitUntil, reader };
  const cut = (size: number): Stop => ({
    code: 'E_BODY_BUDGET',
    message: `${what} ${size > 0 ? `over ${size} bytes ` : ''}while other answers held the rest of the ${limits.budget} bytes the audit keeps in memory at once: stopped reading (the body is under the cap of ${cap} bytes; it was cut to bound memory)`,
  });
  const tooLarge: Stop = {
    code: 'E_BODY_TOO_LARGE',
    message: `${what} larger than ${cap} bytes: stopped reading at the cap${reduced}`,
  };
  // Content-Length over the cap: read only what evidence shows, then stop.
  let limit = cap;
  let atLimit = tooLarge;
  if (contentLength !== undefined && contentLength > cap) {
    limit = KEPT_WHEN_TRUNCATED;
    atLimit = {
      code: 'E_BODY_TOO_LARGE',
      message: `response body of ${contentLength} bytes (Content-Length), larger than the cap of ${cap} bytes${reduced}: read the first ${limit} bytes and stopped reading at the cap`,
    };
  }
  // A declared length is reserved whole before reading (readers never hold half a body each while
  // waiting for one another), and read into one block of that size. Refused: an excerpt only.
  let held = 0;
  let declared = contentLength !== undefined && contentLength <= cap ? contentLength : undefined;
  if (declared !== undefined && declared > KEPT_WHEN_TRUNCATED) {
    if (limits.grab(declared, budget) || (await limits.acquire(declared, budget))) held = declared;
    else {
      limit = KEPT_WHEN_TRUNCATED;
      atLimit = cut(0);
      declared = undefined;
    }
  }
  // Up to `free` bytes need no reservation: an excerpt, or what was reserved whole.
  const free = Math.max(held, limit === KEPT_WHEN_TRUNCATED ? limit : 0);
  const blocks = new Blocks(declared, Math.max(limit, KEPT_WHEN_TRUNCATED));
  let stopped: Stop | undefined;
  const release = (): number => {
    limits.leave(reader);
    if (options.keepReserved) return held;
    limits.give(held);
    return 0;
  };
  try {
    for await (const chunk of body) {
      const size = blocks.size;
      const after = size + chunk.length;
      if (after > limit) stopped = atLimit;
      else if (after > Math.max(free, held)) {
        if (limits.grab(after - held, budget) || (await limits.acquire(after - held, budget))) held = after;
        else stopped = cut(size);
      }
      if (stopped) {
        blocks.push(chunk.subarray(0, Math.max(0, Math.min(chunk.length, KEPT_WHEN_TRUNCATED - size))));
        body.destroy();
        if (stopped.code === 'E_BODY_TOO_LARGE') limits.noteOverCap();
        readBytes(chunk.length);
        break;
      }
      blocks.push(chunk);
      readBytes(chunk.length);
    }
  } catch (failure) {
    return { bytes: blocks.bytes(), truncated: false, failure, reserved: release() };
  }
  if (!stopped) return { bytes: blocks.bytes(), truncated: false, reserved: release() };
  // Over the cap the body is unusable: keep a copy of its start only, so the blocks can be freed.
  return { bytes: blocks.bytes(KEPT_WHEN_TRUNCATED), truncated: true, stopped, reserved: release() };
}

/**
 * A body copied into a buffer of its own (never holding the chunks it was given, which may be
 * views of a socket's larger buffer). A declared length is one exact allocation; otherwise the
 * buffer doubles as needed (up to `max`), so the last copy costs at most the body again, and the
 * result is a view of it, not a second copy.
 */
class Blocks {
  private buffer: Buffer;
  size = 0;

  constructor(
    expected: number | undefined,
    private readonly max: number,
  ) {
    this.buffer = Buffer.allocUnsafe(expected !== undefined ? Math.max(expected, 1) : 1024);
  }

  push(chunk: Buffer): void {
    const needed = this.size + chunk.length;
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, Math.min(2 * this.buffer.length, this.max)));
      this.buffer.copy(grown, 0, 0, this.size);
      this.buffer = grown;
    }
    chunk.copy(this.buffer, this.size);
    this.size = needed;
  }

  /** The first `max` bytes (default all); a copy when a view would keep a much larger buffer alive. */
  bytes(max = Infinity): Buffer {
    const view = this.buffer.subarray(0, Math.min(this.size, max));
    return view.length * 2 < this.buffer.length ? Buffer.from(view) : view;
  }
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
  collectGarbage();
}

/** Bodies from this size are collected as soon as they are dropped (see `dropped`). */
const LARGE_BODY = 1024 * 1024;

/**
 * Says that a body of `chars` characters was just dropped (its bytes and its text, once the
 * exchange kept only what it needs). A large one is collected at once: otherwise the copies of
 * one large body stack on those of the next until the collection `readBytes` makes.
 */
export function dropped(chars: number): void {
  if (chars < LARGE_BODY) return;
  unreclaimed = 0;
  collectGarbage();
}

/** A full garbage collection, when the runtime lets the process ask for one. */
function collectGarbage(): void {
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
