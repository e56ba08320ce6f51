// The test build: a deleted test leaves no compiled copy behind, and the fast subset leaves out only files that exist.
import { afterEach, describe, expect, it } from '@jest/globals';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packagePath } from '../../src/core/paths.js';

interface BuildTests {
  pruneOrphans(out: string): string[];
}

/** The script as `npm test` runs it (plain JavaScript, outside what tsc compiles). */
async function buildTests(): Promise<BuildTests> {
  return (await import(pathToFileURL(packagePath('scripts', 'build-tests.mjs')).href)) as BuildTests;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function compiledTree(files: string[]): string {
  const out = mkdtempSync(join(tmpdir(), 'conformance-test-build-'));
  dirs.push(out);
  for (const file of files) {
    mkdirSync(dirname(join(out, file)), { recursive: true });
    writeFileSync(join(out, file), '// compiled\n');
  }
  return out;
}

describe('scripts/build-tests.mjs', () => {
  it('removes the compiled copies (code and source map) of a test whose source is gone, and nothing else', async () => {
    const kept = [
      'test/core/values.test.js',
      'test/core/values.test.js.map',
      'src/core/values.js',
      'test/fixtures/x.json',
    ];
    const gone = [
      'test/core/renamed-away.test.js',
      'test/core/renamed-away.test.js.map',
      'src/gone/helper.js',
    ];
    const out = compiledTree([...kept, ...gone]);
    const { pruneOrphans } = await buildTests();
    const removed = pruneOrphans(out);
    expect(removed).toHaveLength(gone.length);
    for (const file of gone) expect(existsSync(join(out, file))).toBe(false);
    for (const file of kept) expect(existsSync(join(out, file))).toBe(true);
    expect(pruneOrphans(out)).toEqual([]);
  });

  it('runs npm test from a clean test build, so what runs is exactly what the sources compile to', () => {
    const scripts = (
      JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.pretest).toContain('scripts/build-tests.mjs --clean');
    expect(scripts['pretest:fast']).toContain('scripts/build-tests.mjs');
  });
});

describe('the fast subset (jest.fast.config.js)', () => {
  it('leaves out only test files and folders that exist, and CI runs all of them', async () => {
    const fast = (await import(pathToFileURL(packagePath('jest.fast.config.js')).href)) as {
      SLOW: string[];
      default: { testPathIgnorePatterns: string[] };
    };
    const full = (await import(pathToFileURL(packagePath('jest.config.js')).href)) as {
      default: { testPathIgnorePatterns?: string[] };
    };
    // A slow file renamed without its entry here would silently join the edit loop.
    const missing = fast.SLOW.filter(
      (path) => !existsSync(packagePath(path.replace(/\.test\.js$/, '.test.ts'))),
    );
    expect(missing).toEqual([]);
    expect(fast.default.testPathIgnorePatterns).toHaveLength(fast.SLOW.length + 1);
    expect(full.default.testPathIgnorePatterns ?? []).toEqual([]);
  });
});

describe('the order of test files (scripts/jest-sequencer.mjs)', () => {
  interface FakeTest {
    path: string;
    duration?: number;
    context: { config: { rootDir: string; cache: boolean }; hasteFS: { getSize(path: string): number } };
  }
  type Sequencer = { sort(tests: FakeTest[]): FakeTest[]; _cache: Map<unknown, unknown> };

  it('with no timings (a fresh clone), starts the slow files first, whatever their size', async () => {
    const { default: SlowFirst } = (await import(
      pathToFileURL(packagePath('scripts', 'jest-sequencer.mjs')).href
    )) as { default: new () => Sequencer };
    const sizes: Record<string, number> = {};
    const context = {
      config: { rootDir: '/b', cache: true },
      hasteFS: { getSize: (path: string) => sizes[path] ?? 0 },
    };
    const file = (path: string, size: number): FakeTest => {
      sizes[`/b/${path}`] = size;
      return { path: `/b/${path}`, context };
    };
    const tests = [
      file('test/core/values.test.js', 9000),
      file('test/independent/alt-api-broken-data.test.js', 300),
      file('test/engine/ledger.test.js', 5000),
      file('test/safety/compressed.test.js', 4000),
    ];
    const sequencer = new SlowFirst();
    // No timings: the slow files in the order of SLOW, then the rest by size (largest first).
    sequencer._cache.set(context, {});
    expect(sequencer.sort([...tests]).map((t) => t.path.slice(3))).toEqual([
      'test/independent/alt-api-broken-data.test.js',
      'test/safety/compressed.test.js',
      'test/core/values.test.js',
      'test/engine/ledger.test.js',
    ]);
    // With timings from an earlier run, jest's own order: the longest first.
    sequencer._cache.set(context, {
      '/b/test/core/values.test.js': [1, 50],
      '/b/test/independent/alt-api-broken-data.test.js': [1, 40],
      '/b/test/engine/ledger.test.js': [1, 90],
      '/b/test/safety/compressed.test.js': [1, 10],
    });
    expect(sequencer.sort([...tests]).map((t) => t.path.slice(3))).toEqual([
      'test/engine/ledger.test.js',
      'test/core/values.test.js',
      'test/independent/alt-api-broken-data.test.js',
      'test/safety/compressed.test.js',
    ]);
  });
});
