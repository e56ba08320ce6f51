// End-of-run cleanup: delete everything the ledger holds and report what could not be deleted.
import type { CleanupReport } from '../core/types.js';
import type { HttpClient } from '../http/client.js';
import type { Ledger } from './ledger.js';

/** Deletes every pending ledger entry with the full token; 2xx, 404 and 410 count as gone. */
export async function cleanup(client: HttpClient, ledger: Ledger): Promise<CleanupReport> {
  const pending = ledger.pending();
  const leftovers: CleanupReport['leftovers'] = [...ledger.untrackableLeftovers];
  for (const entry of pending) {
    const exchange = await client.send({ method: 'DELETE', path: entry.path, auth: 'full' });
    const status = exchange.status;
    if (status !== undefined && ((status >= 200 && status < 300) || status === 404 || status === 410)) {
      ledger.markDeleted(entry.path);
    } else {
      leftovers.push({
        resource: entry.resource,
        url: client.redactor.text(client.resolve(entry.path)),
        reason:
          status === undefined
            ? `DELETE failed: ${exchange.error?.message ?? 'no answer'}`
            : `DELETE answered ${status}`,
      });
    }
  }
  return { created: ledger.createdCount, deleted: ledger.createdCount - leftovers.length, leftovers };
}
