// Compressed answers: decoded as they stream, the decoded size cut at the cap, undecodable bodies said to be so.
import { describe, expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import { BodyLimits } from '../../src/http/body.js';
import { contentCodings, readAnswer } from '../../src/http/decode.js';

const JSON_BODY = Buffer.from(JSON.stringify({ id: 7, name: 'bolt', tags: ['a', 'b'] }));

/** A body stream in chunks of `size` bytes, counting what was pulled from it. */
function source(bytes: Buffer, size = 16 * 1024) {
  const state = { pulled: 0 };
  const stream = Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += size) {
        const chunk = bytes.subarray(at, at + size);
        state.pulled += chunk.length;
        yield chunk;
      }
    })(),
  );
  return { stream, state };
}

async function read(bytes: Buffer, encoding: string, options: { method?: string; status?: number } = {}) {
  const limits = new BodyLimits(1024 * 1024, 4 * 1024 * 1024);
  const { stream, state } = source(bytes);
  const out = await readAnswer(stream, {
    headers: { 'content-encoding': encoding, 'content-length': String(bytes.length) },
    status: options.status ?? 200,
    method: options.method ?? 'GET',
    limits,
    timeoutMs: 1000,
  });
  limits.give(out.read.reserved);
  return { ...out, state, limits };
}

describe('compressed answers', () => {
  it.each([
    ['gzip', zlib.gzipSync(JSON_BODY)],
    ['x-gzip', zlib.gzipSync(JSON_BODY)],
    ['deflate', zlib.deflateSync(JSON_BODY)],
    ['deflate', zlib.deflateRawSync(JSON_BODY)], // raw deflate, as some servers send it
    ['br', zlib.brotliCompressSync(JSON_BODY)],
    ['gzip, br', zlib.brotliCompressSync(zlib.gzipSync(JSON_BODY))],
    ['identity', JSON_BODY],
  ])('%s: read decoded, with a note saying it was compressed', async (encoding, bytes) => {
    const { read: body, coding } = await read(bytes, encoding);
    expect(body.bytes.equals(JSON_BODY)).toBe(true);
    expect(body.truncated).toBe(false);
    if (encoding === 'identity') expect(coding).toBeUndefined();
    else
      expect(coding?.note).toBe(
        `the body came compressed (Content-Encoding: ${encoding}, ${bytes.length} bytes received) and is shown decoded (${JSON_BODY.length} bytes)`,
      );
  });

  it('a decompression bomb is cut at the cap, decoded size counted, and the rest never inflated', async () => {
    // 512 MB of spaces in about 512 KB of gzip (64 members of 8 MB, as gzip allows): the cap
    // (1 MB here) stops the inflation after the first few kilobytes.
    const bomb = Buffer.concat(
      Array(64).fill(zlib.gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20), { level: 9 })),
    );
    const { read: body, state, limits } = await read(bomb, 'gzip');
    expect(body.truncated).toBe(true);
    expect(body.stopped).toEqual({
      code: 'E_BODY_TOO_LARGE',
      message:
        'gzip-compressed response body, decoded, larger than 1048576 bytes: stopped reading at the cap',
    });
    // A few chunks of input were pulled, not the half megabyte (nor its 512 MB inflated).
    expect(state.pulled).toBeLessThanOrEqual(4 * 16 * 1024);
    expect(body.bytes.length).toBeLessThanOrEqual(64 * 1024);
    expect(limits.inUse.reading).toBe(0);
  });

  it('a body that does not decode is a complete answer with an unusable body, not a transport failure', async () => {
    const { read: body, coding } = await read(Buffer.from('{"this": "is not gzip"}'), 'gzip');
    expect(body.failure).toBeUndefined();
    // Shown as it came, since nothing decoded.
    expect(body.bytes.toString()).toBe('{"this": "is not gzip"}');
    expect(coding?.problem).toBe('is declared gzip-compressed but does not decode (incorrect header check)');
    const cut = await read(zlib.gzipSync(JSON_BODY).subarray(0, 12), 'gzip');
    expect(cut.coding?.problem).toMatch(/does not decode \(unexpected end of file\)/);
  });

  it('an empty body, HEAD and 204 are not decoded (there is nothing to decode)', async () => {
    expect((await read(Buffer.alloc(0), 'gzip')).coding).toBeUndefined();
    expect((await read(Buffer.alloc(0), 'gzip', { method: 'HEAD' })).coding).toBeUndefined();
    expect((await read(Buffer.alloc(0), 'br', { status: 204 })).coding).toBeUndefined();
  });

  it('a coding the audit does not decode is shown as sent, and says so', async () => {
    const { read: body, coding } = await read(Buffer.from('\u001f\u009d...'), 'compress');
    expect(body.bytes.toString('latin1')).toContain('...');
    expect(coding?.undecoded).toBe('compress');
    expect(coding?.note).toMatch(
      /^the body is in Content-Encoding compress, which the audit does not decode \(it decodes gzip, deflate/,
    );
  });

  it('reads Content-Encoding as a list, identity left out', () => {
    expect(contentCodings(' GZIP , identity,br ')).toEqual(['gzip', 'br']);
    expect(contentCodings(undefined)).toEqual([]);
  });
});
