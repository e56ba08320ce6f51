// Why an exchange got no complete answer: one union of codes, each described, with whose doing it is.

/**
 * Whose doing a transport failure is:
 * - `service`: the service gave no complete, valid answer (ERR-SERVER judges it; the circuit breaker counts it);
 * - `audit`: the audit's own stop or limit (not sent, interrupted, cut at a cap): says nothing about the service;
 * - `unclear`: neither can be told (no connection at all, a request the HTTP library refused, anything else).
 */
export type Fault = 'service' | 'audit' | 'unclear';

/** Every transport error code, what it means, and whose doing it is. */
export const TRANSPORT_ERRORS = {
  E_TIMEOUT: {
    fault: 'service',
    description: 'no complete answer within the deadline (no headers, or a body that stalled)',
  },
  E_RESET: {
    fault: 'service',
    description: 'the connection was reset or closed before the answer was complete (a short body included)',
  },
  E_INVALID_HTTP: {
    fault: 'service',
    description: 'the HTTP parser refused the answer (status line, header section, framing)',
  },
  E_CONNECT: {
    fault: 'unclear',
    description: 'no connection: refused, host not found or unreachable, or not connected in time',
  },
  E_TLS: {
    fault: 'unclear',
    description:
      "connected, but the TLS handshake failed: the service's certificate was refused (self-signed, expired, unknown CA, another host name) or the service refused the audit's",
  },
  E_REQUEST: { fault: 'unclear', description: 'the HTTP library refused to send the request as built' },
  E_OTHER: { fault: 'unclear', description: 'any other failure: the message says what' },
  E_BODY_TOO_LARGE: { fault: 'audit', description: 'the body passed the size cap: reading stopped there' },
  E_BODY_BUDGET: {
    fault: 'audit',
    description: 'the memory budget for bodies was spent: the body was cut (it is under the cap)',
  },
  E_REDIRECT_LIMIT: { fault: 'audit', description: 'more same-origin redirects than the audit follows' },
  E_INTERRUPTED: {
    fault: 'audit',
    description: 'not sent, not retried or cut short: the audit was interrupted',
  },
  E_SERVICE_DOWN: {
    fault: 'audit',
    description: 'not sent: the circuit breaker found that the service stopped answering',
  },
  E_HANGS: {
    fault: 'audit',
    description:
      'not sent: two requests of the same kind (method, URL shape, kind of body) in a row got no answer within the deadline',
  },
  E_OTHER_ORIGIN: {
    fault: 'audit',
    description: 'not sent: the URL is on another origin, where the audit sends nothing',
  },
} as const satisfies Record<string, { fault: Fault; description: string }>;

/** The code of a transport failure (`Exchange.error.code`): see TRANSPORT_ERRORS for each. */
export type TransportErrorCode = keyof typeof TRANSPORT_ERRORS;

/** The codes of requests that are never sent (refused before any byte leaves). */
type NeverSent = 'E_SERVICE_DOWN' | 'E_HANGS' | 'E_OTHER_ORIGIN';

/**
 * A transport failure as checks see it: a stable code, a sentence a user understands (it goes into
 * evidence as is), and the low-level code behind it when there was one (ECONNRESET, UND_ERR_SOCKET...).
 * E_SERVICE_DOWN and E_HANGS also say why the request was not sent (the service taken for down,
 * the kind of request that hangs), so a skip can quote the reason without rewriting the message.
 * `notSent`: nothing of the request left the audit, so the service
 * cannot have acted on it (always so for E_SERVICE_DOWN, E_HANGS and E_OTHER_ORIGIN; E_INTERRUPTED says
 * whether the interruption came before sending or cut an exchange short).
 */
export type TransportError =
  | { code: 'E_SERVICE_DOWN' | 'E_HANGS'; message: string; reason: string; cause?: string; notSent: true }
  | { code: 'E_OTHER_ORIGIN'; message: string; cause?: string; notSent: true }
  | { code: Exclude<TransportErrorCode, NeverSent>; message: string; cause?: string; notSent?: true };

/** Whose doing a transport failure is (see Fault). */
export function faultOf(error: { code: TransportErrorCode }): Fault {
  return TRANSPORT_ERRORS[error.code].fault;
}
