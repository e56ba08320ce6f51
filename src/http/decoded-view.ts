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
const SPACE = new RegExp(`^${SPACE_CLASS}$`);
/** Characters that begin an escape or reference, or are left out: text without any is read as is. */
const SPECIAL = new RegExp(`[&%\\\\]|${SPACE_CLASS}`);

/** Reads `text` as described on DecodedView. Linear in the length of the text. */
export function decodedView(text: string): DecodedView {
  const lower = text.toLowerCase();
  // The common case: nothing to decode, and lower-casing kept every position.
  if (!SPECIAL.test(text) && lower.length === text.length) {
    return { cased: text, lower, start: (i) => i, end: (i) => i + 1 };
  }
  const cased: string[] = [];
  const lowered: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let i = 0;
  while (i < text.length) {
    const [decoded, next] = readUnit(text, i);
    for (const unit of splitUnits(decoded)) {
      if (SPACE.test(unit)) continue;
      const low = unit.toLowerCase();
      cased.push(unit);
      lowered.push(low.length === unit.length ? low : unit);
      starts.push(i);
      ends.push(next);
    }
    i = next;
  }
  return { cased: cased.join(''), lower: lowered.join(''), start: (k) => starts[k], end: (k) => ends[k] };
}

/** A string's UTF-16 code units, one string each (a decoded astral character takes two positions). */
function splitUnits(decoded: string): string[] {
  return decoded.length === 1 ? [decoded] : decoded.split('');
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
