// The OpenAPI step of config loading: load the document, derive, merge into the config data, default the tokens.
import type { DocumentStepInput, DocumentStepOutput } from '../config/load.js';
import { pathKey } from '../config/problems.js';
import { deriveConfig } from './import.js';
import { loadOpenApi } from './load.js';
import { mergeDerived } from './merge.js';

/** Environment variables the tokens come from when the config does not set `auth`. */
export const DEFAULT_TOKEN_ENV = {
  token: 'CONFORMANCE_TOKEN',
  limitedToken: 'CONFORMANCE_LIMITED_TOKEN',
} as const;

/** How documents are read (see `loadOpenApi`). */
export interface OpenApiStepOptions {
  /** `--openapi-allow-ref`: folders a local document's `$ref`s may read beside its own. */
  allowRefs?: string[];
  /** Deadline of each request fetching a document or a file it names (`--timeout`). */
  timeoutMs?: number;
  /** `--insecure`: no certificate verification when fetching the document either. */
  insecure?: boolean;
}

/**
 * Loads the document, merges what it declares into the config data (the config wins), and, when
 * the config has no `auth`, takes the tokens from CONFORMANCE_TOKEN / CONFORMANCE_LIMITED_TOKEN
 * (recording the variables in `fromEnv`, so curl lines name them; one set but empty is a problem). Throws OpenApiError when the
 * document cannot be used; pushes config problems it finds to `problems`.
 */
export async function applyOpenApi(
  input: DocumentStepInput,
  options: OpenApiStepOptions = {},
): Promise<DocumentStepOutput> {
  const { source, problems } = input;
  const loaded = await loadOpenApi(source, {
    cwd: input.cwd,
    allowRefs: options.allowRefs ?? [],
    // The config's tls section and the environment's proxies, as for the audit's own requests.
    network: {
      tls: options.insecure ? { ...input.tls, insecure: true } : input.tls,
      env: input.env,
    },
    ...(options.timeoutMs === undefined ? {} : { limits: { timeoutMs: options.timeoutMs } }),
  });
  const derived = deriveConfig(loaded.document, loaded.url ? { documentUrl: loaded.url } : {});
  const merged = mergeDerived(input.data, derived);
  if (merged.baseUrl === undefined && !input.baseUrlGiven && 'problem' in derived.baseUrl) {
    problems.push({ path: [], message: derived.baseUrl.problem, source });
  }
  if (Array.isArray(merged.resources) && merged.resources.length === 0) {
    const paths = derived.notProbed.map((n) => n.path).slice(0, 5);
    problems.push({
      path: [],
      source,
      message: `no resource to audit: the document has no collection/item path pair such as /things and /things/{id}${
        paths.length > 0 ? ` (its paths: ${paths.join(', ')})` : ''
      }`,
    });
  }
  if (merged.auth === undefined) {
    const auth: Record<string, string> = {};
    for (const [field, variable] of Object.entries(DEFAULT_TOKEN_ENV)) {
      const value = input.env[variable];
      if (value === undefined) continue;
      if (value === '') {
        // Set but empty is what CI gives for a secret that is not defined, not a choice.
        problems.push({
          path: ['auth', field],
          message: `environment variable ${variable} is empty (as CI sets a secret that is not defined): give it a token, or unset it to audit without ${field === 'token' ? 'credentials' : 'the limited token'}`,
          kind: 'env',
        });
        continue;
      }
      auth[field] = value;
      input.fromEnv.set(pathKey(['auth', field]), variable);
    }
    merged.auth = auth;
  }
  return {
    data: merged,
    notProbed: derived.notProbed,
    notes: [...loaded.warnings, ...derived.notes.map((note) => `${source}: ${note}`)],
  };
}
