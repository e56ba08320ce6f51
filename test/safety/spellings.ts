// Every spelling of a secret an echoing service may send, and a leak finder that reads outputs through their own escaping.

/** Named character references for ASCII punctuation (a subset of HTML5's, written out here on purpose). */
const NAMES: Record<string, string> = {
  '/': 'sol',
  '+': 'plus',
  '=': 'equals',
  '.': 'period',
  _: 'lowbar',
  ':': 'colon',
  '!': 'excl',
  '#': 'num',
  $: 'dollar',
  '%': 'percnt',
  '&': 'amp',
  "'": 'apos',
  '(': 'lpar',
  ')': 'rpar',
  '*': 'ast',
  ',': 'comma',
  ';': 'semi',
  '<': 'lt',
  '>': 'gt',
  '?': 'quest',
  '@': 'commat',
  '[': 'lsqb',
  '\\': 'bsol',
  ']': 'rsqb',
  '^': 'Hat',
  '`': 'grave',
  '{': 'lcub',
  '|': 'verbar',
  '}': 'rcub',
  '"': 'quot',
};
const BY_NAME = new Map(Object.entries(NAMES).map(([char, name]) => [name.toLowerCase(), char]));

/** A token a shell would act on if it ever parsed it: quotes, substitutions, separators, globs, `!`. */
export const HOSTILE_TOKEN = `Mq'"$(touch injected1)\`touch injected2\`;touch injected3|&<>*?!{a,b}[x]\\ #~%\${HOME}-9`;

const b64 = (text: string): string => Buffer.from(text).toString('base64');
const b64url = (text: string): string => Buffer.from(text).toString('base64url');
const hex = (text: string): string => Buffer.from(text).toString('hex');
const codes = (secret: string): number[] => [...secret].map((c) => c.codePointAt(0)!);

/**
 * The ways a debug page, a proxy or a careless error handler re-spells a credential it echoes.
 * Each is [name, text]; the texts hold the whole secret.
 */
export function echoSpellings(secret: string): Array<[string, string]> {
  const half = Math.floor(secret.length / 2);
  return [
    ['upper case', secret.toUpperCase()],
    ['lower case', secret.toLowerCase()],
    [
      'HTML decimal references',
      codes(secret)
        .map((c) => `&#${c};`)
        .join(''),
    ],
    [
      'HTML hex references',
      codes(secret)
        .map((c) => `&#x${c.toString(16).toUpperCase()};`)
        .join(''),
    ],
    ['HTML named references', [...secret].map((c) => (NAMES[c] ? `&${NAMES[c]};` : c)).join('')],
    [
      'HTML references mixed with text',
      [...secret].map((c, i) => (i % 2 ? `&#${c.codePointAt(0)};` : c)).join(''),
    ],
    ['base64', b64(secret)],
    ['base64url', b64url(secret)],
    ['hex', hex(secret)],
    ['HEX', hex(secret).toUpperCase()],
    ['base64 of a:secret', b64(`a:${secret}`)],
    ['base64 of ab:secret', b64(`ab:${secret}`)],
    ['base64 of abc:secret', b64(`abc:${secret}`)],
    ['base64 of secret:', b64(`${secret}:`)],
    ['base64url of user:secret', b64url(`user:${secret}`)],
    ['hex of user:secret', hex(`user:${secret}`)],
    ['reversed', [...secret].reverse().join('')],
    ['split by a line break', `${secret.slice(0, half)}\n${secret.slice(half)}`],
    ['split by CRLF and indentation', `${secret.slice(0, 6)}\r\n    ${secret.slice(6)}`],
    ['split by spaces', secret.replace(/(.{4})/g, '$1 ')],
    ['URL-encoded', encodeURIComponent(secret)],
    [
      'JSON \\u escapes',
      codes(secret)
        .map((c) => `\\u${c.toString(16).padStart(4, '0')}`)
        .join(''),
    ],
  ];
}

