// A commented starter config (YAML) for `conformance init`, from derived resources or from probing a live API.
import { Document, isMap, isScalar, isSeq, type Pair, type YAMLMap } from 'yaml';
import { isObject } from '../core/shapes.js';
import { authTemplate, DEFAULT_BASIC_ENV, DEFAULT_TOKEN_ENV } from './config.js';
import type { MissingParam } from './requests.js';
import type { DerivedSecurity } from './security.js';
import type { DerivedConfig, DerivedResource, NotProbed } from './import.js';

/** One resource of a starter config, with the comments that explain where its values came from. */
export interface StarterResource extends Pick<
  DerivedResource,
  | 'name'
  | 'path'
  | 'item'
  | 'createdIdFrom'
  | 'idField'
  | 'operations'
  | 'sample'
  | 'replace'
  | 'update'
  | 'invalid'
  | 'idempotencyKey'
  | 'headers'
  | 'query'
  | 'requests'
> {
  /** Comment lines above the resource. */
  about: string[];
  /** A comment line above one of its keys. */
  keyComments?: Partial<
    Record<'item' | 'operations' | 'idField' | 'sample' | 'replace' | 'update' | 'invalid', string>
  >;
}

export interface Starter {
  /** Comment lines at the top (what wrote it, from what). */
  header: string[];
  /** Where config/schema.json is, for the `yaml-language-server: $schema=` comment (editors). */
  schema?: string;
  baseUrl?: string;
  /** Comment above `baseUrl` (or in its place when there is none). */
  baseUrlComment?: string;
  /** `openapi:` to write (a path relative to the config, or a URL). */
  openapi?: string;
  idempotencyHeader?: string;
  /** The `auth` section, values as `${VAR}` placeholders (default: the bearer tokens' variables). */
  auth?: Record<string, unknown>;
  /** Comment above `auth` (default: where the bearer tokens come from). */
  authComment?: string;
  /** Headers and query parameters of every request. */
  headers?: Record<string, string>;
  query?: Record<string, string>;
  /** Required parameters without a value: written as `${VARIABLE}` placeholders to fill. */
  placeholders?: MissingParam[];
  resources: StarterResource[];
  notProbed?: NotProbed[];
}

const ORDER = [
  'name',
  'path',
  'item',
  'createdIdFrom',
  'idField',
  'operations',
  'sample',
  'replace',
  'update',
  'invalid',
  'idempotencyKey',
  'headers',
  'query',
  'requests',
];

