// jest's test environment: Node's, except that the async-local stores a test file started end with it.
import { AsyncLocalStorage } from 'node:async_hooks';
import { TestEnvironment } from 'jest-environment-node';

/*
 * On Node 20 an AsyncLocalStorage that has run once stays in a process-wide list until `disable()`,
 * and every new promise, timer and socket of the process walks that list (`_propagate`). jest
 * evaluates each test file's modules afresh, so every file brings new stores that are never
 * disabled: jest-circus' test context, and the engine's sender and request-chain stores
 * (src/engine/sender.ts, chains.ts). A worker's list grew by about three stores per file, and
 * every promise of a late file paid for all the earlier files' stores: 30 s of CPU of a full run
 * (363 s before, 321 s after, on 2 cores), none of it the test's own work.
 *
 * So the stores a file starts are disabled when the file is done. `run` and `enterWith` are the
 * public ways a store starts; the patch only records the store and works on every Node version
 * (on those where stores no longer use async hooks, disabling is just as harmless).
 */
type Store = AsyncLocalStorage<unknown>;
// The set lives on the patched prototype: a test that imports this file gets a second copy of the
// module (jest's registry), which must see the same stores rather than patch again.
const registry = Symbol.for('conformance.jest-environment.started');
const proto = AsyncLocalStorage.prototype as Store & { [registry]?: Set<Store> };
const started = (proto[registry] ??= patch(proto));

function patch(target: Store): Set<Store> {
  const stores = new Set<Store>();
  const { run, enterWith } = target;
  target.run = function (this: Store, ...args: Parameters<typeof run>) {
    stores.add(this);
    return run.apply(this, args);
  } as typeof run;
  target.enterWith = function (this: Store, store: unknown) {
    stores.add(this);
    enterWith.call(this, store);
  };
  return stores;
}

/** Disables every store started since the last call: `getStore()` is undefined until it runs again. */
export function endStores(): void {
  for (const store of started) store.disable();
  started.clear();
}

/** Node's environment; on teardown (the file's tests and hooks are over) its stores are disabled. */
export default class ConformanceEnvironment extends TestEnvironment {
  override async teardown(): Promise<void> {
    endStores();
    await super.teardown();
  }
}
