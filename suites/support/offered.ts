// What a 405 to a declared operation suggests: the service may not offer it, though the config says it does.
import type { Exchange } from '../../src/core/check.js';
import { OPERATION_METHODS } from '../../src/core/methods.js';

/** The config operation of each method sent to an item or a collection (GET: reading an item). */
const OPERATIONS = new Map(
  (['read', 'create', 'replace', 'update', 'delete'] as const).map((op) => [OPERATION_METHODS[op], op]),
);

/**
 * After a 405 Method Not Allowed, a clause saying the config may declare an operation the service
 * does not offer (a starter config from `init` assumes one when OPTIONS names none), unless the
 * answer's Allow header lists the method: then the 405 is the service's mistake alone. Empty for
 * every other answer.
 */
export function notOfferedHint(x: Pick<Exchange, 'method' | 'status' | 'headers'>): string {
  const operation = OPERATIONS.get(x.method);
  if (x.status !== 405 || operation === undefined) return '';
  const allow = x.headers.allow;
  const allowed = (allow ?? '').split(',').map((m) => m.trim().toUpperCase());
  if (allowed.includes(x.method)) return '';
  const said = allow !== undefined ? ` (Allow: ${allow})` : '';
  return `; 405 says the service offers no ${x.method} here${said}: if so, leave ${operation} out of the resource's operations in the config`;
}
