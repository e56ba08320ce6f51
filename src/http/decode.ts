// Reading an answer's body, decoded as it streams in when compressed (gzip, deflate, br), so the cap counts decoded bytes.
import { pipeline, Readable, type Transform } from 'node:stream';
import * as zlib from 'node:zlib';
import { isEssential, KEPT_WHEN_TRUNCATED, readBody, type BodyLimits, type BodyRead } from './body.js';

/** A body the reader iterates and can stop (see readBody). */
export type BodyStream = AsyncIterable<Buffer> & { destroy(): unknown };

/** zstd arrived in node:zlib after Node 20; used when the runtime has it. */
const zstd = (zlib as unknown as { createZstdDecompress?: () => Transform }).createZstdDecompress;

/** Decoders by content coding (RFC 9110 §8.4.1; x-gzip is gzip's old name). */
const DECODERS: Record<string, ((first?: Buffer) => Transform) | undefined> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  // "deflate" is the zlib format; some servers send raw deflate, which browsers accept too.
  deflate: (first) => (first && !zlibHeader(first) ? zlib.createInflateRaw() : zlib.createInflate()),
  br: () => zlib.createBrotliDecompress(),
  ...(zstd ? { zstd: () => zstd() } : {}),
};

/** The codings of a Content-Encoding header, in the order the server applied them (identity left out). */
export function contentCodings(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

/** The first coding the audit cannot decode, if any. */
export function undecodable(codings: string[]): string | undefined {
  return codings.find((c) => DECODERS[c] === undefined);
}

/** The codings the audit decodes, for messages. */
export function decodableCodings(): string {
  const names = Object.keys(DECODERS).filter((c) => c !== 'x-gzip');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** True when a failure came from a decoder (corrupt or cut compressed data), not from the transport. */
export function isDecodeError(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^(Z_|ERR__|ERR_ZSTD)/.test(code);
}

/**
 * A body decoded as it streams in: each decoder respects backpressure, so a reader that stops at
 * the cap stops the decompression too (2 MB that inflate to 1 GB cost the cap, not a gigabyte).
 * An empty body is not decoded (an empty gzip stream would be an error, yet there is nothing to
 * read). `wireBytes` counts the bytes as received.
 */
export function decoding(
  source: BodyStream,
  codings: string[],
): BodyStream & { readonly wireBytes: number; received(): Buffer } {
  let wire = 0;
  let last: Readable | undefined;
  // The start of what came, as it came: the evidence of a body that does not decode.
  const start: Buffer[] = [];
  const keep = (chunk: Buffer): void => {
    if (wire < KEPT_WHEN_TRUNCATED) start.push(Buffer.from(chunk.subarray(0, KEPT_WHEN_TRUNCATED - wire)));
    wire += chunk.length;
  };
  async function* decoded(): AsyncGenerator<Buffer> {
    const it = source[Symbol.asyncIterator]();
    const first = await it.next();
    if (first.done) return;
    async function* received(): AsyncGenerator<Buffer> {
      keep(first.value);
      yield first.value;
      for (;;) {
        const next = await it.next();
        if (next.done) return;
        keep(next.value);
        yield next.value;
      }
    }
    // Applied in order, so undone in reverse; only the outermost coding sees the first bytes.
    const stages = [...codings].reverse().map((c, i) => DECODERS[c]!(i === 0 ? first.value : undefined));
    last = pipeline([Readable.from(received()), ...stages], () => undefined) as unknown as Readable;
    yield* last as AsyncIterable<Buffer>;
  }
  const chunks = decoded();
  return {
    [Symbol.asyncIterator]: () => chunks,
    destroy: () => {
      last?.destroy();
      source.destroy();
    },
    get wireBytes() {
      return wire;
    },
    received: () => Buffer.concat(start),
  };
}

/** True when the bytes start with a zlib header (deflate method, window check bits valid). */
function zlibHeader(b: Buffer): boolean {
  if (b.length === 0 || (b[0] & 0x0f) !== 8 || b[0] >> 4 > 7) return false;
  return b.length < 2 || ((b[0] << 8) | b[1]) % 31 === 0;
}

/** What the content coding did to a body: a note for evidence, and what made it unusable. */
export interface Coding {
  note: string;
  /** Completes "the body …" when the coded body does not decode. */
  problem?: string;
  /** A coding the audit does not decode: the body is as sent. */
  undecoded?: string;
}

/**
 * Reads an answer's body, decoded when it is compressed (the cap and the budget count decoded
 * bytes). A body waits for memory other answers give back before it is cut for want of it; the
 * 2xx answer to a write may pass the budget (up to twice it), since it may name what the write
 * created. A compressed body that does not decode is a complete answer with an unusable body;
 * `read.failure` is left for the transport's failures only. The bytes stay reserved
 * (`read.reserved`) until the caller gives them back.
 */
export async function readAnswer(
  body: BodyStream,
  answer: {
    headers: Record<string, string>;
    status: number;
    method: string;
    limits: BodyLimits;
    timeoutMs: number;
  },
): Promise<{ read: BodyRead; coding?: Coding }> {
  const { headers, status, method, limits } = answer;
  const declared = Number(headers['content-length']);
  const length = Number.isFinite(declared) ? declared : undefined;
  const noBody = method === 'HEAD' || status === 204 || status === 304;
  const codings = noBody ? [] : contentCodings(headers['content-encoding']);
  const unknown = undecodable(codings);
  const coded = codings.length > 0 && unknown === undefined ? decoding(body, codings) : undefined;
  const read = await readBody(
    coded ?? body,
    limits,
    // A compressed length says nothing of the decoded size, unless it alone passes the cap.
    coded && length !== undefined && length <= limits.cap ? undefined : length,
    {
      essential: isEssential(method, status),
      // Other readers usually give memory back within milliseconds: wait for them rather than
      // cut a body under the cap, but leave the deadline room to read it.
      waitUntil: Date.now() + answer.timeoutMs / 2,
      keepReserved: true,
      ...(coded ? { coding: `${codings.join(', ')}-compressed` } : {}),
    },
  );
  const header = headers['content-encoding'];
  if (unknown !== undefined) {
    const note = `the body is in Content-Encoding ${unknown}, which the audit does not decode (it decodes ${decodableCodings()}): shown as sent`;
    return { read, coding: { note, undecoded: unknown } };
  }
  if (coded && read.failure !== undefined && isDecodeError(read.failure)) {
    const why = (read.failure as Error).message;
    const raw = coded.received();
    return {
      read: { ...read, bytes: raw, failure: undefined },
      coding: {
        note: `the body is declared Content-Encoding ${header} but does not decode (${why}); shown as received (${raw.length < coded.wireBytes ? `the first ${raw.length} of ` : ''}${coded.wireBytes} bytes)`,
        problem: `is declared ${codings.join(', ')}-compressed but does not decode (${why})`,
      },
    };
  }
  if (!coded || coded.wireBytes === 0) return { read };
  const shown = `${read.truncated ? 'the first ' : ''}${read.bytes.length} bytes`;
  const note = `the body came compressed (Content-Encoding: ${header}, ${coded.wireBytes} bytes received) and is shown decoded (${shown})`;
  return { read, coding: { note } };
}
