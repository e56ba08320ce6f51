// HTTP methods by what they may do to the service, and the config operation each sends.
import type { Operation } from './types.js';

/**
 * Methods that change nothing on the service (RFC 9110 §9.2.1): only they follow redirects, an
 * interruption may cut them in flight, and their answers name nothing a write created.
 */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The method each config operation sends (`operations` of a resource). */
export const OPERATION_METHODS: Readonly<Record<Operation, string>> = {
  list: 'GET',
  read: 'GET',
  create: 'POST',
  replace: 'PUT',
  update: 'PATCH',
  delete: 'DELETE',
};
