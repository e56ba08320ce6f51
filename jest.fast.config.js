// The edit loop's subset (`npm run test:fast`): every test file but the slow ones below, which `npm test` (CI) still runs.
import base from './jest.config.js';

/**
 * Test files (paths under the test build, prefixes allowed) left out of the fast subset: each takes
 * 10 s or more of a worker (jest's per-file times on 2 cores, busy) for what an edit loop should not
 * wait for: whole audits and CLI runs, real servers, the packed tarball, a browser, peak-memory
 * measurements, fuzzing. What stays is every unit test and the CheckTester cases of the active
 * checks. Add a file here when it grows slow; `npm test` (CI) runs them all, and with no timings
 * from an earlier run (a fresh clone) starts these first, in this order (scripts/jest-sequencer.mjs).
 */
export const SLOW = [
  // Whole audits of the alternative API and of every break (20-45 s each).
  'test/independent/',
  // json-server and json-server-auth, started from node_modules (3-10 s each).
  'test/real-servers/',
  // npm pack and npm install of the tarball (5 s).
  'test/packaging/',
  // Chromium renders the HTML report (3-4 s).
  'test/reporters/html-browser.test.js',
  // Peak-memory runs in a child process: huge, deep, compressed bodies, a webhook flood (20-110 s).
  'test/safety/large-bodies.test.js',
  'test/safety/deep-json.test.js',
  'test/safety/compressed.test.js',
  'test/safety/webhook-flood.test.js',
  // Real-time rate-limit waits, whole audits against rate-limited fixtures (25-32 s).
  'test/suites/limits-retry.test.js',
  'test/suites/limits-audit.test.js',
  // Every OpenAPI version audited against its config equivalent, and OpenAPI-driven runs (16-29 s).
  'test/openapi/equivalence.test.js',
  'test/openapi/run.test.js',
  // Whole audits of many fixtures: hostile services, ERR-* and DOC-SCHEMA cases, secrets echoed in
  // every spelling (10-22 s each).
  'test/safety/hostile.test.js',
  'test/safety/secrets.test.js',
  'test/safety/secrets-edge.test.js',
  'test/suites/errors.test.js',
  'test/suites/error-body.test.js',
  'test/suites/schema.test.js',
  // An observer's cases run every active check beside it, on each fixture (32 s): GEN-JSON.
  'test/suites/general.test.js',
  // Whole CLI runs, several per test: every demo break in every report, three shards and their
  // merge, init's starter configs audited, invalid HTTP from raw sockets, the CLI's exit codes (11-32 s).
  'test/cli/demo-breaks.test.js',
  'test/cli/merge-shards.test.js',
  'test/cli/init.test.js',
  'test/cli/init-discover.test.js',
  'test/cli/cli.test.js',
  'test/safety/protocol.test.js',
  // Hundreds of random, truncated and mistyped configs, loaded and run through the CLI (15-16 s).
  'test/config/fuzz.test.js',
  'test/safety/config-fuzz.test.js',
];

export default {
  ...base,
  testPathIgnorePatterns: ['/node_modules/', ...SLOW.map((path) => `<rootDir>/${path}`)],
};
