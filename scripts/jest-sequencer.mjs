// Jest's order of test files, with a cold start: the slow files first, the longest first.
import DefaultSequencer from '@jest/test-sequencer';
import { SLOW } from '../jest.fast.config.js';

/**
 * Jest runs the files it has timings for longest first, and those it has none for (a fresh clone,
 * as in CI) by file size: the slowest files here are a few lines long (they call shared cases),
 * so they started last and one worker ran alone for a minute at the end. Files without a timing
 * now go in the order of `SLOW`, then the rest by size as jest does; files with timings keep
 * jest's order.
 */
export default class SlowFirst extends DefaultSequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const rank = (test) => {
      const path = test.path.slice(test.context.config.rootDir.length + 1);
      const i = SLOW.findIndex((prefix) => path.startsWith(prefix));
      return i === -1 ? SLOW.length : i;
    };
    // Jest puts the files without a timing together; reorder them in their places (a stable sort
    // keeps jest's size order within a rank), failed and timed files stay where jest put them.
    const places = sorted.flatMap((t, i) => (t.duration == null ? [i] : []));
    const untimed = places.map((i) => sorted[i]).sort((a, b) => rank(a) - rank(b));
    places.forEach((place, k) => (sorted[place] = untimed[k]));
    return sorted;
  }
}
