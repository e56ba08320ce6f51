// Hostile fixture servers: each misbehaves in one way on every request, and counts what it saw and sent.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startRawFixture, type FixtureServer } from '../../src/testing/fixture-server.js';

export type HostileKind =
  | 'silent'
  | 'stall-after-headers'
  | 'drip'
  | 'reset'
  | 'short-body'
  | 'not-json'
  | 'invalid-utf8'
  | 'nul-byte'
  | 'huge-body'
  | 'huge-body-declared'
  | 'redirect-loop'
  | 'redirect-other-origin'
  | 'deep-array'
  | 'deep-object'
  | 'drip-bytes';

export interface HostileServer extends FixtureServer {
  /** Requests received (every method and path). */
  requests: number;
  /** Body bytes handed to the socket across all requests (huge-body). */
  bytesSent: number;
  /** Largest body bytes handed to the socket for one request (huge-body). */
  maxBytesOneRequest: number;
}

/** How often the drip service sends a byte: far more often than any deadline the tests give it. */
export const DRIP_INTERVAL_MS = 50;

/** Size of the huge body: hundreds of megabytes, far beyond the client's cap. */
export const HUGE_BODY_BYTES = 300 * 1024 * 1024;

const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * The deep bodies, made on first use (as bytes: encoding 8 MB of text per answer cost the test's
 * own process half a second a run): 8 MB of `[[[…]]]` (four million levels), or a million nested
 * objects `{"a":{"a":…1…}}`.
 */
const deep: { array?: Buffer; object?: Buffer } = {};
function deepBody(kind: 'deep-array' | 'deep-object'): Buffer {
  if (kind === 'deep-array')
    return (deep.array ??= Buffer.from('['.repeat(4 * 1024 * 1024) + ']'.repeat(4 * 1024 * 1024)));
  return (deep.object ??= Buffer.from('{"a":'.repeat(1_000_000) + '1' + '}'.repeat(1_000_000)));
}

/**
 * Starts a server that misbehaves in the given way on every request. `redirect-other-origin`
 * needs `otherOrigin`, the origin it points to.
 */
export async function startHostile(kind: HostileKind, otherOrigin?: string): Promise<HostileServer> {
  const timers = new Set<NodeJS.Timeout>();
  const holder: { state?: HostileServer } = {};
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const s = holder.state!;
    s.requests++;
    req.resume();
    switch (kind) {
      case 'silent':
        return; // never answers: the socket stays open until the client gives up
      case 'stall-after-headers':
        res.writeHead(200, JSON_HEADERS);
        res.flushHeaders();
        return;
      case 'drip': {
        res.writeHead(200, JSON_HEADERS);
        res.write('[');
        // A byte every DRIP_INTERVAL_MS: an idle time-out longer than that would never fire.
        const timer = setInterval(() => res.write(' '), DRIP_INTERVAL_MS);
        timers.add(timer);
        res.on('close', () => {
          clearInterval(timer);
          timers.delete(timer);
        });
        return;
      }
      case 'reset':
        req.socket.resetAndDestroy();
        return;
      case 'short-body':
        res.writeHead(200, { ...JSON_HEADERS, 'content-length': '1000' });
        res.write('{"id": 1, "name": "cut sh');
        setImmediate(() => req.socket.destroy());
        return;
      case 'not-json':
        res.writeHead(200, JSON_HEADERS);
        res.end('<html><body>Welcome!</body></html>');
        return;
      case 'invalid-utf8':
        res.writeHead(200, JSON_HEADERS);
        res.end(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0x22, 0x7d])); // {"a":"\xc3(\xff"}
        return;
      case 'nul-byte':
        res.writeHead(200, JSON_HEADERS);
        res.end(Buffer.from('{"id": 1, "name": "a\u0000b"}', 'utf8'));
        return;
      case 'huge-body':
      case 'huge-body-declared':
        streamHuge(res, s, kind === 'huge-body-declared');
        return;
      case 'redirect-loop':
        res.writeHead(302, { location: req.url ?? '/' });
        res.end();
        return;
      case 'redirect-other-origin':
        res.writeHead(307, { location: `${otherOrigin}${req.url ?? '/'}` });
        res.end();
        return;
      case 'deep-array':
      case 'deep-object':
        // Chunked: the client cannot know the size in advance.
        res.writeHead(200, JSON_HEADERS);
        res.end(deepBody(kind));
        return;
      case 'drip-bytes': {
        // Endless one-byte chunks, eight per turn of the event loop: the body never ends. (Eight a
        // turn send more chunks in 500 ms than one a turn did in 1.5 s: about a million.)
        res.writeHead(200, JSON_HEADERS);
        let closed = false;
        res.on('close', () => (closed = true));
        const tick = (): void => {
          if (closed) return;
          for (let i = 0; i < 8; i++) res.write('[');
          setImmediate(tick);
        };
        tick();
        return;
      }
    }
  };
  const server = await startRawFixture(handler);
  const closeServer = server.close;
  const state = Object.assign(server, {
    requests: 0,
    bytesSent: 0,
    maxBytesOneRequest: 0,
    close: async () => {
      for (const t of timers) clearInterval(t);
      await closeServer();
    },
  });
  holder.state = state;
  return state;
}

/**
 * Writes HUGE_BODY_BYTES of a JSON array as fast as the client reads, chunked or with its
 * Content-Length declared, and stops when the client hangs up.
 */
function streamHuge(res: ServerResponse, s: HostileServer, declared: boolean): void {
  res.writeHead(
    200,
    declared ? { ...JSON_HEADERS, 'content-length': String(HUGE_BODY_BYTES) } : JSON_HEADERS,
  );
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  chunk[0] = 0x5b; // '[' then spaces: valid JSON so far, never finished within the cap
  let sent = 0;
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  const pump = (): void => {
    while (!closed && sent < HUGE_BODY_BYTES) {
      const piece = sent === 0 ? chunk : chunk.subarray(1);
      const n = Math.min(piece.length, HUGE_BODY_BYTES - sent);
      sent += n;
      s.bytesSent += n;
      s.maxBytesOneRequest = Math.max(s.maxBytesOneRequest, sent);
      if (!res.write(piece.subarray(0, n))) {
        res.once('drain', pump);
        return;
      }
    }
    if (!closed) res.end();
  };
  pump();
}

/** A plain server on another origin that counts requests (and so proves none arrived). */
export async function startCounter(): Promise<FixtureServer & { requests: number; headers: string[] }> {
  const seen = { requests: 0, headers: [] as string[] };
  const server = await startRawFixture((req, res) => {
    seen.requests++;
    seen.headers.push(JSON.stringify(req.headers));
    res.writeHead(200, JSON_HEADERS);
    res.end('{}');
  });
  // A live count (Object.assign would copy a getter's value once).
  Object.defineProperty(server, 'requests', { get: () => seen.requests });
  return Object.assign(server as FixtureServer & { requests: number }, { headers: seen.headers });
}
