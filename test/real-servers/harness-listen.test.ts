// The start every real-server harness shares (listen): port 0 announced or a free port, readiness by polling, nothing left behind.
import { describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { processesOwnedBy } from './harness/processes.js';
import { beginServer, listen, type ServerStart } from './harness/service.js';

/** A Node program as the server: listens on `port` (0: picks one and prints it), answers `status`. */
function nodeServer(start: ServerStart, label: string, port: number, status = 200) {
  const source = `const s = require('node:http').createServer((q, r) => { r.statusCode = ${status}; r.end('{}'); });
    s.listen(${port}, '127.0.0.1', () => console.log('Listening on port ' + s.address().port));`;
  return { label, file: process.execPath, args: ['-e', source], owner: start.dir, log: start.log };
}

/** A program that exits at once: a server that could not start. */
function failingServer(start: ServerStart, port: number) {
  return {
    label: `broken (port ${port})`,
    file: process.execPath,
    args: ['-e', "console.error('cannot start'); process.exit(3)"],
    owner: start.dir,
    log: start.log,
  };
}

describe('listen (the start shared by the real-server harnesses)', () => {
  it('starts a server that binds port 0 and announces it, answers from it, and stops it leaving nothing', async () => {
    const start = await beginServer('listen-test');
    const origin = await start.finish(() =>
      listen(start, {
        command: (port) => nodeServer(start, 'announced', port),
        announces: /Listening on port (\d+)/,
        readyPath: '/',
      }),
    );
    const answer = await fetch(origin);
    expect([answer.status, await answer.text()]).toEqual([200, '{}']);
    expect(processesOwnedBy(start.dir)).toHaveLength(1);
    await start.stop();
    expect(processesOwnedBy(start.dir)).toEqual([]);
    expect(existsSync(start.dir)).toBe(false);
  });

  it('passes a free port to a server that needs one, and waits until its status is the ready one', async () => {
    const start = await beginServer('listen-test');
    const ports: number[] = [];
    const origin = await start.finish(() =>
      listen(start, {
        command: (port) => {
          ports.push(port);
          return nodeServer(start, 'given', port, 204);
        },
        readyPath: '/health',
        ready: (status) => status === 204,
      }),
    );
    expect(ports).toHaveLength(1);
    expect(ports[0]).toBeGreaterThan(0);
    expect(origin).toBe(`http://127.0.0.1:${ports[0]}`);
    await start.stop();
  });

  it('retries a server that did not start on two more free ports, then rejects; nothing is left running', async () => {
    const start = await beginServer('listen-test');
    const ports: number[] = [];
    const failed = start.finish(() =>
      listen(start, {
        command: (port) => {
          ports.push(port);
          return failingServer(start, port);
        },
        readyPath: '/',
      }),
    );
    await expect(failed).rejects.toThrow(
      /^no ready answer from \/ \(port \d+: exited \(3\); port \d+: exited \(3\); port \d+: exited \(3\)\)$/,
    );
    expect(ports).toHaveLength(3);
    expect(start.log.text().match(/--- broken \(port \d+\) ---\ncannot start/g)).toHaveLength(3);
    expect(processesOwnedBy(start.dir)).toEqual([]);
    expect(existsSync(start.dir)).toBe(false);
  });

  it('rejects at once when a server announcing its port exits before it does (one attempt: no port to change)', async () => {
    const start = await beginServer('listen-test');
    const failed = start.finish(() =>
      listen(start, {
        command: (port) => failingServer(start, port),
        announces: /port (\d+)/,
        readyPath: '/',
      }),
    );
    await expect(failed).rejects.toThrow('no ready answer from / (port 0: exited (3))');
    expect(start.log.text().match(/--- broken \(port 0\) ---\ncannot start/g)).toHaveLength(1);
    expect(existsSync(start.dir)).toBe(false);
  });
});
