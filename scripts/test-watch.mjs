#!/usr/bin/env node
// The edit loop (`npm run test:watch`): tsc recompiles as sources change, then jest runs the tests that the recompiled files touch.
// Usage: node scripts/test-watch.mjs [--out <dir>] [path patterns that limit every run] [other jest args]
// tsc watches incrementally and names the files it writes (--listEmittedFiles); after each compile,
// compiled files whose source was deleted or renamed are removed (tsc leaves them behind, and jest
// would run them), and jest runs with --findRelatedTests on what was written: a changed test file
// runs itself, a changed source file runs every test that imports it. Not jest's own --watch: that
// asks git what changed, and the compiled folder is not tracked. Give jest flags as --flag=value;
// a path pattern keeps, of the tests a change touches, those whose compiled path matches it.
// Ctrl-C ends both.
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { outDir, pruneOrphans, tscArgs } from './build-tests.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const out = outDir(argv);
const at = argv.indexOf('--out');
const rest = at >= 0 ? [...argv.slice(0, at), ...argv.slice(at + 2)] : argv;
// jest ignores path patterns under --findRelatedTests: the related tests are listed, then filtered here.
const patterns = rest.filter((arg) => !arg.startsWith('-')).map((arg) => new RegExp(arg, 'i'));
const jestArgs = rest.filter((arg) => arg.startsWith('-'));
const jestBin = join(root, 'node_modules', 'jest', 'bin', 'jest.js');

pruneOrphans(out);
const tsc = spawn(process.execPath, [...tscArgs(out, { watch: true }), '--listEmittedFiles'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
});

let first = true;
let written = new Set();
let queued = new Set();
let running;

createInterface({ input: tsc.stdout }).on('line', (line) => {
  const emitted = /^TSFILE: (.*\.js)$/.exec(line.trim());
  if (emitted) {
    written.add(emitted[1]);
    return;
  }
  if (/^TSFILE: /.test(line.trim())) return;
  // tsc ends each compile with "Found N errors. Watching for file changes."
  if (!/Watching for file changes/.test(line)) {
    if (line.trim() !== '') process.stdout.write(`${line}\n`);
    return;
  }
  const removed = pruneOrphans(out);
  if (removed.length > 0) process.stdout.write(`test-watch: removed ${removed.join(', ')} (source gone)\n`);
  process.stdout.write(`${line.replace(/^.*? - /, 'tsc: ')}\n`);
  const files = [...written];
  written = new Set();
  if (first) {
    // The first compile (of everything after a clean build) is not an edit: run nothing yet.
    first = false;
    process.stdout.write('test-watch: save a file to run the tests it touches\n');
    return;
  }
  for (const file of files) queued.add(file);
  runQueued();
});

/** Runs jest on the tests related to the files written since the last run (one run at a time). */
function runQueued() {
  if (running || queued.size === 0) return;
  const files = [...queued];
  queued = new Set();
  const list = spawnSync(process.execPath, [jestBin, '--listTests', '--findRelatedTests', ...files], {
    cwd: root,
    env: jestEnv(),
    encoding: 'utf8',
  });
  const tests = list.stdout
    .split('\n')
    .filter((line) => line.endsWith('.test.js'))
    .filter((test) => patterns.every((pattern) => pattern.test(relative(out, test))));
  if (tests.length === 0) {
    process.stdout.write(
      `test-watch: no test${patterns.length > 0 ? ' matching the patterns' : ''} uses what changed\n`,
    );
    return;
  }
  running = spawn(process.execPath, [jestBin, ...jestArgs, '--runTestsByPath', ...tests], {
    cwd: root,
    stdio: 'inherit',
    env: jestEnv(),
  });
  running.on('exit', () => {
    running = undefined;
    runQueued();
  });
}

/** jest's environment: the compiled folder and ESM support (as `npm test` sets them). */
function jestEnv() {
  return {
    ...process.env,
    TEST_BUILD_DIR: relative(root, out) || '.',
    NODE_OPTIONS: '--experimental-vm-modules --disable-warning=ExperimentalWarning',
  };
}

tsc.on('exit', (code) => {
  running?.kill();
  process.exitCode = code ?? 1;
});
// Ctrl-C reaches the children too (one process group); a kill of this process alone must not leave tsc watching.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    tsc.kill();
    running?.kill();
  });
}