/** Renders a starter config. Every string value has `${` escaped, so loading it reads back the same data. */
export function renderStarter(starter: Starter): string {
  const data: Record<string, unknown> = {};
  if (starter.baseUrl !== undefined) data.baseUrl = starter.baseUrl;
  if (starter.openapi !== undefined) data.openapi = escape(starter.openapi);
  // Placeholders only: a starter never holds a credential.
  data.auth = starter.auth ?? {
    token: `\${${DEFAULT_TOKEN_ENV.token}}`,
    limitedToken: `\${${DEFAULT_TOKEN_ENV.limitedToken}:-}`,
  };
  if (starter.headers !== undefined) data.headers = escape(starter.headers);
  if (starter.query !== undefined) data.query = escape(starter.query);
  if (starter.idempotencyHeader !== undefined) data.idempotency = { header: starter.idempotencyHeader };
  data.resources = starter.resources.map((r) => {
    const entry: Record<string, unknown> = {};
    for (const key of ORDER) {
      const value = (r as unknown as Record<string, unknown>)[key];
      if (value !== undefined)
        entry[key] = key === 'name' || key === 'path' || key === 'idField' ? value : escape(value);
    }
    return entry;
  });
  for (const p of starter.placeholders ?? []) placeholder(data, p);

  const doc = new Document(data);
  const header = starter.schema
    ? [`yaml-language-server: $schema=${starter.schema}`, ...starter.header]
    : starter.header;
  doc.commentBefore = header.map((line) => ` ${line}`.trimEnd()).join('\n');
  const root = doc.contents as YAMLMap;
  const pairOf = (map: YAMLMap, key: string): Pair | undefined =>
    map.items.find((p) => isScalar(p.key) && p.key.value === key) as Pair | undefined;
  /** Adds comment lines above a key (after any already there). */
  const commentOn = (pair: Pair | undefined, text: string | undefined): void => {
    if (!pair || !text || !isScalar(pair.key)) return;
    const lines = text.split('\n').map((l) => ` ${l}`.trimEnd());
    pair.key.commentBefore = [pair.key.commentBefore, ...lines].filter((l) => l !== undefined).join('\n');
  };
  // Without a baseUrl, the comment says what to write in its place, above the first key.
  commentOn(pairOf(root, 'baseUrl') ?? (root.items[0] as Pair), starter.baseUrlComment);
  commentOn(
    pairOf(root, 'openapi'),
    'Item schemas (DOC-SCHEMA), and resources not listed below, come from this document.',
  );
  commentOn(pairOf(root, 'auth'), starter.authComment ?? tokenComment('"Authorization: Bearer ..."'));
  const topMissing = (starter.placeholders ?? []).filter((p) => p.resource === undefined);
  for (const map of ['headers', 'query'] as const)
    commentOn(
      pairOf(root, map),
      missingComment(topMissing.filter((p) => (p.in === 'header') === (map === 'headers'))),
    );
  const list = pairOf(root, 'resources')?.value;
  if (isSeq(list)) {
    list.items.forEach((node, index) => {
      if (!isMap(node)) return;
      const r = starter.resources[index];
      node.commentBefore = r.about.map((line) => ` ${line}`.trimEnd()).join('\n');
      for (const pair of node.items as Pair[]) {
        const key = isScalar(pair.key) ? String(pair.key.value) : '';
        commentOn(pair, r.keyComments?.[key as keyof NonNullable<StarterResource['keyComments']>]);
        if (key === 'operations' && isSeq(pair.value)) pair.value.flow = true;
        if (['sample', 'replace', 'update'].includes(key) && isMap(pair.value)) pair.value.flow = true;
        if (key === 'invalid' && isSeq(pair.value))
          for (const item of pair.value.items) if (isMap(item) || isSeq(item)) item.flow = true;
      }
      node.comment =
        ' forbidden: [create, replace, update, delete]  # what the limited token may not do (403 probes)';
    });
  }
  if (starter.notProbed && starter.notProbed.length > 0) {
    doc.comment = [
      ' Paths of the document that are not probed:',
      ...starter.notProbed.map((n) => `   ${n.path}: ${n.reason}`),
    ].join('\n');
  }
  return doc.toString({ lineWidth: 110 });
}

/** Where the tokens come from, for the comment above `auth`. */
function tokenComment(sentAs: string): string {
  return (
    `Tokens come from the environment: ${DEFAULT_TOKEN_ENV.token} (full access, sent as ${sentAs})\n` +
    `and, optionally, ${DEFAULT_TOKEN_ENV.limitedToken} (valid but lacks some permissions: enables the 403 probes).`
  );
}

/** The comment above `auth` for the document's security scheme. */
function authComment(security: DerivedSecurity): string {
  const from = security.scheme ? `\nFrom the document's security scheme "${security.scheme}".` : '';
  const p = security.placement;
  if (p.basic) {
    const { username, password } = DEFAULT_BASIC_ENV.basic;
    return (
      `HTTP Basic credentials come from the environment: ${username} and ${password} (full access).\n` +
      `For the 403 probes add limitedBasic with a user that lacks some permissions.${from}`
    );
  }
  const sentAs = p.query
    ? `the query parameter ${p.query}`
    : p.cookie
      ? `the cookie ${p.cookie}`
      : `"${p.header ?? 'Authorization'}: ${p.prefix ?? (p.header ? '' : 'Bearer')}${p.prefix || !p.header ? ' ' : ''}..."`;
  return `${tokenComment(sentAs)}${from}`;
}

/** Comment lines for required parameters written as placeholders. */
function missingComment(missing: MissingParam[]): string | undefined {
  if (missing.length === 0) return undefined;
  return missing
    .map(
      (p) =>
        `${p.name} is required by the document, which gives no value for it: set ${p.variable} or write the value here.`,
    )
    .join('\n');
}

/** Writes `${VARIABLE}` (unescaped: it is meant to be read from the environment) where a required parameter goes. */
function placeholder(data: Record<string, unknown>, p: MissingParam): void {
  let node: Record<string, unknown> | undefined = data;
  if (p.resource !== undefined) {
    const list = Array.isArray(data.resources) ? (data.resources as Array<Record<string, unknown>>) : [];
    node = list.find((r) => r.name === p.resource);
  }
  for (const key of p.key.split('.')) {
    if (!node) return;
    node[key] ??= {};
    node = node[key] as Record<string, unknown>;
  }
  if (node) node[p.name] = `\${${p.variable}}`;
}

