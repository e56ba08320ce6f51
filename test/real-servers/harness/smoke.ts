// Helpers of the real-server smoke tests: one request with the server's output on failure, and "nothing left".
import { expect } from '@jest/globals';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { processesOwnedBy } from './processes.js';
import type { PgCluster } from './postgres.js';
import type { RealService } from './service.js';

/** An answer as the smoke tests judge it. */
export interface Answer {
  status: number;
  headers: Headers;
  /** The parsed JSON body; the text when it is not JSON. */
  body: any;
}

/** Sends one request to the server (path relative to its origin) and reads the whole answer. */
export async function ask(
  server: RealService,
  path: string,
  init: { method?: string; headers?: Record<string, string>; json?: unknown } = {},
): Promise<Answer> {
  const headers = {
    ...init.headers,
    ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
  };
  const res = await fetch(`${server.origin}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
    redirect: 'manual',
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body };
}

/**
 * Runs assertions about a server; when one fails, its message ends with what the server's
 * processes printed, so a failure in CI can be understood from the log alone.
 */
export async function withOutput(server: RealService, assertions: () => void | Promise<void>): Promise<void> {
  try {
    await assertions();
  } catch (error) {
    if (error instanceof Error) error.message += `\n\nOutput of ${server.label}:\n${server.output()}`;
    throw error;
  }
}

/** Whether something accepts TCP connections on 127.0.0.1:<port>. */
function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Stops the server and checks what a user of the harness relies on: no process of its folder (or
 * of `alsoOwned`, e.g. a cluster it owned) is left, the folders are gone, the port is closed.
 */
export async function expectNothingLeft(server: RealService, alsoOwned: string[] = []): Promise<void> {
  const folders = [server.dir, ...alsoOwned];
  // First, the same look finds the running server: otherwise "nothing found" below would prove nothing.
  expect(processesOwnedBy(server.dir).length).toBeGreaterThan(0);
  await server.stop();
  expect(folders.flatMap((dir) => processesOwnedBy(dir))).toEqual([]);
  expect(folders.filter((dir) => existsSync(dir))).toEqual([]);
  expect(await accepting(Number(new URL(server.origin).port))).toBe(false);
}

/** Stops a cluster (after its servers) and checks that its processes and its folder are gone. */
export async function expectClusterGone(cluster: PgCluster): Promise<void> {
  expect(processesOwnedBy(cluster.dir).length).toBeGreaterThan(0);
  await cluster.stop();
  expect(processesOwnedBy(cluster.dir)).toEqual([]);
  expect(existsSync(cluster.dir)).toBe(false);
}
