// `npm run bench`: audit speed against the example API with N resources, a plain-loop baseline, cold start.
//
// For each N the example API runs in this process; the audit and the baseline loop each run in a
// child process (bench/audit.mjs, bench/loop.mjs), so that their peak memory and CPU are their own.
// Figures are medians of --runs runs. Nothing here asserts a time: it prints a table.
//
//   npm run bench -- [--sizes 2,10,50] [--runs 3] [--concurrency 8] [--profile] [--scale]
//                    [--latency 30,100] [--latency-sizes 10]
//
// --latency: rows against an API that holds every answer that many ms (the example API's latencyMs),
// at each of --latency-sizes, one run each (their time is the latency's, not the machine's noise);
// `--latency 0` leaves them out. Every row also gets the chain lower bound (see bench/table.mjs).
// --profile writes a V8 CPU profile of every audit to bench/profiles/ (see bench/profile-summary.mjs).
// --scale: the large-API rows (default sizes 1000,10000, one run each), without the baseline loops
// and the demo row, with the heap left after a GC; `--scale --sizes 1000,2000` picks other sizes.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createExampleApi } from '../dist/src/example-api/index.js';
import { DEFAULT_RESOURCES } from './config.mjs';
import { renderTable } from './table.mjs';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string' },
    runs: { type: 'string' },
    concurrency: { type: 'string', default: '8' },
    profile: { type: 'boolean', default: false },
    scale: { type: 'boolean', default: false },
    latency: { type: 'string', default: '30,100' },
    'latency-sizes': { type: 'string', default: '10' },
  },
});
const scale = args.scale;
const sizes = (args.sizes ?? (scale ? '1000,10000' : '2,10,50')).split(',').map(Number);
const runs = Math.max(1, Number(args.runs ?? (scale ? 1 : 3)));
const concurrency = Math.max(1, Number(args.concurrency));
const latencies = scale
  ? []
  : args.latency
      .split(',')
      .map(Number)
      .filter((ms) => ms > 0);
const latencySizes = args['latency-sizes'].split(',').map(Number);
// The bench API has no rate limit, so the audit and the loop both run at full speed against the same
// server; the burst of the rate-limit check is bounded low (no 429 is expected without a limit).
// The "demo" row keeps the example API and config/example.yaml exactly as `conformance demo` runs them.
const BENCH_BURST = { maxRequests: 20, expected: false };

/** Runs a node script; resolves with the JSON it printed last. */
function child(script, input, nodeArgs = []) {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [...nodeArgs, script, JSON.stringify(input)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (chunk) => (out += chunk));
    proc.on('error', reject);
    proc.on('close', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0) reject(new Error(`${script} exited with ${code}: ${out.slice(-400)}`));
      else resolve(JSON.parse(last));
    });
  });
}

/**
 * Wall time (spawn to exit) and CPU time of a command in a fresh process, ms; `{ error }` when it
 * fails. CPU time comes from bench/cpu-report.mjs, preloaded, which writes it on fd 3 at exit.
 */
