// Transport failures (undici's errors, aborts) turned into one code of the union and a sentence a user understands.
import { maxHeaderSize } from 'node:http';
import type { TransportError, TransportErrorCode } from '../core/transport-errors.js';
import { tlsAlertOn } from './tls-alerts.js';

export type { TransportError, TransportErrorCode } from '../core/transport-errors.js';

/** The codes a low-level failure is filed under. */
type Low = Extract<TransportErrorCode, 'E_CONNECT' | 'E_RESET' | 'E_TIMEOUT' | 'E_REQUEST'>;

/** The low-level codes undici and Node raise, as a code of the union and the words evidence uses. */
const KNOWN: Record<string, { code: Low; message: (timeoutMs: number) => string }> = {
  ECONNREFUSED: { code: 'E_CONNECT', message: () => 'connection refused' },
  ENOTFOUND: { code: 'E_CONNECT', message: () => 'host name not found' },
  EAI_AGAIN: { code: 'E_CONNECT', message: () => 'host name lookup failed' },
  EHOSTUNREACH: { code: 'E_CONNECT', message: () => 'host unreachable' },
  UND_ERR_CONNECT_TIMEOUT: { code: 'E_CONNECT', message: (ms) => `could not connect within ${ms} ms` },
  ECONNRESET: { code: 'E_RESET', message: () => 'connection reset by the server' },
  EPIPE: { code: 'E_RESET', message: () => 'connection closed by the server while sending' },
  UND_ERR_SOCKET: {
    code: 'E_RESET',
    message: () => 'the connection closed before the response was complete',
  },
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: {
    code: 'E_RESET',
    message: () => 'the connection closed before Content-Length bytes arrived',
  },
  UND_ERR_HEADERS_TIMEOUT: { code: 'E_TIMEOUT', message: (ms) => `no response headers within ${ms} ms` },
  UND_ERR_BODY_TIMEOUT: { code: 'E_TIMEOUT', message: (ms) => `the response body stalled for ${ms} ms` },
  UND_ERR_REQ_CONTENT_LENGTH_MISMATCH: { code: 'E_REQUEST', message: () => 'request body length mismatch' },
};

/** The service's certificate refused by Node's verification (OpenSSL's codes), in words. */
const CERTIFICATE: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate in the chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'unknown CA: the issuer of the certificate is not trusted',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'unknown CA: the issuer certificate is not trusted here',
  UNABLE_TO_GET_ISSUER_CERT: 'unknown CA: the issuer certificate is missing',
  CERT_UNTRUSTED: 'unknown CA: the certificate is not trusted',
  CERT_HAS_EXPIRED: 'expired certificate',
  CERT_NOT_YET_VALID: 'certificate not yet valid',
  CERT_REVOKED: 'revoked certificate',
  CERT_SIGNATURE_FAILURE: 'bad certificate signature',
  CERT_REJECTED: 'certificate rejected',
  INVALID_CA: 'invalid CA certificate',
  PATH_LENGTH_EXCEEDED: 'certificate chain too long',
  INVALID_PURPOSE: 'certificate not meant for a server',
  ERR_TLS_CERT_ALTNAME_INVALID: 'hostname mismatch',
};

/** Handshake failures OpenSSL reports as ERR_SSL_* codes that deserve their own words. */
const HANDSHAKE: Record<string, string> = {
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED:
    'the service asks for a client certificate (give tls.cert and tls.key in the config)',
  ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: 'the service refused the client certificate (bad certificate)',
  ERR_SSL_TLSV1_ALERT_UNKNOWN_CA: 'the service refused the client certificate (it does not know its CA)',
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED: 'the service refused the client certificate (expired)',
  ERR_SSL_WRONG_VERSION_NUMBER: 'the service does not speak TLS on this port (is the base URL http://?)',
  ERR_SSL_PACKET_LENGTH_TOO_LONG: 'the service does not speak TLS on this port (is the base URL http://?)',
};

/**
 * A TLS failure in the error or its causes (undici wraps some, e.g. a host name mismatch through a
 * proxy): the certificate Node refused, or a failed handshake; undefined when it is none.
 */
function tlsFailure(err: unknown): { message: string; cause: string } | undefined {
  // undici reports a connection the service closed after its TLS alert as "other side closed".
  const alert = tlsAlertOn((err as { socket?: unknown } | undefined)?.socket);
  if (alert) err = { code: alert };
  for (
    let e = err as { code?: unknown; reason?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 4;
    depth++
  ) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (code in CERTIFICATE) {
      // A mismatch says which name was asked for and which the certificate holds.
      const detail = code === 'ERR_TLS_CERT_ALTNAME_INVALID' ? mismatch(e) : '';
      return { message: `TLS: certificate refused (${CERTIFICATE[code]}${detail})`, cause: code };
    }
    if (code in HANDSHAKE) return { message: `TLS: handshake failed: ${HANDSHAKE[code]}`, cause: code };
    if (code.startsWith('ERR_SSL_')) {
      const words = code.slice('ERR_SSL_'.length).toLowerCase().replace(/_/g, ' ');
      return { message: `TLS: handshake failed (${words})`, cause: code };
    }
    e = e.cause as typeof e;
  }
  return undefined;
}

/** ": the certificate names DNS:other.test, not 127.0.0.1", from Node's ERR_TLS_CERT_ALTNAME_INVALID. */
function mismatch(e: { host?: unknown; cert?: unknown; reason?: unknown }): string {
  const names = (e.cert as { subjectaltname?: unknown; subject?: { CN?: unknown } } | undefined) ?? {};
  const held = typeof names.subjectaltname === 'string' ? names.subjectaltname : names.subject?.CN;
  if (typeof e.host === 'string' && typeof held === 'string')
    return `: the certificate names ${held}, not ${e.host}`;
  return typeof e.reason === 'string' ? `: ${e.reason}` : '';
}

/** undici's codes for a request it refuses to send as built (the message says what). */
const REFUSED_REQUEST = new Set(['UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED', 'ERR_INVALID_ARG_VALUE']);

/**
 * Describes an error thrown by undici (or an abort) for evidence. `timedOut`: the request's own
 * deadline fired; `interrupted`: the run's signal cut it.
 */
export function describeError(
  err: unknown,
  timeoutMs: number,
  timedOut: boolean,
  interrupted: boolean,
): TransportError {
  if (interrupted && !timedOut)
    return { code: 'E_INTERRUPTED', message: 'stopped: the audit was interrupted' };
  if (timedOut) return { code: 'E_TIMEOUT', message: `no complete response within ${timeoutMs} ms` };
  const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string } } | undefined;
  const cause = e?.code ?? e?.cause?.code ?? e?.name;
  const tls = tlsFailure(err);
  if (tls) return { code: 'E_TLS', message: tls.message, cause: tls.cause };
  const refused = invalidHttp(err);
  if (refused)
    return withCause({ code: 'E_INVALID_HTTP', message: `no valid HTTP answer: ${refused}` }, cause);
  const known = cause === undefined ? undefined : KNOWN[cause];
  if (known) return withCause({ code: known.code, message: known.message(timeoutMs) }, cause);
  const code = cause !== undefined && REFUSED_REQUEST.has(cause) ? 'E_REQUEST' : 'E_OTHER';
  return withCause({ code, message: e?.message ? e.message : String(err) }, cause);
}

function withCause(error: TransportError, cause: string | undefined): TransportError {
  return cause === undefined ? error : { ...error, cause };
}

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
