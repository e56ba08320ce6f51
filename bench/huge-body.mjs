// Peak memory of a full audit against a service that answers every request with a 500 MB body.
//
// The server runs in this process and streams a chunked JSON body of --mb megabytes (no
// Content-Length, so the client cannot know the size in advance and must stop at its cap); the
// audit runs in a child process (bin/conformance, as users run it, with two resources and every
// check), so its peak RSS is its own. Prints the figures; exits 1 when the peak is over --limit MB
// (default 150) or the audit did not exit 1.
//
//   npm run build && node bench/huge-body.mjs [--mb 500] [--limit 150] [--declared]
//
// --declared sends Content-Length instead (the client then stops before reading the cap).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const mainJs = join(root, 'dist/src/cli/main.js');
const bin = join(root, 'bin/conformance');
/** Preloaded into the audit process: writes its peak RSS (MB) to fd 3 as it exits. */
const peakHook =
  'data:text/javascript,' +
  encodeURIComponent(
    "import { writeSync } from 'node:fs'; process.on('exit', () => writeSync(3, String(process.resourceUsage().maxRSS / 1024)));",
  );

const { values: args } = parseArgs({
  options: {
    mb: { type: 'string', default: '500' },
    limit: { type: 'string', default: '150' },
    declared: { type: 'boolean', default: false },
  },
});
const bodyBytes = Number(args.mb) * 1024 * 1024;
const limitMb = Number(args.limit);

if (!existsSync(mainJs)) {
  process.stderr.write('dist/ is missing: building it (npm run build)…\n');
  const built = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', root], {
    stdio: 'inherit',
  });
  if (built.status !== 0 && !existsSync(mainJs)) process.exit(2);
}

// The hostile server: every request gets `bodyBytes` of "[   …", written only as fast as it is read.
let requests = 0;
let bytesSent = 0;
let maxOneRequest = 0;
const chunk = Buffer.alloc(64 * 1024, 0x20);
const server = createServer((req, res) => {
  requests++;
  req.resume();
  res.writeHead(200, {
    'content-type': 'application/json',
    ...(args.declared ? { 'content-length': String(bodyBytes) } : {}),
  });
  let sent = 0;
  let closed = false;
  res.on('close', () => (closed = true));
  const pump = () => {
    while (!closed && sent < bodyBytes) {
      const piece = sent === 0 ? Buffer.concat([Buffer.from('['), chunk.subarray(1)]) : chunk;
      const n = Math.min(piece.length, bodyBytes - sent);
      sent += n;
      bytesSent += n;
      maxOneRequest = Math.max(maxOneRequest, sent);
      if (!res.write(piece.subarray(0, n))) {
        res.once('drain', pump);
        return;
      }
    }
    if (!closed) res.end();
  };
  pump();
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${server.address().port}/v1`;

const dir = await mkdtemp(join(tmpdir(), 'conf-huge-'));
const config = join(dir, 'config.json');
await writeFile(
  config,
  JSON.stringify({
    auth: { token: '${BENCH_TOKEN}' },
    resources: [
      { name: 'widgets', path: '/widgets', sample: { name: 'bolt', price: 3 }, update: { price: 5 } },
      { name: 'orders', path: '/orders', sample: { widgetId: 1, quantity: 2 }, update: { quantity: 3 } },
    ],
  }),
);

const started = performance.now();
const result = await new Promise((resolve, reject) => {
  // The audit as users run it: bin/conformance in a process of its own.
  const child = spawn(
    process.execPath,
    [
      '--import',
      peakHook,
      bin,
      'run',
      '--base-url',
      baseUrl,
      '--config',
      config,
      '--out',
      join(dir, 'out'),
      '--quiet',
      '--no-color',
      '--timeout',
      '30000',
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
      env: { ...process.env, BENCH_TOKEN: 'bench-token-0123456789' },
    },
  );
  let stderr = '';
  let peak = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdio[3].on('data', (d) => (peak += d));
  child.on('error', reject);
  child.on('close', (code) => {
    if (peak === '')
      reject(new Error(`the audit process ended (${code}) without a figure: ${stderr.slice(-400)}`));
    else resolve({ code, ms: performance.now() - started, peakRssMb: Math.round(Number(peak) * 10) / 10 });
  });
});
server.closeAllConnections();
server.close();
await rm(dir, { recursive: true, force: true });

const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const ok = result.peakRssMb <= limitMb;
const lines = [
  `huge-body bench: every answer is a ${args.mb} MB ${args.declared ? 'declared (Content-Length)' : 'chunked'} body`,
  `  audit exit code        ${result.code} (1 expected: the service breaks rules)`,
  `  requests answered      ${requests}`,
  `  audit wall time        ${(result.ms / 1000).toFixed(1)} s`,
  `  bytes the server sent  ${mb(bytesSent)} in all, at most ${mb(maxOneRequest)} to one request`,
  `  peak RSS of the audit  ${result.peakRssMb} MB (limit ${limitMb} MB): ${ok ? 'ok' : 'OVER THE LIMIT'}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
process.exitCode = ok && result.code === 1 ? 0 : 1;
