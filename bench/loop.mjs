// Child process of the bench: the baseline, a plain undici loop of GETs at a fixed concurrency; prints JSON.
import { Agent, request } from 'undici';

const { url, count, concurrency, token } = JSON.parse(process.argv[2]);
// Same pool size and keep-alive as the audit's client, so only the work around each request differs.
const dispatcher = new Agent({ connections: 32, keepAliveTimeout: 4000 });
const headers = { accept: 'application/json', authorization: `Bearer ${token}` };
let sent = 0;
const statuses = {};

async function worker() {
  while (sent < count) {
    sent++;
    const res = await request(url, { method: 'GET', headers, dispatcher });
    // Read the body whole, as the audit does, so the comparison is like for like.
    await res.body.arrayBuffer();
    statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
  }
}

const cpu = process.cpuUsage();
const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, () => worker()));
const wallMs = performance.now() - started;
const { user, system } = process.cpuUsage(cpu);
await dispatcher.close();
process.stdout.write(
  `${JSON.stringify({ wallMs, requests: sent, cpuMs: (user + system) / 1000, statuses })}\n`,
);
