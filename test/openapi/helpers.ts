// Shared helpers of the OpenAPI tests: the fixture documents, the servers that serve their APIs, and a CLI runner.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packagePath } from '../../src/core/paths.js';
import { loadOpenApi, OpenApiError } from '../../src/openapi/load.js';
import type { ExampleApiOptions } from '../../src/example-api/index.js';
import { startExampleFixture, type FixtureServer } from '../../src/testing/fixture-server.js';
import { runCli, type CliRun } from '../../src/testing/cli-runner.js';
import { FakeClock } from '../../src/testing/fake-clock.js';

/** Absolute path of a fixture under test/fixtures/openapi/. */
export function fixture(...parts: string[]): string {
  return packagePath('test', 'fixtures', 'openapi', ...parts);
}

/** The `pets` collection the pet store document describes, served by the example API. */
export const PETS_API: ExampleApiOptions = {
  resources: [
    {
      name: 'pets',
      ids: 'int',
      fields: {
        name: { type: 'string', required: true, min: 1 },
        tag: { type: 'string' },
        age: { type: 'integer', min: 0 },
      },
      seed: [{ name: 'Fido', tag: 'dog', age: 4 }],
    },
  ],
  variant: { listStyle: 'paged' },
};

/** Each fixture document, the example API options that serve what it describes, and what to expect. */
export interface DocumentCase {
  name: string;
  file: string;
  api: ExampleApiOptions;
  /** `base`: the server's base URL (origin + /v1); `origin`: for documents whose paths carry /v1. */
  baseUrl: 'base' | 'origin';
  resources: string[];
  notProbed: string[];
}

export const DOCUMENTS: DocumentCase[] = [
  {
    name: 'OpenAPI 3.0 with $refs across files (pet store)',
    file: fixture('petstore-30-refs', 'openapi.yaml'),
    api: PETS_API,
    baseUrl: 'base',
    resources: ['pets'],
    notProbed: ['/pets/{petId}/photos', '/health'],
  },
  {
    name: 'OpenAPI 3.1 with named examples',
    file: fixture('widgets-31.yaml'),
    api: {},
    baseUrl: 'base',
    resources: ['widgets', 'orders'],
    notProbed: [],
  },
  {
    name: 'Swagger 2.0 (JSON)',
    file: fixture('widgets-swagger2.json'),
    api: {},
    baseUrl: 'base',
    resources: ['widgets', 'orders'],
    notProbed: [],
  },
  {
    name: 'OpenAPI 3.0 with examples and enveloped items',
    file: fixture('with-examples.yaml'),
    api: { variant: { itemStyle: 'envelope-data', listStyle: 'envelope-items' } },
    baseUrl: 'base',
    resources: ['widgets'],
    notProbed: [],
  },
  {
    name: 'OpenAPI 3.0 without examples, versioned paths',
    file: fixture('without-examples.yaml'),
    api: {},
    baseUrl: 'origin',
    resources: ['widgets', 'orders'],
    notProbed: [],
  },
];

/** Only the tokens, as "with only tokens in the environment" means. */
export function tokenEnv(server: FixtureServer): NodeJS.ProcessEnv {
  return { CONFORMANCE_TOKEN: server.tokens.full, CONFORMANCE_LIMITED_TOKEN: server.tokens.limited };
}

/**
 * Starts the example API for `doc`, on `clock` when given: a `FakeClock` given to the audit too
 * (`cli`), so that the rate-limit checks' wait for the API's Retry-After (over a second of real
 * time per audit, the CPU idle) takes none, while the API's limiter sees that time pass.
 */
export async function startFor(
  doc: DocumentCase,
  clock?: FakeClock,
): Promise<{ server: FixtureServer; baseUrl: string }> {
  const server = await startExampleFixture(clock ? { ...doc.api, now: clock.now } : doc.api);
  return { server, baseUrl: doc.baseUrl === 'origin' ? server.origin : server.baseUrl };
}

export type { CliRun };

/** Runs the CLI in-process with exactly this environment (and the audit on `clock`, when given). */
export function cli(args: string[], env: NodeJS.ProcessEnv = {}, clock?: FakeClock): Promise<CliRun> {
  return runCli(args, { env, ...(clock ? { clock } : {}) });
}

/** A fresh temp folder. */
export function tempFolder(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'conformance-openapi-'));
}

export interface ReportResult {
  checkId: string;
  resource?: string;
  status: string;
  rules: string[];
  message?: string;
}

/** The JSON report a run wrote to `out`. */
export async function readReport(
  out: string,
): Promise<{ results: ReportResult[]; notProbed?: Array<{ path: string; reason: string }> }> {
  return JSON.parse(await readFile(join(out, 'conformance.json'), 'utf8'));
}

/** The problem lines of a document that must not load (fails the test when it loads). */
export async function openApiProblems(
  source: string,
  options: Parameters<typeof loadOpenApi>[1] = {},
): Promise<string[]> {
  try {
    await loadOpenApi(source, options);
  } catch (error) {
    if (error instanceof OpenApiError) return error.problems;
    throw error;
  }
  throw new Error('expected an OpenApiError, but the document loaded');
}
