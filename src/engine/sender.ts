// Which part of the audit sent a request (a check, the cleanup), carried along its async calls for the HAR export.
import { AsyncLocalStorage } from 'node:async_hooks';

/** Who sent an exchange: a check (id and rules) or one of the engine's own phases. */
export type Sender = { checkId: string; rules: readonly string[] } | { phase: 'setup' | 'cleanup' };

// Async-local rather than a parameter of every send: a check's requests go through the context,
// custody, the state reader and the client; the tag must follow all of them without each passing it on.
const current = new AsyncLocalStorage<Sender>();

/** Runs `work` with every request it sends attributed to `sender`. */
export function sendingAs<T>(sender: Sender, work: () => Promise<T>): Promise<T> {
  return current.run(sender, work);
}

/** Who is sending now: the check whose run this is, or the engine's setup (preflight, login, binding). */
export function currentSender(): Sender {
  return current.getStore() ?? { phase: 'setup' };
}