/** The parts of a secret's base64 encodings that stay the same whatever bytes precede it. */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret);
  return [0, 1, 2].flatMap((shift) => {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const core = encoded.slice([0, 2, 3][shift], Math.floor((shift + bytes.length) / 3) * 4);
    return [core, core.replace(/\+/g, '-').replace(/\//g, '_')];
  });
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What counts as the secret showing: in any case and with whitespace removed, 12 characters in a
 * row of it (the whole of it when it is 16 or shorter), it reversed, its hex, or the core of its
 * base64/base64url encodings.
 */
function patterns(secret: string): { lower: RegExp; cased: RegExp } {
  const plain = secret.replace(/\s/g, '').toLowerCase();
  const runs: string[] = [];
  if (plain.length > 16) for (let i = 0; i + 12 <= plain.length; i++) runs.push(plain.slice(i, i + 12));
  else runs.push(plain);
  const lower = [...runs, [...plain].reverse().join(''), hex(secret)];
  return {
    lower: new RegExp(lower.map(escapeRegExp).join('|')),
    cased: new RegExp(base64Cores(secret).map(escapeRegExp).join('|')),
  };
}

function jsonStrings(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object')
      for (const [k, item] of Object.entries(v)) {
        out.push(k);
        walk(item);
      }
  };
  walk(value);
  return out.join('\n');
}

/** HTML/XML character references decoded, as many levels deep as there are (up to 4). */
function htmlDecoded(text: string): string {
  let out = text;
  for (let i = 0; i < 4; i++) {
    const next = out.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, ref: string) => {
      if (ref[0] === '#') {
        const code =
          ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
        return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return BY_NAME.get(ref.toLowerCase()) ?? whole;
    });
    if (next === out) break;
    out = next;
  }
  return out;
}

/** Backslash escapes (JSON \u, console and markdown \x, markdown's escaped punctuation) undone. */
function unbackslashed(text: string): string {
  return text.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[\s\S])/g, (_, e: string) => {
    if (e.length > 1) return String.fromCharCode(parseInt(e.slice(1), 16));
    return e === 'n' || e === 'r' || e === 't' ? ' ' : e;
  });
}

function percentDecoded(text: string): string {
  return text.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** The text as each kind of report escaping, and then each kind of echo spelling, would read it. */
function views(text: string): string[] {
  const json = jsonStrings(text) ?? text;
  const a = htmlDecoded(json);
  const b = unbackslashed(unbackslashed(text));
  const c = htmlDecoded(unbackslashed(json));
  return [
    text,
    json,
    a,
    percentDecoded(unbackslashed(a)),
    b,
    percentDecoded(htmlDecoded(b)),
    percentDecoded(unbackslashed(c)),
  ];
}

/**
 * Every place a secret shows in the outputs, read raw and through JSON, HTML/XML, backslash and
 * URL decoding, case and whitespace ignored: "<what> of secret #<n> in <output>". Empty when none.
 * `exact`: only the secret as it is (for secrets too short to look for in other spellings).
 */
export function findLeaks(
  outputs: Array<[string, string]>,
  secrets: string[],
  options: { exact?: boolean } = {},
): string[] {
  const leaks = new Set<string>();
  const checks = secrets.map((secret, n) => ({ n, secret, ...patterns(secret) }));
  for (const [name, text] of outputs) {
    for (const view of views(text)) {
      const squeezed = view.replace(/\s/g, '');
      const lower = squeezed.toLowerCase();
      for (const { n, secret, lower: l, cased } of checks) {
        if (options.exact) {
          if (view.includes(secret)) leaks.add(`"${secret}" of secret #${n} in ${name}`);
          continue;
        }
        const found = l.exec(lower) ?? cased.exec(squeezed);
        if (found) leaks.add(`"${found[0]}" of secret #${n} in ${name}`);
      }
    }
  }
  return [...leaks];
}