function timed(argv) {
  return new Promise((resolve) => {
    const started = performance.now();
    const proc = spawn(process.execPath, ['--import', here('./cpu-report.mjs'), ...argv], {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let report = '';
    proc.stderr.on('data', (chunk) => (stderr += chunk));
    proc.stdio[3].on('data', (chunk) => (report += chunk));
    proc.on('error', (err) => resolve({ error: err.message }));
    proc.on('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) resolve({ error: `exit ${code}: ${stderr.trim().split('\n')[0] ?? ''}` });
      else resolve({ ms, cpuMs: report ? JSON.parse(report).cpuMs : NaN });
    });
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** The run whose wall time is the median (so its figures belong together). */
function medianRun(list, key = 'wallMs') {
  const m = median(list.map((x) => x[key]));
  return list.find((x) => x[key] === m);
}

/** Request headers the replay sends again (connection handling is the replaying client's own). */
const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

/**
 * A server-side recorder (the example API's middleware hook): every request as it arrived, for the
 * replay loop. Webhook subscriptions are left out: replayed, they would point at a receiver that is gone.
 */
function recorder() {
  const requests = [];
  const middleware = (req, _res, body) => {
    if (!/\/webhooks(\/|$)/.test(req.url ?? '')) {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => !HOP_BY_HOP.has(name)),
      );
      requests.push({
        method: req.method,
        path: req.url,
        headers,
        ...(body.length > 0 ? { body: body.toString('base64') } : {}),
      });
    }
    return false;
  };
  return { requests, middleware };
}

/**
 * One audit against a fresh example API, then the baselines: a plain loop of as many GETs against
 * the same server, and a replay of the audit's own requests against a fresh one. `demo` keeps the
 * demo's API and config, and has no baseline.
 */
async function measure(resources, demo, latencyMs = 0) {
  const options = demo
    ? {}
    : {
        extraResources: resources - DEFAULT_RESOURCES,
        rateLimit: false,
        ...(latencyMs > 0 ? { latencyMs } : {}),
      };
  const record = recorder();
  // The scale rows have no baseline: nothing is recorded for a replay.
  const api = createExampleApi(demo || scale ? options : { ...options, middleware: record.middleware });
  const { baseUrl } = await api.listen(0, '127.0.0.1');
  let audit;
  let loop;
  try {
    const nodeArgs = [
      ...(scale ? ['--expose-gc'] : []),
      ...(args.profile
        ? [
            '--cpu-prof',
            '--cpu-prof-dir',
            here('./profiles'),
            '--cpu-prof-name',
            `audit-${demo ? 'demo' : resources}${latencyMs > 0 ? `-${latencyMs}ms` : ''}-${Date.now()}.cpuprofile`,
          ]
        : []),
    ];
    audit = await child(
      here('./audit.mjs'),
      {
        baseUrl,
        tokens: api.tokens,
        webhookSecret: api.webhookSecret,
        resources,
        concurrency,
        ...(demo ? {} : { burst: BENCH_BURST }),
      },
      nodeArgs,
    );
    if (demo || scale) return { audit };
    loop = await child(here('./loop.mjs'), {
      url: `${baseUrl}/widgets/1`,
      count: audit.requests,
      concurrency,
      token: api.tokens.full,
    });
  } finally {
    await api.close();
  }
  const dir = await mkdtemp(join(tmpdir(), 'conformance-bench-'));
  const fresh = createExampleApi(options);
  try {
    const file = join(dir, 'requests.json');
    await writeFile(file, JSON.stringify(record.requests));
    const served = await fresh.listen(0, '127.0.0.1');
    const replay = await child(here('./replay.mjs'), { origin: served.origin, file, concurrency });
    return { audit, loop, replay };
  } finally {
    await fresh.close();
    await rm(dir, { recursive: true, force: true });
  }
}

// The machine's state, printed with the figures: on a busy machine every time is inflated.
const machine = { cores: cpus().length, loadBefore: loadavg()[0] };
const rows = [];
const demoRow = scale ? [] : [{ n: DEFAULT_RESOURCES, demo: true }];
const latencyRows = latencies.flatMap((latencyMs) =>
  latencySizes.map((n) => ({ n, demo: false, latencyMs })),
);
for (const n of [...sizes.map((n) => ({ n, demo: false })), ...demoRow, ...latencyRows]) {
  const samples = [];
  for (let i = 0; i < (n.latencyMs ? 1 : runs); i++) samples.push(await measure(n.n, n.demo, n.latencyMs));
  const audit = medianRun(samples.map((s) => s.audit));
  const loop = n.demo || scale ? undefined : medianRun(samples.map((s) => s.loop));
  const replay = n.demo || scale ? undefined : medianRun(samples.map((s) => s.replay));
  rows.push({ ...n, audit, loop, replay, peakRss: Math.max(...samples.map((s) => s.audit.peakRss)) });
  process.stderr.write(
    `bench: N=${n.n}${n.demo ? ' (demo)' : ''}${n.latencyMs ? ` at ${n.latencyMs} ms` : ''} done\n`,
  );
}

const bin = here('../bin/conformance');
const cold = [];
for (const command of scale ? [] : [['--help'], ['list']]) {
  const runsOf = [];
  for (let i = 0; i < Math.max(5, runs); i++) runsOf.push(await timed([bin, ...command]));
  const failed = runsOf.find((r) => r.error !== undefined);
  cold.push({
    command: `conformance ${command.join(' ')}`,
    ...(failed
      ? { error: failed.error }
      : { ms: median(runsOf.map((r) => r.ms)), cpuMs: median(runsOf.map((r) => r.cpuMs)) }),
  });
}

machine.loadAfter = loadavg()[0];
process.stdout.write(renderTable({ rows, cold, runs, concurrency, burst: BENCH_BURST, machine, scale }));
