// A text read the way an echo may have re-spelled it: escapes and character references decoded, whitespace dropped.

/**
 * The text as a sequence of decoded characters, each mapped back to the span of the original it
 * came from, so a secret found in the decoded text is cut out of the original. Whitespace (also
 * escaped: `\n`, `&#10;`, `%0A`) is left out, so a secret split across lines or words is found too.
 */
export interface DecodedView {
  /** Decoded characters, case kept (for case-sensitive spellings: base64). */
  readonly cased: string;
  /** The same characters lower-cased one by one (same length and positions). */
  readonly lower: string;
  /** Offset in the original where the character at position `i` begins. */
  start(i: number): number;
  /** Offset in the original just after the character at position `i`. */
  end(i: number): number;
}

/**
 * Named character references for the ASCII characters (HTML5), and the legacy few browsers read
 * without `;`. Names are matched case-insensitively: over-reading a name hides more, never less.
 */
const NAMED: Record<string, string> = {
  tab: '\t',
  newline: '\n',
  nbsp: ' ',
  excl: '!',
  quot: '"',
  num: '#',
  dollar: '$',
  percnt: '%',
  amp: '&',
  apos: "'",
  lpar: '(',
  rpar: ')',
  ast: '*',
  midast: '*',
  plus: '+',
  comma: ',',
  period: '.',
  sol: '/',
  colon: ':',
  semi: ';',
  lt: '<',
  equals: '=',
  gt: '>',
  quest: '?',
  commat: '@',
  lsqb: '[',
  lbrack: '[',
  bsol: '\\',
  rsqb: ']',
  rbrack: ']',
  hat: '^',
  lowbar: '_',
  underbar: '_',
  grave: '`',
  diacriticalgrave: '`',
  lcub: '{',
  lbrace: '{',
  verbar: '|',
  vert: '|',
  verticalline: '|',
  rcub: '}',
  rbrace: '}',
  // Look-alikes a "pretty" escaper may substitute for ASCII punctuation.
  hyphen: '-',
  dash: '-',
  minus: '-',
};
const LEGACY = new Set(['amp', 'lt', 'gt', 'quot', 'nbsp']);

const DECIMAL_REF = /&#(\d{1,8});?/y;
const HEX_REF = /&#[xX]([0-9a-fA-F]{1,8});?/y;
const NAMED_REF = /&([A-Za-z][A-Za-z0-9]{1,31})(;?)/y;
const PERCENT = /%([0-9a-fA-F]{2})/y;
const UNICODE_ESCAPE = /\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})|\\u\{([0-9a-fA-F]{1,6})\}/y;
const SIMPLE_ESCAPES: Record<string, string> = {
  '/': '/',
  '\\': '\\',
  '"': '"',
  "'": "'",
  n: '\n',
  r: '\r',
  t: '\t',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
};

/** What the view leaves out: whitespace, zero-width characters and the control characters escapes spell. */
export const SPACE_CLASS = '[\\s\\u0085\\u180e\\u200b-\\u200d\\ufeff\\b\\0]';
const SPACES = new RegExp(`${SPACE_CLASS}+`, 'g');
/** Where a unit may begin that is not the character itself: an escape, a reference, whitespace. */
const CANDIDATE = new RegExp(`[&%\\\\]|${SPACE_CLASS}+`, 'g');

/**
 * Reads `text` as described on DecodedView, in time linear in its length. The positions are
 * worked out only when asked for (when a secret was found), so a text without one costs a scan.
 */
export function decodedView(text: string): DecodedView {
  const parts: string[] = [];
  walk(
    text,
    (from, to) => parts.push(text.slice(from, to)),
    (decoded) => parts.push(decoded),
  );
  const cased = parts.length === 1 ? parts[0] : parts.join('');
  const lower = lowerUnits(cased);
  if (cased.length === text.length && parts.length === 1) {
    return { cased, lower, start: (i) => i, end: (i) => i + 1 };
  }
  let starts: Int32Array | undefined;
  let ends: Int32Array | undefined;
  const positions = (): [Int32Array, Int32Array] => {
    if (!starts || !ends) {
      starts = new Int32Array(cased.length);
      ends = new Int32Array(cased.length);
      let k = 0;
      walk(
        text,
        (from, to) => {
          for (let i = from; i < to; i++, k++) {
            starts![k] = i;
            ends![k] = i + 1;
          }
        },
        (decoded, from, to) => {
          for (let u = 0; u < decoded.length; u++, k++) {
            starts![k] = from;
            ends![k] = to;
          }
        },
      );
    }
    return [starts, ends];
  };
  return { cased, lower, start: (i) => positions()[0][i], end: (i) => positions()[1][i] };
}