/** `${` in every string of a JSON value written as `$${`, which config loading reads back as `${`. */
function escape(value: unknown): unknown {
  if (typeof value === 'string') return value.split('${').join('$${');
  if (Array.isArray(value)) return value.map(escape);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escape(v)]));
  return value;
}

/** A starter from what a document declares: every derived resource, with where its payloads came from. */
export function starterFromDerived(
  derived: DerivedConfig,
  options: { document: string; openapi: string; baseUrl?: string },
): Starter {
  const described = derived.title ? `"${derived.title}", ${version(derived)}` : version(derived);
  const derivedUrl = 'baseUrl' in derived.baseUrl ? derived.baseUrl.baseUrl : undefined;
  const baseUrl = options.baseUrl ?? derivedUrl;
  const origin = {
    example: "the document's example",
    generated: 'generated from the schema',
    varied: 'the sample with its values changed',
  };
  return {
    header: [
      `Starter config for the conformance auditor, written by \`conformance init\` from ${options.document}`,
      `(${described}). Review it: every value was derived and can be changed; what this file sets wins`,
      'over the document, field by field.',
      'Run it with: conformance run --config <this file>',
    ],
    ...(baseUrl ? { baseUrl } : {}),
    baseUrlComment: baseUrl
      ? options.baseUrl
        ? 'Given to init with --base-url; --base-url on `run` wins over it.'
        : "From the document's server URL; --base-url on `run` wins over it."
      : `baseUrl: https://... ${'problem' in derived.baseUrl ? `(${derived.baseUrl.problem})` : ''}`,
    openapi: options.openapi,
    ...(derived.idempotencyHeader ? { idempotencyHeader: derived.idempotencyHeader } : {}),
    auth: authTemplate(derived.security),
    authComment: authComment(derived.security),
    ...(derived.headers ? { headers: derived.headers } : {}),
    ...(derived.query ? { query: derived.query } : {}),
    ...(derived.missing.length > 0 ? { placeholders: derived.missing } : {}),
    resources: derived.resources.map((r) => ({
      name: r.name,
      path: r.path,
      ...(r.item ? { item: r.item } : {}),
      ...(r.createdIdFrom ? { createdIdFrom: r.createdIdFrom } : {}),
      ...(r.idField ? { idField: r.idField } : {}),
      operations: r.operations,
      ...(r.sample ? { sample: r.sample } : {}),
      ...(r.replace ? { replace: r.replace } : {}),
      ...(r.update ? { update: r.update } : {}),
      ...(r.invalid && r.invalid.length > 0 ? { invalid: r.invalid } : {}),
      ...(r.idempotencyKey ? { idempotencyKey: true } : {}),
      ...(r.headers ? { headers: r.headers } : {}),
      ...(r.query ? { query: r.query } : {}),
      ...(r.requests ? { requests: r.requests } : {}),
      about: [
        `${r.name}: ${r.path} and ${r.itemPath}`,
        ...r.notes.map((n) => `note: ${n}`),
        ...derived.missing
          .filter((p) => p.resource === r.name)
          .map(
            (p) =>
              `${p.key}.${p.name} is required by the document, which gives no value for it: set ${p.variable} or write the value there.`,
          ),
      ],
      keyComments: {
        ...(r.item
          ? {
              item: r.item.includes('?')
                ? 'Items are addressed by the query filter the document declares.'
                : 'The item URL as the document declares it (its trailing slash kept).',
            }
          : {}),
        ...(r.origin.sample ? { sample: `Valid POST body: ${origin[r.origin.sample]}.` } : {}),
        ...(r.origin.replace ? { replace: `Valid PUT body: ${origin[r.origin.replace]}.` } : {}),
        ...(r.origin.update ? { update: `Valid PATCH body: ${origin[r.origin.update]}.` } : {}),
        ...(r.invalid && r.invalid.length > 0
          ? {
              invalid:
                'Bodies that must be answered 400, from the schema: a required field missing, a wrong type.',
            }
          : {}),
      },
    })),
    notProbed: derived.notProbed,
  };
}

function version(derived: DerivedConfig): string {
  return derived.version === '2.0' ? 'Swagger 2.0' : `OpenAPI ${derived.version}`;
}
