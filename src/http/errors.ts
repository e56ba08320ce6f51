// Transport failures turned into one stable code and a sentence a user understands.

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
