// DOC-SCHEMA remembers a run's failing item reads for its list findings' scripts: in that run's memory, never the next run's.
import { describe, expect, it } from '@jest/globals';
import type { Exchange, ObserverCheck } from '../../src/core/check.js';
import type { Evidence } from '../../src/core/types.js';
import { runMemory } from '../../src/engine/observers.js';
import { exampleConfig } from '../../src/testing/example-config.js';
import type { FixtureServer } from '../../src/testing/fixture-server.js';
import matchesSchema from '../../suites/schema/matches-schema.js';

const BASE = 'http://127.0.0.1:9/v1';
/** A widget whose price is text: it breaks config/schemas/widget.json the same way read alone or listed. */
const BROKEN = {
  id: 1,
  name: 'bolt',
  price: 'three',
  createdAt: '2030-01-01T00:00:00Z',
  updatedAt: '2030-01-01T00:00:00Z',
};

function read(path: string, body: unknown): Exchange {
  const url = `${BASE}${path}`;
  const text = JSON.stringify(body);
  const evidence = {
    request: { method: 'GET', url },
    response: { status: 200, body: text },
    curl: `curl ${url}`,
  } as Evidence;
  return {
    method: 'GET',
    url,
    status: 200,
    headers: { 'content-type': 'application/json' },
    text,
    json: body,
    isJson: true,
    mediaType: 'application/json',
    truncated: false,
    durationMs: 1,
    resource: 'widgets',
    evidence,
  };
}

describe('DOC-SCHEMA, two runs on one config (a library caller reusing it)', () => {
  it("names the failing item read of its own run before a list finding, never the earlier run's", async () => {
    const config = await exampleConfig({
      baseUrl: BASE,
      tokens: { full: 'full-token', limited: 'limited-token' },
    } as unknown as FixtureServer);
    const check = matchesSchema as ObserverCheck;
    const before = (finding: ReturnType<ObserverCheck['inspect']>) =>
      typeof finding === 'object' ? finding.before?.map((e) => e.request.url) : finding;

    const first = runMemory();
    expect(before(check.inspect(read('/widgets/1', BROKEN), config, first))).toBeUndefined();
    // In one run, the list finding needs the read of the item that broke the schema the same way.
    expect(before(check.inspect(read('/widgets', [BROKEN]), config, first))).toEqual([`${BASE}/widgets/1`]);

    const second = runMemory();
    expect(before(check.inspect(read('/widgets', [BROKEN]), config, second))).toBeUndefined();
  });
});
