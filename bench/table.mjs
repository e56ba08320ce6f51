// Renders the bench figures as plain-text tables, with each target and whether the figure meets it.

/** The targets of the performance issues (CI machine size: 2 cores). */
export const TARGETS = {
  smallAuditMs: 2000, // the example API audit, N = 2
  ratio: 0.8, // audit request rate / plain loop rate
  peakRssBytes: 120 * 1024 * 1024, // at N = 50
  cpuPerRequestMs: 0.08, // at N = 50
  cpuTargetN: 50,
  chainRatio: 1.25, // wall time / chain lower bound, at 30 ms latency
  chainLatencyMs: 30,
  coldStartMs: 200,
  scalePeakRssBytes: 300 * 1024 * 1024, // --scale: at N = 1,000 and below
  scaleTargetN: 1000,
};

const fmt = {
  ms: (v) => `${Math.round(v)} ms`,
  mb: (v) => `${(v / 1024 / 1024).toFixed(0)} MB`,
  rate: (v) => `${Math.round(v)}/s`,
  us: (ms) => `${Math.round(ms * 1000)} µs`,
};

function table(header, lines) {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i]).length)));
  const row = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  return [row(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(row)].join('\n');
}

const mark = (ok) => (ok ? 'ok' : 'MISSED');

/** `N`, `N (demo)` or `N @ 30 ms`: which API a row audited. */
const rowName = ({ n, demo, latencyMs }) =>
  demo ? `${n} (demo)` : latencyMs ? `${n} @ ${latencyMs} ms` : String(n);

/**
 * The latency a row's chain is multiplied by: the server's own delay when it has one, else the
 * audit's mean request time (a local server answers in about that).
 */
const latencyOf = ({ latencyMs, audit }) => latencyMs || audit.inFlightMs / audit.requests;

/**
 * Chain rounds, the lower bound they allow (rounds x latency), the bound --concurrency allows
 * (requests x latency / concurrency: no more than that many requests are ever in flight), and how
 * far the wall time is from the chain's bound.
 */
function chainCells(row, concurrency) {
  const { chain } = row.audit;
  if (!chain) return ['-', '-', '-', '-'];
  const latency = latencyOf(row);
  const bound = chain.rounds * latency;
  const slots = (row.audit.requests * latency) / concurrency;
  const ratio = row.audit.wallMs / bound;
  const judged = row.latencyMs === TARGETS.chainLatencyMs ? ` ${mark(ratio <= TARGETS.chainRatio)}` : '';
  return [String(chain.rounds), fmt.ms(bound), fmt.ms(slots), `${ratio.toFixed(2)}${judged}`];
}

