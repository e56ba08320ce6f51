// End-of-run cleanup: delete everything the ledger holds and report what could not be deleted.
import type { CleanupReport } from '../core/types.js';
import type { HttpClient } from '../http/client.js';
import type { Ledger } from './ledger.js';

/**
 * Deletes every ledger entry not yet deleted (full token; 2xx, 404 and 410 count as gone), then
 * reads every entry back: an item a DELETE "removed" that still answers 2xx is reported as left
 * behind, so a service whose DELETE does nothing cannot make the report claim a clean run.
 */
export async function cleanup(client: HttpClient, ledger: Ledger): Promise<CleanupReport> {
  const leftovers: CleanupReport['leftovers'] = [...ledger.untrackableLeftovers];
  for (const entry of ledger.all()) {
    const url = client.redactor.text(client.resolve(entry.path));
    let deletion = 'an earlier DELETE';
    if (!entry.deleted) {
      const exchange = await client.send({ method: 'DELETE', path: entry.path, auth: 'full' });
      const status = exchange.status;
      if (status === undefined || !((status >= 200 && status < 300) || status === 404 || status === 410)) {
        leftovers.push({
          resource: entry.resource,
          url,
          reason:
            status === undefined
              ? `DELETE failed: ${exchange.error?.message ?? 'no answer'}`
              : `DELETE answered ${status}`,
        });
        continue;
      }
      ledger.markDeleted(entry.path);
      deletion = `DELETE answered ${status}`;
    }
    const check = await client.send({ method: 'GET', path: entry.path, auth: 'full' });
    if (check.status !== undefined && check.status >= 200 && check.status < 300) {
      leftovers.push({
        resource: entry.resource,
        url,
        reason: `${deletion}, but GET still answers ${check.status}: the item is still there`,
      });
    }
  }
  return { created: ledger.createdCount, deleted: ledger.createdCount - leftovers.length, leftovers };
}
