// Child process of the bench: one full audit of the API named on the command line; prints its figures as JSON.
// Run alone in its own process so that its peak memory (maxRSS) and CPU are the audit's, not the server's.
import { runAudit } from '../dist/src/engine/run.js';
import { catalogue } from '../dist/suites/index.js';
import { benchConfig } from './config.mjs';

const input = JSON.parse(process.argv[2]);
const config = await benchConfig(input);
// Time requests spent in flight, summed: divided by the wall time it is the average concurrency reached.
let inFlightMs = 0;
let lastResultAt = 0;
let chain;
const cpu = process.cpuUsage();
const started = performance.now();
const result = await runAudit(config, {
  catalogue,
  concurrency: input.concurrency,
  onExchange: (exchange) => (inFlightMs += exchange.durationMs),
  // The last result is known before the cleanup starts: what follows it is the cleanup's time.
  onResult: () => (lastResultAt = performance.now()),
  // The longest chain of request rounds that had to follow one another (src/engine/chains.ts).
  onChains: (stats) => (chain = stats),
});
const wallMs = performance.now() - started;
const { user, system } = process.cpuUsage(cpu);
// With --expose-gc (the scale rows): what stays live once the run is over and its result is held.
globalThis.gc?.();
const heapAfterGc = globalThis.gc ? process.memoryUsage().heapUsed : undefined;
const bad = result.results.filter((r) => r.status === 'failed' || r.status === 'errored');
process.stdout.write(
  `${JSON.stringify({
    wallMs,
    requests: result.summary.requests,
    cpuMs: (user + system) / 1000,
    inFlightMs,
    cleanupMs: started + wallMs - lastResultAt,
    results: result.results.length,
    checks: catalogue.length,
    summary: result.summary,
    // Peak resident set of this process in bytes (resourceUsage reports KiB).
    peakRss: process.resourceUsage().maxRSS * 1024,
    heapAfterGc,
    failures: bad.map(
      (r) => `${r.status} ${r.checkId} ${r.resource ?? '-'}: ${(r.message ?? '').slice(0, 160)}`,
    ),
    leftovers: result.cleanup.leftovers.length,
    chain,
  })}\n`,
);
