// The base URL a document declares: 3.x servers, 2.0 host/basePath/schemes.
import { isObject } from '../core/shapes.js';
import { normaliseBaseUrl } from '../config/build.js';
import { asObjects, asStrings, type Json, type SpecVersion } from './document.js';

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
