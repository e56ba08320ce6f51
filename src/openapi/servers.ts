// The base URL (3.x servers, 2.0 host/basePath/schemes) and the security scheme a document declares.
import { isObject } from '../core/shapes.js';
import { normaliseBaseUrl } from '../config/build.js';
import {
  asObjects,
  asStrings,
  operationOf,
  pathItems,
  PATH_METHODS,
  type Json,
  type SpecVersion,
} from './document.js';

/** The base URL, or why none could be derived (then `--base-url` or `baseUrl` must give it). */
export type DerivedBaseUrl = { baseUrl: string } | { problem: string };

/**
 * The document's base URL: the first server (variables replaced by their defaults) for 3.x,
 * `schemes://host/basePath` for 2.0. Relative URLs resolve against the document's own URL
 * when it was fetched; from a file they cannot be resolved.
 */
export function derivedBaseUrl(doc: Json, version: SpecVersion, documentUrl?: string): DerivedBaseUrl {
  let url: string;
  if (version === '2.0') {
    const schemes = asStrings(doc.schemes);
    const docScheme = documentUrl ? new URL(documentUrl).protocol.replace(':', '') : undefined;
    const scheme = schemes.includes('https') ? 'https' : (schemes[0] ?? docScheme ?? 'https');
    const basePath = typeof doc.basePath === 'string' ? doc.basePath : '/';
    if (typeof doc.host === 'string' && doc.host !== '') url = `${scheme}://${doc.host}${basePath}`;
    else url = basePath;
  } else {
    const server = asObjects(doc.servers)[0];
    url = typeof server?.url === 'string' ? withVariables(server.url, server.variables) : '/';
  }
  if (!/^https?:\/\//i.test(url)) {
    if (!documentUrl) {
      const what =
        version === '2.0'
          ? `"host" is not set (basePath ${JSON.stringify(url)})`
          : `server URL ${JSON.stringify(url)} is relative`;
      return { problem: `the OpenAPI document's ${what}: pass --base-url (or set baseUrl in the config)` };
    }
    url = new URL(url, documentUrl).href;
  }
  const checked = normaliseBaseUrl(url);
  if ('problem' in checked) return { problem: `the OpenAPI document's server URL ${checked.problem}` };
  return { baseUrl: checked.url };
}

/** `{name}` placeholders replaced by each variable's default (or first enum value). */
function withVariables(url: string, variables: unknown): string {
  const vars = isObject(variables) ? variables : {};
  return url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const variable = vars[name];
    if (!isObject(variable)) return whole;
    if (variable.default !== undefined) return String(variable.default);
    const options = asStrings(variable.enum);
    return options[0] ?? whole;
  });
}

/** How the document says clients authenticate, as far as the audit cares. */
export interface DerivedSecurity {
  /**
   * `bearer`: some scheme sends `Authorization: Bearer` (http bearer, OAuth 2, OpenID Connect, or
   * an API key in the Authorization header); `none`: no security declared; `unsupported`: only
   * schemes the audit cannot speak (basic, API keys in other headers, query or cookies).
   */
  kind: 'bearer' | 'none' | 'unsupported';
  notes: string[];
}

/** Reads the security requirements in force (top level and per operation) and their schemes. */
export function derivedSecurity(doc: Json, version: SpecVersion): DerivedSecurity {
  const definitions =
    version === '2.0' ? doc.securityDefinitions : (doc.components as Json | undefined)?.securitySchemes;
  const schemes = isObject(definitions) ? definitions : {};
  const used = new Set<string>();
  const addAll = (requirements: unknown): void => {
    for (const requirement of asObjects(requirements))
      for (const name of Object.keys(requirement)) used.add(name);
  };
  addAll(doc.security);
  for (const [, item] of pathItems(doc)) {
    for (const method of PATH_METHODS) addAll(operationOf(item, method)?.security);
  }
  if (used.size === 0) return { kind: 'none', notes: [] };
  const unsupported: string[] = [];
  let bearer = false;
  for (const name of used) {
    const scheme = schemes[name];
    if (!isObject(scheme)) continue;
    const type = String(scheme.type);
    const inHeader = scheme.in === 'header' && String(scheme.name).toLowerCase() === 'authorization';
    if (
      (type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer') ||
      type === 'oauth2' ||
      type === 'openIdConnect' ||
      (type === 'apiKey' && inHeader)
    ) {
      bearer = true;
    } else unsupported.push(`"${name}" (${describeScheme(scheme)})`);
  }
  if (bearer) return { kind: 'bearer', notes: [] };
  return {
    kind: 'unsupported',
    notes: [
      `security scheme ${unsupported.join(', ')} is not supported: the audit authenticates with ` +
        `"Authorization: Bearer <token>" only, so requests the service refuses for lack of its own ` +
        `credential will fail their checks (limit the run with --only, or put a Bearer-accepting gateway in front)`,
    ],
  };
}

function describeScheme(scheme: Json): string {
  if (scheme.type === 'apiKey') return `API key in ${String(scheme.in)} "${String(scheme.name)}"`;
  if (scheme.type === 'http' || scheme.type === 'basic') return `HTTP ${String(scheme.scheme ?? 'basic')}`;
  return String(scheme.type);
}
