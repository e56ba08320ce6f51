// The test environment ends the async-local stores a test file started (src/testing/jest-environment.ts).
import { expect, it } from '@jest/globals';
import { AsyncLocalStorage } from 'node:async_hooks';
import { endStores } from '../../src/testing/jest-environment.js';

it('disables the stores a file started, by run or by enterWith, so later files do not pay for them', () => {
  const entered = new AsyncLocalStorage<string>();
  entered.enterWith('entered');
  const running = new AsyncLocalStorage<string>();
  const seen = running.run('running', () => {
    const before = [entered.getStore(), running.getStore()];
    endStores();
    return { before, after: [entered.getStore(), running.getStore()] };
  });
  expect(seen).toEqual({ before: ['entered', 'running'], after: [undefined, undefined] });
  // A disabled store works again when it runs again.
  expect(running.run('again', () => running.getStore())).toBe('again');
});
