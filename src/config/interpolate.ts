// ${VAR} and ${VAR:-default} in every string value, applied to the parsed tree (never to raw
// text, so a variable's value cannot inject YAML). `$${` writes a literal `${`. `${VAR}` needs a
// non-empty value (CI sets a missing secret to ""); `${VAR:-}` says empty is meant.
import { pathKey, type Problem, type Segment } from './problems.js';
import { didYouMean } from './suggest.js';

/** Deeper than this is certainly not a config: reported rather than walked. */
export const MAX_DEPTH = 100;

export interface Interpolated {
  value: unknown;
  problems: Problem[];
  /** pathKey -> variable, for strings whose whole value came from one set variable. */
  fromEnv: Map<string, string>;
  /** Every variable whose value went into some string (whole or in part), with the first path using it. */
  used: Map<string, { value: string; path: Segment[] }>;
}

const REFERENCE = /\$\$\{|\$\{([^}]*)(\}?)/g;
const BODY = /^([A-Za-z_][A-Za-z0-9_]*)(?::-([\s\S]*))?$/;

/**
 * Replaces variable references in every string value of `value` from `env`. Problems (unset or
 * empty variables without a `:-` default, malformed references) name the variable and the path; their strings are kept
 * as written so that validation can go on and report everything at once.
 */
export function interpolate(
  value: unknown,
  env: NodeJS.ProcessEnv,
  skip: (path: readonly Segment[]) => boolean = () => false,
): Interpolated {
  const problems: Problem[] = [];
  const fromEnv = new Map<string, string>();
  const used = new Map<string, { value: string; path: Segment[] }>();

  const text = (raw: string, path: Segment[]): string => {
    if (!raw.includes('${')) return raw;
    let ok = true;
    const out = raw.replace(REFERENCE, (match: string, body: string | undefined, close: string) => {
      if (match === '$${') return '${';
      const parsed = close === '}' ? BODY.exec(body ?? '') : null;
      if (!parsed) {
        ok = false;
        const shown = match.length > 40 ? `${match.slice(0, 37)}...` : match;
        problems.push({
          path,
          message: `bad variable reference ${JSON.stringify(shown)}: write \${NAME} or \${NAME:-default} (and $\${ for a literal \${)`,
        });
        return match;
      }
      const [, name, fallback] = parsed;
      const set = env[name];
      if (set !== undefined && set !== '' && !used.has(name)) used.set(name, { value: set, path });
      if (fallback !== undefined) return set === undefined || set === '' ? fallback : set;
      if (set === undefined) {
        ok = false;
        // Names of set variables only (never values): a typo in a name is the usual cause.
        const hint = didYouMean(
          name,
          Object.keys(env).filter((key) => env[key] !== undefined),
        );
        problems.push({ path, message: `environment variable ${name} is not set${hint}`, kind: 'env' });
        return match;
      }
      if (set === '') {
        // What CI gives for a secret that is not defined: silently auditing without it would
        // skip checks (no token: no authentication checks) and still pass.
        ok = false;
        problems.push({
          path,
          message: `environment variable ${name} is empty (as CI sets a secret that is not defined): give it a value, or write \${${name}:-} if empty is meant`,
          kind: 'env',
        });
        return match;
      }
      return set;
    });
    const whole = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}$/.exec(raw);
    if (ok && whole && env[whole[1]] !== undefined && env[whole[1]] !== '')
      fromEnv.set(pathKey(path), whole[1]);
    return out;
  };

  const walk = (node: unknown, path: Segment[]): unknown => {
    if (skip(path)) return node;
    if (typeof node === 'string') return text(node, path);
    if (node === null || typeof node !== 'object') return node;
    if (path.length >= MAX_DEPTH) {
      problems.push({ path, message: `nested too deeply (more than ${MAX_DEPTH} levels)` });
      return null;
    }
    if (Array.isArray(node)) return node.map((item, index) => walk(item, [...path, index]));
    // fromEntries defines own properties, so a "__proto__" key stays a key (and is reported).
    return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, walk(item, [...path, key])]));
  };

  return { value: walk(value, []), problems, fromEnv, used };
}
