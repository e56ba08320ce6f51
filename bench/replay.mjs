// Child process of the bench: replays the requests the audit sent (recorded by the server) with a plain
// undici loop at the same concurrency, so the comparison is with the same requests, not just as many.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';

const { origin, file, concurrency } = JSON.parse(process.argv[2]);
const recorded = JSON.parse(readFileSync(file, 'utf8'));
const dispatcher = new Agent({ connections: 32, keepAliveTimeout: 4000 });
let next = 0;

async function worker() {
  while (next < recorded.length) {
    const { method, path, headers, body } = recorded[next++];
    try {
      const res = await request(origin + path, {
        method,
        headers,
        body: body === undefined ? undefined : Buffer.from(body, 'base64'),
        dispatcher,
      });
      await res.body.arrayBuffer();
    } catch {
      // A request the server refuses at the socket level counts like any other: it was sent.
    }
  }
}

const cpu = process.cpuUsage();
const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, () => worker()));
const wallMs = performance.now() - started;
const { user, system } = process.cpuUsage(cpu);
await dispatcher.close();
process.stdout.write(
  `${JSON.stringify({ wallMs, requests: recorded.length, cpuMs: (user + system) / 1000 })}\n`,
);
