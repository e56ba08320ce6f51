// An observer finding's own reproduction (Finding.reproduce, Finding.before) reaches its result's script, for the finding its first evidence proves.
import { describe, expect, it } from '@jest/globals';
import { defineCheck, type Exchange, type ObserverCheck } from '../../src/core/check.js';
import type { ReproCheck } from '../../src/core/reproduce.js';
import type { AuditConfig, Evidence, ResourceConfig } from '../../src/core/types.js';
import { ObserverHub } from '../../src/engine/observers.js';

const RESOURCE = { name: 'widgets' } as ResourceConfig;
const CONFIG = { resources: [RESOURCE] } as unknown as AuditConfig;

function exchange(url: string, status: number): Exchange {
  const evidence = { request: { method: 'GET', url }, response: { status }, curl: `curl ${url}` } as Evidence;
  return { method: 'GET', url, status, resource: 'widgets', evidence } as unknown as Exchange;
}

const BURST: ReproCheck = { kind: 'burst', count: 10, judge: 'server-error' };

/** Fails every 5xx; the finding on /b declares its own script and the read it needed before it. */
function observer(declared?: ReproCheck): ObserverCheck {
  return defineCheck({
    kind: 'observer',
    id: 'fake',
    rules: ['ERR-SERVER'],
    suite: 'errors',
    title: 'fake',
    severity: 'error',
    messages: { bad: 'bad' },
    description: { sends: '', passes: '', why: '' },
    ...(declared ? { reproduce: declared } : {}),
    inspect(x) {
      if ((x.status ?? 0) < 500) return undefined;
      if (!x.url.endsWith('/b')) return { messageId: 'bad', message: `${x.url} failed` };
      return {
        messageId: 'bad',
        message: `${x.url} failed`,
        reproduce: BURST,
        before: [exchange('/read', 200).evidence],
      };
    },
  }) as ObserverCheck;
}

describe("an observer's result script", () => {
  it("tests what the first evidence's finding declared and replays what it needed before it", () => {
    const hub = new ObserverHub([observer()], CONFIG);
    hub.inspect(exchange('/ok', 200));
    hub.inspect(exchange('/b', 503));
    hub.inspect(exchange('/a', 500));
    const [result] = hub.results([RESOURCE]);
    expect(result.status).toBe('failed');
    const { check, evidence } = hub.reproduceOf(result);
    expect(check).toEqual(BURST);
    expect(evidence?.map((e) => e.request.url)).toEqual(['/read', '/b']);
  });

  it("falls back to the observer's declared reproduce when the first finding declares none", () => {
    const declared: ReproCheck = { kind: 'error-body' };
    const hub = new ObserverHub([observer(declared)], CONFIG);
    hub.inspect(exchange('/a', 500));
    hub.inspect(exchange('/b', 503));
    const [result] = hub.results([RESOURCE]);
    const { check, evidence } = hub.reproduceOf(result);
    expect(check).toEqual(declared);
    // An error-body verdict compares the shapes of several answers: the first four are replayed.
    expect(evidence.map((e) => e.request.url)).toEqual(['/a', '/b']);
  });

  it("replays the result's first exchange when the first finding needed nothing before it", () => {
    const hub = new ObserverHub([observer({ kind: 'status' })], CONFIG);
    hub.inspect(exchange('/a', 500));
    hub.inspect(exchange('/c', 502));
    const [result] = hub.results([RESOURCE]);
    expect(hub.reproduceOf(result).evidence.map((e) => e.request.url)).toEqual(['/a']);
  });
});