export function renderTable({ rows, cold, runs, concurrency, burst, machine, scale = false }) {
  const rate = (x) => (x.requests / x.wallMs) * 1000;
  const ratio = (audit, base) => {
    const r = rate(audit) / rate(base);
    return `${r.toFixed(2)} ${mark(r >= TARGETS.ratio)}`;
  };
  const peak = (n, peakRss) => {
    if (!scale && n !== TARGETS.cpuTargetN) return fmt.mb(peakRss);
    if (!scale) return `${fmt.mb(peakRss)} ${mark(peakRss < TARGETS.peakRssBytes)}`;
    if (n > TARGETS.scaleTargetN) return fmt.mb(peakRss);
    return `${fmt.mb(peakRss)} ${mark(peakRss < TARGETS.scalePeakRssBytes)}`;
  };
  const cpu = ({ n, latencyMs, audit }) => {
    const perRequest = audit.cpuMs / audit.requests;
    const judged = !scale && !latencyMs && n === TARGETS.cpuTargetN;
    return `${fmt.us(perRequest)}${judged ? ` ${mark(perRequest <= TARGETS.cpuPerRequestMs)}` : ''}`;
  };
  const auditLines = rows.map((row) => {
    const { n, audit, peakRss } = row;
    return [
      rowName(row),
      fmt.ms(audit.wallMs),
      fmt.ms(audit.cleanupMs),
      fmt.ms(audit.wallMs / n),
      audit.requests,
      fmt.rate(rate(audit)),
      (audit.inFlightMs / audit.wallMs).toFixed(1),
      cpu(row),
      ...(scale ? [fmt.ms(audit.cpuMs / n)] : []),
      row.latencyMs ? fmt.mb(peakRss) : peak(n, peakRss),
      ...(scale ? [audit.heapAfterGc === undefined ? '-' : fmt.mb(audit.heapAfterGc)] : []),
      ...chainCells(row, concurrency),
      `${audit.results} / ${audit.summary.failed + audit.summary.errored}`,
    ];
  });
  const plain = rows.filter((r) => !r.demo && !r.latencyMs).sort((a, b) => a.n - b.n);
  const baseLines = rows
    .filter((r) => !r.demo && r.loop && r.replay)
    .map(({ n, latencyMs, audit, loop, replay }) => [
      rowName({ n, latencyMs }),
      fmt.rate(rate(audit)),
      fmt.rate(rate(replay)),
      ratio(audit, replay),
      fmt.rate(rate(loop)),
      ratio(audit, loop),
      `${fmt.us(audit.cpuMs / audit.requests)} / ${fmt.us(replay.cpuMs / replay.requests)} / ${fmt.us(loop.cpuMs / loop.requests)}`,
    ]);
  const load = `load average ${machine.loadBefore.toFixed(1)} before, ${machine.loadAfter.toFixed(1)} after`;
  const busy = Math.max(machine.loadBefore, machine.loadAfter) > machine.cores;
  const out = [
    `Machine: ${machine.cores} cores, ${load}${busy ? ' (busy: more runnable processes than cores, every time below is inflated)' : ''}`,
    '',
    `Audit of the example API (${runs === 1 ? 'one run' : `median of ${runs} runs`}, --concurrency ${concurrency}, ${rows[0]?.audit.checks ?? '?'} checks in the catalogue)`,
    '',
    table(
      [
        'N',
        'wall time',
        'of it cleanup',
        'per resource',
        'requests',
        'rate',
        'in flight',
        scale
          ? 'CPU/request'
          : `CPU/request (<= ${fmt.us(TARGETS.cpuPerRequestMs)} at N = ${TARGETS.cpuTargetN})`,
        ...(scale ? ['CPU/resource'] : []),
        scale
          ? `peak RSS (< 300 MB up to N = ${TARGETS.scaleTargetN})`
          : `peak RSS (< ${fmt.mb(TARGETS.peakRssBytes)} at N = ${TARGETS.cpuTargetN})`,
        ...(scale ? ['heap after GC'] : []),
        'chain',
        'chain bound',
        'slots bound',
        `wall / bound (<= ${TARGETS.chainRatio} at ${TARGETS.chainLatencyMs} ms)`,
        'results / failed',
      ],
      auditLines,
    ),
    '',
  ];
  const chained = rows.filter((r) => r.audit.chain);
  if (chained.length > 0) {
    out.push(
      'Where each chain goes (rounds): setup + the longest resource (its locked checks in turn) + checks run last + cleanup',
      '',
      ...chained.map((row) => {
        const c = row.audit.chain;
        return `  ${rowName(row)}: ${c.setup} + ${c.tasks}${c.resource ? ` (${c.resource})` : ''} + ${c.last} + ${c.cleanup} = ${c.rounds}`;
      }),
      '',
    );
  }
  if (baseLines.length > 0) {
    out.push(
      `The same number of requests at --concurrency ${concurrency}, sent by a plain undici loop (ratio = audit rate / loop rate, target >= ${TARGETS.ratio}):`,
      '',
      table(
        [
          'N',
          'audit rate',
          'replay rate',
          'ratio to replay',
          'GET loop rate',
          'ratio to GET loop',
          'CPU/request audit / replay / GET loop',
        ],
        baseLines,
      ),
      '',
    );
  }
  const small = plain.find((r) => r.n === 2);
  if (small) {
    out.push(
      `N = 2 audit: ${fmt.ms(small.audit.wallMs)} (target < ${TARGETS.smallAuditMs} ms: ${mark(small.audit.wallMs < TARGETS.smallAuditMs)})`,
    );
  }
  const demo = rows.find((r) => r.demo);
  if (demo) {
    out.push(
      `demo (example API and config/example.yaml as \`conformance demo\` runs them, rate limit on): ${fmt.ms(demo.audit.wallMs)} (target < ${TARGETS.smallAuditMs} ms: ${mark(demo.audit.wallMs < TARGETS.smallAuditMs)})`,
    );
  }
  if (plain.length >= 2) {
    const first = plain[0];
    const last = plain[plain.length - 1];
    const growth = last.audit.wallMs / first.audit.wallMs;
    const size = last.n / first.n;
    out.push(
      `growth: ${size}x the resources (N ${first.n} -> ${last.n}) took ${growth.toFixed(1)}x the time (linear or better: ${mark(growth <= size)})`,
    );
  }
  if (cold.length > 0) {
    out.push(
      '',
      table(
        ['cold start', `wall, median (--help < ${TARGETS.coldStartMs} ms)`, 'CPU, median'],
        cold.map((c) =>
          c.error === undefined
            ? [
                c.command,
                // The target is the help's: `list` also loads the catalogue.
                `${fmt.ms(c.ms)}${c.command.endsWith('--help') ? ` ${mark(c.ms < TARGETS.coldStartMs)}` : ''}`,
                fmt.ms(c.cpuMs),
              ]
            : [c.command, `failed (${c.error})`, '-'],
        ),
      ),
    );
  }
  out.push(
    '',
    'rate: requests the audit sent (checks, preflight, cleanup) / its wall time. in flight: the average number of',
    "audit requests awaiting an answer (summed request time / wall time). CPU/request: the process's CPU time",
    '(user + system) / requests. peak RSS: the audit process (the API runs in the bench process).',
    "chain: the longest chain of request rounds that had to follow one another (setup, each resource's locked",
    'checks in turn, the checks run last, cleanup; counted by the engine, src/engine/chains.ts). chain bound: chain x',
    "latency (the server's delay in the `@ ms` rows, else the audit's mean request time): no schedule of these",
    'checks can finish sooner, whatever the concurrency. slots bound: requests x latency / --concurrency, the',
    'bound the concurrency sets (the loops above are held to it too). `N @ L ms`: the API holds every answer L ms.',
    ...(scale
      ? [
          'CPU/resource: its CPU time / N. heap after GC: the heap still live after the run, its result held.',
          '--scale rows have no baseline loops and no demo row.',
        ]
      : []),
    ...(scale
      ? []
      : [
          'replay: the very requests the audit sent (recorded by the API), replayed in order against a fresh API.',
          'GET loop: as many GETs of one widget against the same API, after the audit.',
        ]),
    `The N rows run the example API without a rate limit and bound the rate-limit burst to ${burst.maxRequests} requests${scale ? '.' : ';'}`,
    ...(scale
      ? []
      : ['the demo row keeps the demo rate limit, so it includes the 429 burst and the Retry-After wait.']),
  );
  const failures = rows.flatMap((r) =>
    r.audit.failures.map((f) => `  N=${r.n}${r.demo ? ' demo' : ''}: ${f}`),
  );
  if (failures.length > 0)
    out.push('', 'failed or errored results (the example API should have none):', ...failures);
  return `${out.join('\n')}\n`;
}
