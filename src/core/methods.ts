// HTTP methods by what they may do to the service.

/**
 * Methods that change nothing on the service (RFC 9110 §9.2.1): only they follow redirects, an
 * interruption may cut them in flight, and their answers name nothing a write created.
 */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);
