// Transport failures turned into one stable code and a sentence a user understands.
import { maxHeaderSize } from 'node:http';

export interface TransportError {
  code: string;
  message: string;
}

/** Describes an error thrown by undici (or an abort) for evidence. */
export function describeError(
  err: unknown,
  timeoutMs: number,
  timedOut: boolean,
  interrupted: boolean,
): TransportError {
  if (interrupted && !timedOut)
    return { code: 'E_INTERRUPTED', message: 'stopped: the audit was interrupted' };
  if (timedOut) return { code: 'E_TIMEOUT', message: `no complete response within ${timeoutMs} ms` };
  const refused = invalidHttp(err);
  if (refused) return { code: INVALID_HTTP, message: `no valid HTTP answer: ${refused}` };
  const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = e?.code ?? e?.cause?.code ?? e?.name ?? 'E_UNKNOWN';
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset by the server',
    EPIPE: 'connection closed by the server while sending',
    ENOTFOUND: 'host name not found',
    EAI_AGAIN: 'host name lookup failed',
    EHOSTUNREACH: 'host unreachable',
    UND_ERR_CONNECT_TIMEOUT: `could not connect within ${timeoutMs} ms`,
    UND_ERR_HEADERS_TIMEOUT: `no response headers within ${timeoutMs} ms`,
    UND_ERR_BODY_TIMEOUT: `the response body stalled for ${timeoutMs} ms`,
    UND_ERR_SOCKET: 'the connection closed before the response was complete',
    UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'the connection closed before Content-Length bytes arrived',
    UND_ERR_REQ_CONTENT_LENGTH_MISMATCH: 'request body length mismatch',
    HPE_INVALID_CONSTANT: 'the server sent something that is not HTTP',
    HPE_INVALID_HEADER_TOKEN: 'the server sent an invalid header',
    HPE_INVALID_CHUNK_SIZE: 'the server sent an invalid chunked body',
  };
  const text = known[code] ?? (e?.message ? e.message : String(err));
  return { code, message: text };
}

/** The code of an answer the HTTP parser refused: the service gave no valid answer. */
export const INVALID_HTTP = 'E_INVALID_HTTP';

/**
 * What the HTTP parser refused in an answer, in words, from undici's error (with the bytes it
 * stopped at), or undefined when the error is not about the answer's syntax.
 */
function invalidHttp(err: unknown): string | undefined {
  const e = err as { name?: string; code?: string; message?: string; data?: string } | undefined;
  if (!e) return undefined;
  const message = String(e.message ?? '');
  if (e.name === 'HTTPParserError' || e.code?.startsWith('HPE_')) {
    // "Response does not match the HTTP/1.1 protocol (Invalid header value char)"
    const reason = /\(([^)]*)\)\s*$/.exec(message)?.[1] ?? message;
    const near = e.data ? ` at ${JSON.stringify(e.data.slice(0, 60))}` : '';
    return `the parser refused it (${reason})${near}`;
  }
  if (e.code === 'UND_ERR_HEADERS_OVERFLOW') {
    return `its header section is larger than the ${Math.round(maxHeaderSize / 1024)} KiB the HTTP parser accepts (${message})`;
  }
  // undici asserts on what its parser let through but HTTP forbids (a status code below 100).
  if (e.code === 'ERR_ASSERTION') {
    if (/statusCode/.test(message)) return 'the status line holds a status code below 100';
    return `the parser refused it (${
      message
        .split('\n')
        .find((l) => l.trim() !== '' && !/falsy value/.test(l))
        ?.trim() ?? message
    })`;
  }
  return undefined;
}
