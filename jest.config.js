// Jest runs the tsc-compiled tests (see tsconfig.test.json), so tests exercise exactly what ships.
const root = process.env.TEST_BUILD_DIR ?? '.test-build';
export default {
  rootDir: root,
  testMatch: ['<rootDir>/test/**/*.test.js'],
  transform: {},
  // Node's, with each test file's async-local stores disabled when it ends (see the file).
  testEnvironment: '<rootDir>/src/testing/jest-environment.js',
  testTimeout: 30000,
  // Several suites start servers; two workers match the CI machine's two cores.
  maxWorkers: 2,
  // Without timings from an earlier run (a fresh clone, CI), the slow files start first.
  testSequencer: new URL('./scripts/jest-sequencer.mjs', import.meta.url).pathname,
  // A fresh folder per run where observer tests share one whole audit per fixture (src/testing/shared-audits.ts).
  globalSetup: '<rootDir>/src/testing/jest-global-setup.js',
  globalTeardown: '<rootDir>/src/testing/jest-global-teardown.js',
};