/** Lower-cases one code unit at a time, so positions stay aligned (a secret's forms are made the same way). */
export function lowerUnits(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  return text
    .split('')
    .map((c) => (c.toLowerCase().length === 1 ? c.toLowerCase() : c))
    .join('');
}

/**
 * Calls `gap` for each run of characters read as themselves and `unit` for each decoded unit
 * (whitespace removed from it: it may be empty), in order, with their place in the text.
 */
function walk(
  text: string,
  gap: (from: number, to: number) => void,
  unit: (decoded: string, from: number, to: number) => void,
): void {
  let at = 0;
  CANDIDATE.lastIndex = 0;
  for (let m = CANDIDATE.exec(text); m; m = CANDIDATE.exec(text)) {
    if (m.index > at) gap(at, m.index);
    if (m[0].length > 1 || !'&%\\'.includes(m[0])) {
      at = m.index + m[0].length; // whitespace: left out
    } else {
      const [decoded, next] = readUnit(text, m.index);
      const kept = decoded.replace(SPACES, '');
      if (kept !== '') unit(kept, m.index, next);
      at = next;
    }
    CANDIDATE.lastIndex = at;
  }
  if (at < text.length || text === '') gap(at, text.length);
}

/** The character(s) one unit of the original spells, and where the next unit begins. */
function readUnit(text: string, i: number): [string, number] {
  const c = text[i];
  if (c === '&') return reference(text, i) ?? [c, i + 1];
  if (c === '%') return percent(text, i) ?? [c, i + 1];
  if (c === '\\') return escape(text, i) ?? [c, i + 1];
  return [c, i + 1];
}

function reference(text: string, i: number): [string, number] | undefined {
  for (const pattern of [DECIMAL_REF, HEX_REF]) {
    pattern.lastIndex = i;
    const m = pattern.exec(text);
    if (m) {
      const code = parseInt(m[1], pattern === HEX_REF ? 16 : 10);
      if (code > 0x10ffff) return undefined;
      return [String.fromCodePoint(code), i + m[0].length];
    }
  }
  NAMED_REF.lastIndex = i;
  const m = NAMED_REF.exec(text);
  if (!m) return undefined;
  const name = m[1].toLowerCase();
  const value = NAMED[name];
  if (value === undefined || (m[2] === '' && !LEGACY.has(name))) return undefined;
  return [value, i + m[0].length];
}

/** `%XX`, with the bytes of a multi-byte UTF-8 character read together. */
function percent(text: string, i: number): [string, number] | undefined {
  const bytes: number[] = [];
  let at = i;
  do {
    PERCENT.lastIndex = at;
    const m = PERCENT.exec(text);
    if (!m) break;
    bytes.push(parseInt(m[1], 16));
    at += 3;
  } while (bytes[0] >= 0xc0 && bytes.length < utf8Length(bytes[0]));
  if (bytes.length === 0) return undefined;
  if (bytes[0] < 0x80) return [String.fromCharCode(bytes[0]), i + 3];
  const decoded = Buffer.from(bytes).toString('utf8');
  // An invalid sequence: read the first escape as one (unknown) byte, never skip text.
  if (decoded.includes('\ufffd') || bytes.length !== utf8Length(bytes[0])) return ['\ufffd', i + 3];
  return [decoded, at];
}

function utf8Length(first: number): number {
  if (first >= 0xf0) return 4;
  if (first >= 0xe0) return 3;
  if (first >= 0xc0) return 2;
  return 1;
}

/** JSON and JavaScript escapes: `\uXXXX` (surrogate pairs too), `\xXX`, `\u{...}`, `\/`, `\n`... */
function escape(text: string, i: number): [string, number] | undefined {
  UNICODE_ESCAPE.lastIndex = i;
  const m = UNICODE_ESCAPE.exec(text);
  if (m) {
    const code = parseInt(m[1] ?? m[2] ?? m[3], 16);
    if (code > 0x10ffff) return undefined;
    return [String.fromCodePoint(code), i + m[0].length];
  }
  const next = text[i + 1];
  if (next !== undefined && next in SIMPLE_ESCAPES) return [SIMPLE_ESCAPES[next], i + 2];
  return undefined;
}
