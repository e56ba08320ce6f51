// `conformance init`: a commented starter config from an OpenAPI document, or from reading a live API (GET/OPTIONS only).
import { existsSync } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { ConformanceError, UnreachableError } from '../core/errors.js';
import type { Operation } from '../core/types.js';
import { packageName, toolVersion } from '../core/paths.js';
import { idOf, isObject, unwrapItemLoose, unwrapList, VOLATILE_FIELDS } from '../core/shapes.js';
import { normaliseBaseUrl } from '../config/build.js';
import { validateAgainstSchema } from '../config/validate.js';
import type { NetworkOptions } from '../http/dispatchers.js';
import { HttpClient } from '../http/client.js';
import { DEFAULT_TOKEN_ENV } from '../openapi/config.js';
import { deriveConfig } from '../openapi/import.js';
import { loadOpenApi, OpenApiError } from '../openapi/load.js';
import { renderStarter, starterFromDerived, type Starter, type StarterResource } from '../openapi/starter.js';
import { checkTimeout, refuseRepeated } from './args.js';
import type { Io } from './audit.js';
import { discover, type Discovery } from './discover.js';
import { allowed, itemShape, servedPath } from './init-shapes.js';
export { INIT_DESCRIPTION, initOptions } from './command-options.js';

export interface InitArgs {
  openapi?: string;
  'openapi-allow-ref'?: string[];
  'base-url'?: string;
  collections: string[];
  out: string;
  print: boolean;
  force: boolean;
  timeout: number;
  /** `--insecure`: no TLS certificate verification. */
  insecure?: boolean;
}

