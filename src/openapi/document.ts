// Version-neutral reading of a dereferenced Swagger 2.0 / OpenAPI 3.x document: operations, bodies, examples.
import { isObject } from '../core/shapes.js';

/** A loosely typed JSON object: documents are validated by the parser, not by TypeScript. */
export type Json = Record<string, unknown>;

/** Which specification the document follows. */
export type SpecVersion = '2.0' | '3.0' | '3.1';

/** The HTTP methods the audit maps to operations, lower-case as in a path item. */
export const PATH_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** A request or response body: the JSON schema, and the examples written for it. */
export interface Body {
  /** The media type the body was read from (`application/json`, `*\/*+json`...). */
  mediaType: string;
  schema?: Json;
  /** Examples in the order the document gives them (media type first, then named ones). */
  examples: unknown[];
}

/**
 * A schema with a local `$ref` followed: dereferencing leaves circular references in place, and
 * the import needs to see the object they point to (nested ones stay, for ajv to resolve).
 */
export function resolveRef(doc: Json, node: unknown): Json | undefined {
  let current = node;
  for (let hops = 0; hops < 10 && isObject(current) && typeof current.$ref === 'string'; hops++) {
    const ref = current.$ref;
    if (!ref.startsWith('#/')) return undefined;
    let target: unknown = doc;
    for (const raw of ref.slice(2).split('/')) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      target = isObject(target) ? target[key] : undefined;
    }
    current = target;
  }
  return isObject(current) ? current : undefined;
}

/** The specification version of a parsed document. */
export function specVersion(doc: Json): SpecVersion {
  if (doc.swagger !== undefined) return '2.0';
  return String(doc.openapi).startsWith('3.1') ? '3.1' : '3.0';
}

/** The path items of the document, in document order. */
export function pathItems(doc: Json): Array<[string, Json]> {
  const paths = isObject(doc.paths) ? doc.paths : {};
  return Object.entries(paths).filter((entry): entry is [string, Json] => isObject(entry[1]));
}

/** The operation object of `method` on a path item, if declared. */
export function operationOf(item: Json, method: string): Json | undefined {
  const op = item[method];
  return isObject(op) ? op : undefined;
}

/** Parameters of an operation merged with its path item's (the operation's win, by name and place). */
export function parametersOf(item: Json, op: Json | undefined): Json[] {
  const all = [...asObjects(item.parameters), ...asObjects(op?.parameters)];
  const byKey = new Map<string, Json>();
  for (const p of all) byKey.set(`${String(p.in)}:${String(p.name)}`, p);
  return [...byKey.values()];
}

/** Is this media type JSON (`application/json`, `...+json`, with or without parameters)? */
export function isJsonMediaType(type: string): boolean {
  const bare = type.split(';')[0].trim().toLowerCase();
  return bare === 'application/json' || bare.endsWith('+json') || bare === '*/*';
}

/** `application/json` first, then other JSON types, then the wildcard: the body a client would send. */
function pickJsonMedia(content: Json): [string, Json] | undefined {
  const entries = Object.entries(content).filter(
    (e): e is [string, Json] => isObject(e[1]) && isJsonMediaType(e[0]),
  );
  const rank = (type: string): number => {
    const bare = type.split(';')[0].trim().toLowerCase();
    if (bare === 'application/json') return 0;
    if (bare === 'application/merge-patch+json') return 1;
    if (bare === '*/*') return 3;
    return bare === 'application/json-patch+json' ? 4 : 2;
  };
  return entries.sort((a, b) => rank(a[0]) - rank(b[0]))[0];
}

/** Media-type examples of OpenAPI 3.x: `example`, then every `examples.<name>.value`. */
function mediaExamples(media: Json): unknown[] {
  const out: unknown[] = [];
  if (media.example !== undefined) out.push(media.example);
  if (isObject(media.examples)) {
    for (const example of Object.values(media.examples)) {
      if (isObject(example) && example.value !== undefined) out.push(example.value);
    }
  }
  return out;
}

/**
 * The JSON request body of an operation, or undefined when it takes none. `accepts` lists every
 * media type declared, so a caller can tell "no body" from "no JSON body".
 */
export function requestBodyOf(
  doc: Json,
  item: Json,
  op: Json,
): { body?: Body; accepts: string[] } | undefined {
  if (specVersion(doc) === '2.0') {
    const param = parametersOf(item, op).find((p) => p.in === 'body');
    const consumes = asStrings(op.consumes ?? doc.consumes);
    if (!param) {
      const form = parametersOf(item, op).some((p) => p.in === 'formData');
      return form
        ? { accepts: consumes.length > 0 ? consumes : ['application/x-www-form-urlencoded'] }
        : undefined;
    }
    const json = consumes.length === 0 ? 'application/json' : consumes.find(isJsonMediaType);
    if (json === undefined) return { accepts: consumes };
    const schema = resolveRef(doc, param.schema);
    const examples = param['x-example'] !== undefined ? [param['x-example']] : [];
    return { body: { mediaType: json, schema, examples }, accepts: consumes };
  }
  const requestBody = op.requestBody;
  if (!isObject(requestBody) || !isObject(requestBody.content)) return undefined;
  const accepts = Object.keys(requestBody.content);
  const picked = pickJsonMedia(requestBody.content);
  if (!picked) return { accepts };
  const [mediaType, media] = picked;
  return {
    body: {
      mediaType,
      schema: resolveRef(doc, media.schema),
      examples: mediaExamples(media),
    },
    accepts,
  };
}

/** The JSON body of the first 2xx response among `statuses` (e.g. ['200', '2XX', 'default']). */
export function responseBodyOf(doc: Json, op: Json, statuses: string[]): Body | undefined {
  const responses = isObject(op.responses) ? op.responses : {};
  for (const status of statuses) {
    const response = responses[status];
    if (!isObject(response)) continue;
    if (specVersion(doc) === '2.0') {
      const schema = resolveRef(doc, response.schema);
      if (!schema) continue;
      const examples = isObject(response.examples)
        ? Object.entries(response.examples)
            .filter(([type]) => isJsonMediaType(type))
            .map(([, value]) => value)
        : [];
      return { mediaType: 'application/json', schema, examples };
    }
    if (!isObject(response.content)) continue;
    const picked = pickJsonMedia(response.content);
    if (!picked) continue;
    const [mediaType, media] = picked;
    return {
      mediaType,
      schema: resolveRef(doc, media.schema),
      examples: mediaExamples(media),
    };
  }
  return undefined;
}

/** The statuses that answer with a representation, most specific first. */
export function successStatuses(preferred: string): string[] {
  const rest = ['200', '201', '202', '203'].filter((s) => s !== preferred);
  return [preferred, ...rest, '2XX', '2xx', 'default'];
}

export function asObjects(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

export function asStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
