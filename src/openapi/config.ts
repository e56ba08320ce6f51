// The OpenAPI step of config loading: load the document, derive, merge into the config data, default the tokens.
import type { Problem } from '../config/problems.js';
import { pathKey } from '../config/problems.js';
import { deriveConfig, type NotProbed } from './import.js';
import { loadOpenApi } from './load.js';
import { mergeDerived } from './merge.js';

/** Environment variables the tokens come from when the config does not set `auth`. */
export const DEFAULT_TOKEN_ENV = {
  token: 'CONFORMANCE_TOKEN',
  limitedToken: 'CONFORMANCE_LIMITED_TOKEN',
} as const;

/** What the OpenAPI step adds to a config beyond the config file's own keys. */
export interface OpenApiFindings {
  /** The document as the user named it. */
  source: string;
  notProbed: NotProbed[];
  /** Things the user should know (unsupported security, parser warnings...). */
  notes: string[];
}

export interface ApplyOptions {
  /** Where a relative document path is looked up. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `--base-url` was given (then a relative server URL is no problem). */
  baseUrlGiven: boolean;
}

/**
 * Loads the document, merges what it declares into `data` (the config wins), and, when the
 * config has no `auth`, takes the tokens from CONFORMANCE_TOKEN / CONFORMANCE_LIMITED_TOKEN
 * (recording the variables in `fromEnv`, so curl lines name them). Throws OpenApiError when the
 * document cannot be used; pushes config problems it finds to `problems`.
 */
export async function applyOpenApi(
  data: Record<string, unknown>,
  source: string,
  shown: string,
  options: ApplyOptions,
  fromEnv: Map<string, string>,
  problems: Problem[],
): Promise<{ data: Record<string, unknown>; findings: OpenApiFindings }> {
  const loaded = await loadOpenApi(source, { cwd: options.cwd });
  const derived = deriveConfig(loaded.document, loaded.url ? { documentUrl: loaded.url } : {});
  const merged = mergeDerived(data, derived);
  if (merged.baseUrl === undefined && !options.baseUrlGiven && 'problem' in derived.baseUrl) {
    problems.push({ path: [], message: derived.baseUrl.problem, source: shown });
  }
  if (Array.isArray(merged.resources) && merged.resources.length === 0) {
    const paths = derived.notProbed.map((n) => n.path).slice(0, 5);
    problems.push({
      path: [],
      source: shown,
      message: `no resource to audit: the document has no collection/item path pair such as /things and /things/{id}${
        paths.length > 0 ? ` (its paths: ${paths.join(', ')})` : ''
      }`,
    });
  }
  if (merged.auth === undefined) {
    const auth: Record<string, string> = {};
    for (const [field, variable] of Object.entries(DEFAULT_TOKEN_ENV)) {
      const value = options.env[variable];
      if (value === undefined || value === '') continue;
      auth[field] = value;
      fromEnv.set(pathKey(['auth', field]), variable);
    }
    merged.auth = auth;
  }
  return {
    data: merged,
    findings: {
      source: shown,
      notProbed: derived.notProbed,
      notes: [...loaded.warnings, ...derived.notes.map((note) => `${shown}: ${note}`)],
    },
  };
}
