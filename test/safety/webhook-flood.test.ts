// A service that floods the webhook receiver: the receiver keeps what it bounds, the event is still found, the report stays short.
import { afterEach, describe, expect, it } from '@jest/globals';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { packagePath } from '../../src/core/paths.js';
import { exampleEnv, writeExampleConfig } from '../../src/testing/example-config.js';
import { startExampleFixture, type FixtureServer } from '../../src/testing/fixture-server.js';
import { deliverer, standard, type Shipment } from '../suites/webhooks-fixtures.js';
import { cli, readReport, tempDir } from './helpers.js';
import { runMeasured } from './peak.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

const example = packagePath('config', 'example.yaml');

/** One delivery of an event nobody subscribed to, `bytes` long. */
function noise(bytes: number): Shipment {
  const body = JSON.stringify({ type: 'noise', pad: 'n'.repeat(bytes - 28) });
  return { body, headers: { 'content-type': 'application/json' } };
}

async function flooding(ship: (event: string) => Shipment[]): Promise<FixtureServer> {
  const server = await startExampleFixture({ middleware: deliverer(ship) });
  closers.push(() => server.close());
  return server;
}

describe('a webhook flood', () => {
  it('1,200 deliveries of 1 MiB: the declared events are still found, memory stays under 150 MB', async () => {
    // Each create (widgets, orders) is followed by 600 deliveries of 1 MiB, then its event.
    const flood = Array<Shipment>(600).fill(noise(1024 * 1024));
    const server = await flooding((event) => [...flood, standard(event)]);
    const out = join(await tempDir(), 'reports');
    const run = await runMeasured(
      ['run', '--config', example, '--base-url', server.baseUrl, '--out', out, '--only', 'HOOK-*'],
      exampleEnv(server),
    );
    const report = await readReport(out);
    const hooks = report.results.filter((r) => r.rules.some((rule) => rule.startsWith('HOOK-')));
    expect(hooks.map((r) => [r.checkId, r.status])).toEqual([
      ['webhook-delivery', 'passed'],
      ['webhook-signature', 'passed'],
    ]);
    expect(run.code).toBe(0);
    expect(run.peakMb).toBeLessThan(150);
    if (process.env.SHOW_PEAKS) process.stderr.write(`webhook flood: ${run.peakMb} MB\n`);
  }, 120_000);

  it('unrelated deliveries only: one finding that tallies them in one line; the report stays short', async () => {
    // The whole flood is delivered before the create is answered, so the tally is complete when the
    // wait begins and the wait can be short: the audit waits 0.5 s for an event that never comes.
    const flood = Array<Shipment>(200).fill(noise(64 * 1024));
    const server = await startExampleFixture({
      middleware: deliverer(() => [{ body: '{"kind":"other"}', headers: {} }, ...flood], {
        beforeAnswer: true,
      }),
    });
    closers.push(() => server.close());
    const config = await writeExampleConfig((text) => text.replace('timeoutMs: 5000', 'timeoutMs: 500'));
    const out = join(await tempDir(), 'reports');
    const run = await cli(
      ['run', '--config', config, '--base-url', server.baseUrl, '--out', out, '--only', 'HOOK-DELIVERY'],
      { env: exampleEnv(server) },
    );
    expect(run.code).toBe(1);
    const report = await readReport(out);
    const [delivery] = report.results.filter((r) => r.checkId === 'webhook-delivery');
    expect(delivery.status).toBe('failed');
    // The receiver keeps 100 deliveries or 4 MiB: the rest of each flood is counted, and the
    // message names each kind of delivery once, with its count.
    expect(delivery.message).toMatch(
      /no delivery had type = "widget\.created" within 0\.5 s; the 201 deliveries had no "type", "noise" × \d+, and \d+ the receiver only counted/,
    );
    expect((delivery.message!.match(/"noise"/g) ?? []).length).toBeLessThanOrEqual(2);
    expect((await stat(join(out, 'conformance.json'))).size).toBeLessThan(256 * 1024);
  }, 60_000);
});
