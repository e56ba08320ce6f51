// Adaptive pacing against a tight limiter: the example API limited to N requests per second per token,
// refusing with `Retry-After: 0` (with and without RateLimit-* headers), audited with config/example.yaml.
//
// For each mode prints the requests sent, the 429s met, the checks skipped as "rate-limited", the wall
// time and its ratio to the ideal (requests ÷ N per second). The target is 0 rate-limited skips and a
// ratio of at most 1.5; exits 1 when a mode misses it. Figures, not a timed test: run it on a quiet machine.
//
//   npm run build && node bench/pacing.mjs [--rps 50] [--runs 1]
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist/src');
if (!existsSync(join(dist, 'cli/main.js'))) {
  process.stderr.write('dist/ is missing: run npm run build first\n');
  process.exit(2);
}
const { values: args } = parseArgs({
  options: { rps: { type: 'string', default: '50' }, runs: { type: 'string', default: '1' } },
});
const rps = Number(args.rps);
const runs = Number(args.runs);

const { createExampleApi, strictRateLimit } = await import(join(dist, 'example-api/index.js'));
const { loadConfig } = await import(join(dist, 'config/load.js'));
const { exampleEnv } = await import(join(dist, 'cli/demo.js'));
const { packagePath } = await import(join(dist, 'core/paths.js'));
const { runAudit } = await import(join(dist, 'engine/run.js'));
const { catalogue } = await import(join(root, 'dist/suites/index.js'));

/** One audit of the limited example API; what it cost. */
async function measure(advertise) {
  const api = createExampleApi({ rateLimit: strictRateLimit(rps, advertise) });
  const { baseUrl } = await api.listen(0, '127.0.0.1');
  try {
    const config = await loadConfig({
      path: packagePath('config', 'example.yaml'),
      baseUrl,
      env: { ...process.env, ...exampleEnv(api) },
    });
    const started = performance.now();
    const result = await runAudit(config, { catalogue });
    const wallMs = performance.now() - started;
    const rateLimited = result.results.filter((r) => /rate-limited/.test(r.message ?? '')).length;
    const failed = result.results.filter((r) => r.status === 'failed' || r.status === 'errored').length;
    const requests = result.summary.requests;
    const ideal = (requests / rps) * 1000;
    // Every request sent but not answered as the last of its send is a 429 that was waited out and retried.
    const retried = requests - result.summary.answered;
    return { requests, retried, rateLimited, failed, wallMs, ratio: wallMs / ideal };
  } finally {
    await api.close();
  }
}

const rows = [];
let missed = false;
for (const advertise of [true, false]) {
  for (let i = 0; i < runs; i++) {
    const m = await measure(advertise);
    const ok = m.rateLimited === 0 && m.ratio <= 1.5;
    missed ||= !ok;
    rows.push({
      mode: advertise ? 'RateLimit-* headers' : '429s only',
      requests: m.requests,
      'retried 429s': m.retried,
      'rate-limited skips': m.rateLimited,
      'failed/errored': m.failed,
      'wall s': (m.wallMs / 1000).toFixed(1),
      'ideal s': (m.requests / rps).toFixed(1),
      ratio: m.ratio.toFixed(2),
      target: ok ? 'met' : 'MISSED',
    });
  }
}
process.stdout.write(
  `Example API limited to ${rps} req/s per token, 429 with Retry-After: 0 (config/example.yaml, every check)\n`,
);
console.table(rows);
process.exitCode = missed ? 1 : 0;
