// The edit loop's subset (`npm run test:fast`): every test file but the slow ones below, which `npm test` (CI) still runs.
import base from './jest.config.js';

/**
 * Test files (paths under the test build, prefixes allowed) left out of the fast subset: each takes
 * seconds of a worker (jest's per-file times on 2 cores) for what an edit loop should not wait
 * for: whole audits and CLI runs, real servers, the packed tarball, a browser, peak-memory
 * measurements, fuzzing. What stays is every unit test and the CheckTester cases of the active
 * checks. Add a file here when it grows slow; `npm test` (CI) runs them all, and with no timings
 * from an earlier run (a fresh clone) starts these first, in this order (scripts/jest-sequencer.mjs).
 */
export const SLOW = [
  // Longest first (seconds of a worker in a full run on 2 cores), as a cold `npm test` starts them:
  // a file named here comes before the folder that holds it (within a folder, jest orders by size,
  // and the longest files of test/independent/ are the shortest, 7 lines calling shared cases).
  // Whole audits of the alternative API broken one way each, each failure's script run twice (24-40 s).
  'test/independent/alt-api-broken-data.test.js',
  'test/independent/alt-api-broken-auth.test.js',
  // Django REST framework started, seeded and audited twice, with its throttle's real waits (20-27 s).
  'test/real-servers/drf-audit.test.js',
  // The example API broken each way, audited, each failure's script run twice (19-26 s).
  'test/independent/example-breaks.test.js',
  // Peak-memory runs in a child process: huge, deep, compressed bodies (8-18 s).
  'test/safety/large-bodies.test.js',
  'test/safety/deep-json.test.js',
  'test/safety/compressed.test.js',
  // Whole CLI runs, several per test: every demo break in every report, three shards and their
  // merge, init's starter configs audited, invalid HTTP from raw sockets, the CLI's exit codes (2-11 s).
  'test/cli/demo-breaks.test.js',
  // npm pack and npm install of the tarball (7-9 s).
  'test/packaging/',
  // The rest of the independent corpus: the alternative API valid in every variant (7-9 s).
  'test/independent/',
  'test/safety/hostile.test.js',
  // Parse Server, PostgREST, json-server: started, seeded, audited (1-6 s).
  'test/real-servers/',
  'test/safety/webhook-flood.test.js',
  // Whole audits of many fixtures: ERR-* and DOC-SCHEMA cases, hostile services, secrets echoed in
  // every spelling (3-8 s each; in a full run observer files share their audits).
  'test/suites/errors.test.js',
  'test/suites/schema.test.js',
  // Every OpenAPI version audited against its config equivalent, and OpenAPI-driven runs (4-5 s).
  'test/openapi/equivalence.test.js',
  'test/openapi/run.test.js',
  // Rate-limited fixtures audited whole (2-4 s).
  'test/suites/limits-retry.test.js',
  'test/suites/limits-audit.test.js',
  // Chromium renders the HTML report (4 s).
  'test/reporters/html-browser.test.js',
  'test/safety/secrets.test.js',
  'test/safety/secrets-edge.test.js',
  'test/suites/error-body.test.js',
  // Real deadlines per kind of hanging request (4 s).
  'test/safety/hang-classes.test.js',
  // The GitHub Action's script, run as the runner would, in a child process (3.5 s).
  'test/action/',
  // Hundreds of random, truncated and mistyped configs, loaded and run through the CLI (1.5-3.5 s).
  'test/config/fuzz.test.js',
  'test/safety/config-fuzz.test.js',
  'test/cli/init.test.js',
  // Whole audits of API shapes: nested collections with parents of the audit's own, created ids
  // found in every place (2-3 s).
  'test/shapes/nested.test.js',
  'test/shapes/created-ids.test.js',
  'test/cli/cli.test.js',
  'test/cli/merge-shards.test.js',
  // An observer's cases run every active check beside it, on each fixture: GEN-JSON.
  'test/suites/general.test.js',
  'test/safety/protocol.test.js',
  'test/cli/init-discover.test.js',
];

export default {
  ...base,
  testPathIgnorePatterns: ['/node_modules/', ...SLOW.map((path) => `<rootDir>/${path}`)],
};