/** Writes the starter config; returns the exit code (problems are thrown as ConformanceError: exit 2). */
export async function runInit(args: InitArgs, io: Io, cwd = process.cwd()): Promise<number> {
  refuseRepeated(args as unknown as Record<string, unknown>, ['collections', 'openapi-allow-ref']);
  const collections = args.collections
    .flatMap((c) => String(c).split(','))
    .map((c) => c.trim())
    .filter(Boolean);
  if (args.openapi === undefined && args['base-url'] === undefined) {
    throw new ConformanceError(
      'E_ARGS',
      'init needs --openapi <file|url>, or --base-url <url> (its OpenAPI document or collections are then found, or name them with --collections <names>)',
    );
  }
  if (args.openapi !== undefined && collections.length > 0) {
    throw new ConformanceError(
      'E_ARGS',
      '--collections reads a live API: with --openapi the document names the resources',
    );
  }
  checkTimeout(args.timeout);
  let baseUrl: string | undefined;
  if (args['base-url'] !== undefined) {
    const checked = normaliseBaseUrl(args['base-url']);
    if ('problem' in checked) throw new ConformanceError('E_ARGS', `--base-url ${checked.problem}`);
    baseUrl = checked.url;
  }
  const toStdout = args.print || args.out === '-';
  const target = resolve(cwd, args.out);
  const fromDir = toStdout ? cwd : dirname(target);
  // Before anything is read or fetched: a starter that cannot be written is known now.
  if (!toStdout) await checkTarget(target, args);

  let starter: Starter;
  const notes: string[] = [];
  let openapi = args.openapi;
  let discovered = false;
  if (openapi === undefined && collections.length === 0) {
    // Neither named: the API's own OpenAPI document, else the collections its base URL links to.
    const found = await discoverApi(baseUrl!, network(args, io), args.timeout);
    if (found.kind === 'none') {
      throw new ConformanceError(
        'E_ARGS',
        `found no OpenAPI document (tried ${found.tried.join(', ')}) and no links to collections in the answer of GET ${found.base}: name the collections with --collections <names> (e.g. --collections widgets,orders), or pass --openapi <file|url>`,
      );
    }
    if (found.kind === 'openapi') {
      openapi = found.url;
      notes.push(
        `found an OpenAPI document at ${found.url}: the config is derived from it (--collections reads collections instead)`,
      );
    } else {
      collections.push(...found.collections);
      discovered = true;
      notes.push(
        `GET ${baseUrl} links to ${found.collections.join(', ')}: read as collections (--collections names them instead)`,
      );
    }
  }
  if (openapi !== undefined) {
    const loaded = await loadOpenApi(openapi, {
      cwd,
      allowRefs: (args['openapi-allow-ref'] ?? []).map(String),
      limits: { timeoutMs: args.timeout },
      network: network(args, io),
      // CONFORMANCE_TOKEN goes to a document on the base URL's origin only (as discovery sent it).
      ...(baseUrl && io.env[DEFAULT_TOKEN_ENV.token]
        ? {
            credentials: {
              origin: new URL(baseUrl).origin,
              token: io.env[DEFAULT_TOKEN_ENV.token]!,
              secrets: [{ value: io.env[DEFAULT_TOKEN_ENV.token]!, envVar: DEFAULT_TOKEN_ENV.token }],
              shown: DEFAULT_TOKEN_ENV.token,
            },
          }
        : {}),
    });
    const derived = deriveConfig(loaded.document, loaded.url ? { documentUrl: loaded.url } : {});
    if (derived.resources.length === 0) {
      throw new OpenApiError([
        `${openapi}: no resource to write: the document has no collection/item path pair such as /things and /things/{id}, and no collection whose GET declares a query parameter naming an item's id (/things?id=eq.{id})`,
      ]);
    }
    const document = loaded.url ?? resolve(cwd, openapi);
    const ref = loaded.url ?? relativeRef(fromDir, document);
    starter = starterFromDerived(derived, {
      document: openapi,
      openapi: ref,
      ...(baseUrl ? { baseUrl } : {}),
    });
    notes.push(...loaded.warnings, ...derived.notes.map((n) => `${openapi}: ${n}`));
  } else {
    const probed = await probeStarter(baseUrl!, collections, network(args, io), args.timeout, discovered);
    starter = probed.starter;
    notes.push(...probed.notes);
  }
  const schema = schemaLocation(fromDir);
  starter.schema = schema.ref;

  const text = renderStarter(starter);
  // The starter must load as written: a problem here is a bug of ours, said plainly.
  const problems = validateAgainstSchema(parse(text));
  if (problems.length > 0) {
    throw new ConformanceError('E_INTERNAL', `init wrote an invalid config: ${problems[0].message}`);
  }
  for (const note of notes) io.stderr.write(`conformance: note: ${note}\n`);
  if (toStdout) {
    io.stdout.write(text);
    return 0;
  }
  try {
    await writeFile(target, text, { flag: args.force ? 'w' : 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      throw new ConformanceError(
        'E_ARGS',
        `${args.out} already exists: pass --force to overwrite it, or --out <another file>`,
      );
    }
    throw new ConformanceError('E_ARGS', `cannot write ${args.out}: ${code ?? (error as Error).message}`);
  }
  const names = starter.resources.map((r) => r.name);
  io.stdout.write(
    `Wrote ${args.out}: ${names.length} resource${names.length === 1 ? '' : 's'} (${names.join(', ')}). Review it, then:\n` +
      `  export ${DEFAULT_TOKEN_ENV.token}=...          # and ${DEFAULT_TOKEN_ENV.limitedToken} for the 403 probes\n` +
      `  conformance run --config ${args.out}${starter.baseUrl ? '' : ' --base-url <url>'}\n` +
      (schema.installed ? '' : `${schema.note}\n`),
  );
  return 0;
}

/** --out can be written: its folder exists, and it is not there yet (or --force) and not a folder. */
async function checkTarget(target: string, args: InitArgs): Promise<void> {
  const present = await stat(target).catch(() => undefined);
  if (present?.isDirectory())
    throw new ConformanceError('E_ARGS', `--out ${args.out}: is a folder, not a file`);
  if (present && !args.force) {
    throw new ConformanceError(
      'E_ARGS',
      `${args.out} already exists: pass --force to overwrite it, or --out <another file>`,
    );
  }
  const folder = await stat(dirname(target)).catch(() => undefined);
  if (!folder?.isDirectory())
    throw new ConformanceError('E_ARGS', `--out ${args.out}: its folder ${dirname(target)} does not exist`);
}

/** `./x.yaml`-style path from the config's folder to the document; absolute when it is not below it. */
function relativeRef(fromDir: string, file: string): string {
  // Relative (also upwards with ../) so a committed config works in every checkout.
  const rel = relative(fromDir, file);
  if (rel === '' || isAbsolute(rel)) return file;
  return rel.startsWith('..') ? rel : `./${rel}`;
}

/** Where init's requests get their proxies (the environment) and TLS settings (`--insecure`). */
function network(args: InitArgs, io: Io): Required<Pick<NetworkOptions, 'env'>> & NetworkOptions {
  return { env: io.env, ...(args.insecure ? { tls: { insecure: true } } : {}) };
}

/** Reads each collection (and one item, and what OPTIONS allows) without changing anything. */
async function probeStarter(
  baseUrl: string,
  collections: string[],
  net: Required<Pick<NetworkOptions, 'env'>> & NetworkOptions,
  timeoutMs: number,
  discovered = false,
): Promise<{ starter: Starter; notes: string[] }> {
  const token = net.env[DEFAULT_TOKEN_ENV.token] || undefined;
  const client = new HttpClient({
    baseUrl,
    network: net,
    tokens: { full: token },
    secrets: token ? [{ value: token, envVar: DEFAULT_TOKEN_ENV.token }] : [],
    timeoutMs,
    userAgent: `conformance/${toolVersion()} init`,
  });
  const problems: string[] = [];
  const notes: string[] = [];
  const resources: StarterResource[] = [];
  try {
    for (const spec of collections) {
      const found = await probeCollection(client, spec, token !== undefined, problems, notes);
      if (found) resources.push(found);
    }
  } finally {
    await client.close();
  }
  // A link that is not a collection is no mistake of the user's: noted and left out.
  if (discovered && resources.length > 0) notes.push(...problems.map((p) => `left out: ${p}`));
  else if (discovered && problems.length > 0) {
    throw new ConformanceError('E_ARGS', problems[0], [
      ...problems,
      'none of the linked paths is a readable collection: name the collections with --collections <names>, or pass --openapi <file|url>',
    ]);
  } else if (problems.length > 0) throw new ConformanceError('E_ARGS', problems[0], problems);
  return {
    starter: {
      header: [
        `Starter config for the conformance auditor, written by \`conformance init\` from ${baseUrl}`,
        '(read with GET and OPTIONS only: nothing was written to the service). Review it: each sample',
        'is an existing item without its id and server-managed fields; operations are what the service',
        'said it allows. Add replace/update bodies whose values differ from the sample, and `invalid`',
        'bodies the service must answer with 400.',
        'Run it with: conformance run --config <this file>',
      ],
      baseUrl,
      baseUrlComment: '--base-url on `run` wins over it.',
      resources,
    },
    notes,
  };
}

/** Candidate id fields, most likely first (`<singular>Id` is added per collection). */
const ID_FIELDS = ['id', '_id', 'uuid', 'key', 'slug'];
/** Hypermedia fields a client never sends back. */
const LINK_FIELDS = ['_links', '_embedded', 'links'];

async function probeCollection(
  client: HttpClient,
  spec: string,
  hasToken: boolean,
  problems: string[],
  notes: string[],
): Promise<StarterResource | undefined> {
  // A trailing slash the user writes (or the service redirects to) is kept: Django routes only that.
  const asked = `/${spec.replace(/^\/+/, '').replace(/\/+$/, '/')}`;
  const name = asked.split('/').filter(Boolean).pop() ?? spec;
  const list = await client.send({ method: 'GET', path: asked });
  const path = servedPath(asked, list.url, client.baseUrl);
  if (list.status === undefined) {
    throw new UnreachableError(`cannot reach ${list.url}: ${list.error?.message ?? 'no answer'}`);
  }
  if (list.status === 401 || list.status === 403) {
    problems.push(
      `GET ${path} answered ${list.status}: ${hasToken ? `${DEFAULT_TOKEN_ENV.token} was refused` : `set ${DEFAULT_TOKEN_ENV.token} to a valid token`}`,
    );
    return undefined;
  }
  if (list.status !== 200) {
    problems.push(
      `GET ${path} answered ${list.status}, expected 200: is "${spec}" a collection at this base URL?`,
    );
    return undefined;
  }
  const items = unwrapList(list.json, name);
  if (!items) {
    problems.push(
      `GET ${path} answered no list (a JSON array, or one in an envelope such as {"data": [...]})`,
    );
    return undefined;
  }
  const first = items.find(isObject);
  const singular = name.replace(/s$/, '');
  const idField = first
    ? [...ID_FIELDS, `${singular}Id`, `${singular}_id`].find((f) => idOf(first, f) !== undefined)
    : undefined;
  const id = first && idField ? idOf(first, idField) : undefined;
  let item = first;
  let read = false;
  const shape = id !== undefined ? await itemShape(client, path, idField!, id) : { path };
  if (shape.json !== undefined) {
    read = true;
    const answer = Array.isArray(shape.json) ? shape.json[0] : shape.json;
    item = unwrapItemLoose(answer, idField!) ?? first;
  }
  const collectionAllow = await allowed(client, path);
  const itemAllow =
    id !== undefined
      ? await allowed(client, shape.readAt ?? `${path.replace(/\/+$/, '')}/${encodeURIComponent(id)}`)
      : undefined;
  const operations: Operation[] = [];
  const verified = collectionAllow !== undefined && itemAllow !== undefined;
  const has = (allow: string[] | undefined, method: string, fallback: boolean): boolean =>
    allow ? allow.includes(method) : fallback;
  if (has(collectionAllow, 'GET', true)) operations.push('list');
  if (has(itemAllow, 'GET', read || id === undefined)) operations.push('read');
  if (has(collectionAllow, 'POST', true)) operations.push('create');
  if (has(itemAllow, 'PUT', true)) operations.push('replace');
  if (has(itemAllow, 'PATCH', true)) operations.push('update');
  if (has(itemAllow, 'DELETE', true)) operations.push('delete');

  const sample = item ? withoutManaged(item, idField ?? 'id') : undefined;
  if (!first) notes.push(`${name}: the collection is empty: write a valid POST body as its sample`);
  else if (!idField)
    notes.push(`${name}: no id field found in its items (tried ${ID_FIELDS.join(', ')}): set idField`);
  return {
    name,
    path,
    ...(shape.item ? { item: shape.item } : {}),
    ...(idField && idField !== 'id' ? { idField } : {}),
    operations,
    ...(sample && Object.keys(sample).length > 0 ? { sample } : {}),
    about: [`${name}: read with GET ${path}${shape.readAt !== undefined ? ` and GET ${shape.readAt}` : ''}`],
    keyComments: {
      ...(shape.item
        ? {
            item: shape.item.includes('?')
              ? 'Items are read by this query filter (it answered a one-element array).'
              : 'The item URL as the service serves it (its trailing slash kept).',
          }
        : {}),
      operations: verified
        ? 'What OPTIONS said the service allows.'
        : 'Assumed (OPTIONS gave no Allow header): remove what the service does not support.',
      ...(sample
        ? { sample: 'Valid POST body: an existing item without its id and server-managed fields. Check it.' }
        : {}),
    },
  };
}

/** The item without its id, server-managed timestamps/versions, links and null fields. */
function withoutManaged(item: Record<string, unknown>, idField: string): Record<string, unknown> {
  const drop = new Set([idField, 'id', '_id', ...VOLATILE_FIELDS, ...LINK_FIELDS]);
  return Object.fromEntries(Object.entries(item).filter(([key, value]) => !drop.has(key) && value !== null));
}

/** The API's OpenAPI document or linked collections, read with GET only (see discover.ts). */
async function discoverApi(
  baseUrl: string,
  net: Required<Pick<NetworkOptions, 'env'>> & NetworkOptions,
  timeoutMs: number,
): Promise<Discovery> {
  const token = net.env[DEFAULT_TOKEN_ENV.token] || undefined;
  const client = new HttpClient({
    baseUrl,
    network: net,
    tokens: { full: token },
    secrets: token ? [{ value: token, envVar: DEFAULT_TOKEN_ENV.token }] : [],
    timeoutMs,
    userAgent: `conformance/${toolVersion()} init`,
  });
  try {
    return await discover(client, baseUrl);
  } finally {
    await client.close();
  }
}

/**
 * Where the config's `$schema` comment points, relative to its folder: this package's
 * config/schema.json in the nearest node_modules above it, or where `npm i -D <name>` will put it
 * (beside the nearest package.json), so editors find it from the user's repository.
 */
export function schemaLocation(configDir: string): { ref: string; installed: boolean; note: string } {
  const name = packageName();
  const inModules = (dir: string): string => join(dir, 'node_modules', name, 'config', 'schema.json');
  let project: string | undefined;
  for (let dir = configDir; ; dir = dirname(dir)) {
    if (existsSync(inModules(dir)))
      return { ref: relativeRef(configDir, inModules(dir)), installed: true, note: '' };
    project ??= existsSync(join(dir, 'package.json')) ? dir : undefined;
    if (dirname(dir) === dir) break;
  }
  const ref = relativeRef(configDir, inModules(project ?? configDir));
  return {
    ref,
    installed: false,
    note: `Editors: its $schema comment points at ${ref}; \`npm i -D ${name}\` puts the schema there, and editors with YAML support then complete and explain every key.`,
  };
}
