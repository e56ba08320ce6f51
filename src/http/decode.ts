// Decoding compressed answers (Content-Encoding gzip, deflate, br) as they stream in, so the cap counts decoded bytes.
import { pipeline, Readable, type Transform } from 'node:stream';
import * as zlib from 'node:zlib';

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
export function decoding(source: BodyStream, codings: string[]): BodyStream & { readonly wireBytes: number } {
  let wire = 0;
  let last: Readable | undefined;
  async function* decoded(): AsyncGenerator<Buffer> {
    const it = source[Symbol.asyncIterator]();
    const first = await it.next();
    if (first.done) return;
    async function* received(): AsyncGenerator<Buffer> {
      wire += first.value.length;
      yield first.value;
      for (;;) {
        const next = await it.next();
        if (next.done) return;
        wire += next.value.length;
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
  };
}

/** True when the bytes start with a zlib header (deflate method, window check bits valid). */
function zlibHeader(b: Buffer): boolean {
  if (b.length === 0 || (b[0] & 0x0f) !== 8 || b[0] >> 4 > 7) return false;
  return b.length < 2 || ((b[0] << 8) | b[1]) % 31 === 0;
}
