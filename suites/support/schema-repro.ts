// DOC-SCHEMA's reproduction: a jq test of the one schema violation a finding is about (keyword, member, pointer).
import type { ErrorObject } from 'ajv';
import { pointerTokens } from '../../src/core/pointer.js';
import type { ReproCheck } from '../../src/core/reproduce.js';

/** Where the judged item sits in the body: the item itself, or each element of a list. */
export interface SchemaSite {
  kind: 'item' | 'list';
  /** JSON pointer, relative to the body, of the item or of the list. */
  pointer: string;
}

/**
 * A jq filter reaching a JSON pointer's tokens from its input. A token of digits indexes an array
 * or names a member, whichever the value is (a pointer does not say which).
 */
function reach(tokens: readonly string[]): string {
  if (tokens.length === 0) return '.';
  return tokens
    .map((t) => {
      const key = `.[${JSON.stringify(t)}]`;
      return /^(0|[1-9][0-9]*)$/.test(t) ? `(if type == "array" then .[${t}] else ${key} end)` : key;
    })
    .join(' | ');
}

/** A jq filter that passes its input on when the pointer's tokens name a value in it, and else yields nothing. */
function exists(tokens: readonly string[]): string {
  if (tokens.length === 0) return '.';
  const last = tokens[tokens.length - 1];
  const index = /^(0|[1-9][0-9]*)$/.test(last) ? `(type == "array" and length > ${last}) or ` : '';
  return `select(${reach(tokens.slice(0, -1))} | ${index}(type == "object" and has(${JSON.stringify(last)})))`;
}

/** The test (true: the item breaks the keyword) and what it shows, on one item as input; undefined: jq cannot test it. */
function onItem(error: ErrorObject, at: string): { test: string; shows: string } | undefined {
  const tokens = pointerTokens(error.instancePath);
  const p = reach(tokens);
  const params = error.params as Record<string, unknown>;
  const said = (text: string): string => JSON.stringify(text);
  // A value keyword is about a value that is there (ajv judges no absent member by its type).
  const value = `(${exists(tokens)} | ${p})`;
  const plain = {
    test: '',
    shows: `${said(`${at || '/'} is `)} + ([${value}] | if length > 0 then (.[0] | tojson) else "absent" end)`,
  };
  switch (error.keyword) {
    case 'required':
    case 'additionalProperties': {
      const name = String(error.keyword === 'required' ? params.missingProperty : params.additionalProperty);
      const member = `${at}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      const has = `(${value} | type == "object" and has(${JSON.stringify(name)}))`;
      const isObject = `(${value} | type == "object")`;
      return {
        test: error.keyword === 'required' ? `${isObject} and (${has} | not)` : has,
        shows: `if ${has} then ${said(`${member} is present: `)} + (${value}[${JSON.stringify(name)}] | tojson) else ${said(`${member} is absent`)} end`,
      };
    }
    case 'type': {
      const types = String(params.type).split(',');
      const fits = types
        .map((t) => (t === 'integer' ? '(type == "number" and . == floor)' : `type == ${JSON.stringify(t)}`))
        .join(' or ');
      return { ...plain, test: `${value} | (${fits}) | not` };
    }
    case 'enum':
      return {
        ...plain,
        test: `${value} as $x | ${JSON.stringify(params.allowedValues)} | any(. == $x) | not`,
      };
    case 'const':
      return { ...plain, test: `${value} != ${JSON.stringify(params.allowedValue)}` };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return {
        ...plain,
        test: `${value} | type == "number" and ((. ${String(params.comparison)} ${Number(params.limit)}) | not)`,
      };
    case 'minLength':
    case 'minItems':
    case 'maxLength':
    case 'maxItems': {
      const kind = error.keyword.endsWith('Length') ? 'string' : 'array';
      const op = error.keyword.startsWith('min') ? '<' : '>';
      return { ...plain, test: `${value} | type == "${kind}" and length ${op} ${Number(params.limit)}` };
    }
    case 'pattern':
      return {
        ...plain,
        test: `${value} | type == "string" and (test(${JSON.stringify(String(params.pattern))}) | not)`,
      };
    default:
      return undefined;
  }
}

/**
 * What the script of a DOC-SCHEMA finding tests on its replayed 2xx answer: that the same keyword
 * breaks at the same place (`required`: the member is missing; `additionalProperties`: the member
 * the schema forbids is there; `type`, `enum`, limits, `pattern`: the value at the pointer). In a
 * list, any element breaking it reproduces the finding (the order of the elements may change).
 */
export function schemaRepro(error: ErrorObject, site: SchemaSite): ReproCheck {
  const base = reach(pointerTokens(site.pointer));
  const shown = `${site.pointer}${site.kind === 'list' ? '/*' : ''}${error.instancePath}`;
  const item = onItem(error, shown);
  if (!item) {
    return {
      kind: 'none',
      why: `the schema keyword "${error.keyword}" is not tested by a script (jq cannot check it as ajv does)`,
    };
  }
  const test = `(try (${item.test}) catch false)`;
  const shows = `(try (${item.shows}) catch ${JSON.stringify(`${shown || '/'} is unreadable`)})`;
  if (site.kind === 'item')
    return { kind: 'jq', ok2xx: true, test: `${base} | ${test}`, shows: `${base} | ${shows}` };
  const list = `[${base} | .[]?]`;
  return {
    kind: 'jq',
    ok2xx: true,
    test: `${list} | any(.[]; ${test})`,
    shows: `${list} as $all | [$all[] | select(${test})] as $bad | "\\($bad | length) of \\($all | length) elements: " + ((if ($bad | length) > 0 then $bad[0] else $all[0] end) | ${shows})`,
  };
}
