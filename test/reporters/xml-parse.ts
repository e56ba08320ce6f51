// A small strict XML reader for tests: enough of XML 1.0 to parse back what the reporters write.
// It throws on anything malformed (unbalanced tags, raw '<' or '&', bad references, bad characters).

export interface ParsedElement {
  name: string;
  attrs: Record<string, string>;
  children: Array<ParsedElement | string>;
}

const NAME_START = /[A-Za-z_:]/;
const NAME_CHAR = /[A-Za-z0-9_:.-]/;
const ALLOWED = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes entity and character references; throws on an unknown or unterminated one. */
function decode(raw: string, where: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    if (ch === '<') throw new Error(`raw '<' in ${where}`);
    if (ch !== '&') {
      out += ch;
      continue;
    }
    const end = raw.indexOf(';', i);
    if (end < 0) throw new Error(`unterminated reference in ${where}`);
    const ref = raw.slice(i + 1, end);
    if (ref.startsWith('#x')) out += String.fromCodePoint(parseInt(ref.slice(2), 16));
    else if (ref.startsWith('#')) out += String.fromCodePoint(parseInt(ref.slice(1), 10));
    else if (ref in ENTITIES) out += ENTITIES[ref];
    else throw new Error(`unknown entity &${ref}; in ${where}`);
    i = end;
  }
  return out;
}

/** Parses a document (optional XML declaration, one root element, whitespace around it). */
export function parseXml(xml: string): ParsedElement {
  if (!ALLOWED.test(xml)) throw new Error('document has characters XML 1.0 forbids');
  let pos = 0;
  const fail = (what: string): never => {
    throw new Error(`${what} at offset ${pos}: ${JSON.stringify(xml.slice(pos, pos + 40))}`);
  };
  const skipSpace = () => {
    while (pos < xml.length && /\s/.test(xml[pos])) pos++;
  };
  const readName = (): string => {
    const start = pos;
    if (!NAME_START.test(xml[pos] ?? '')) fail('expected a name');
    while (pos < xml.length && NAME_CHAR.test(xml[pos])) pos++;
    return xml.slice(start, pos);
  };

  if (xml.startsWith('<?xml')) {
    pos = xml.indexOf('?>');
    if (pos < 0) fail('unterminated declaration');
    pos += 2;
  }
  skipSpace();

  const readElement = (): ParsedElement => {
    if (xml[pos] !== '<') fail("expected '<'");
    pos++;
    const node: ParsedElement = { name: readName(), attrs: {}, children: [] };
    for (;;) {
      const before = pos;
      skipSpace();
      if (xml.startsWith('/>', pos)) {
        pos += 2;
        return node;
      }
      if (xml[pos] === '>') {
        pos++;
        break;
      }
      if (pos === before) fail('expected whitespace before an attribute');
      const attr = readName();
      if (attr in node.attrs) fail(`duplicate attribute ${attr}`);
      if (xml[pos] !== '=') fail("expected '='");
      pos++;
      const quote = xml[pos];
      if (quote !== '"' && quote !== "'") fail('expected a quote');
      const end = xml.indexOf(quote, pos + 1);
      if (end < 0) fail('unterminated attribute');
      node.attrs[attr] = decode(xml.slice(pos + 1, end), `attribute ${attr}`);
      pos = end + 1;
    }
    for (;;) {
      const lt = xml.indexOf('<', pos);
      if (lt < 0) fail(`unclosed <${node.name}>`);
      if (lt > pos) {
        const raw = xml.slice(pos, lt);
        if (raw.includes(']]>')) fail("']]>' in text");
        node.children.push(decode(raw, `text of <${node.name}>`));
        pos = lt;
      }
      if (xml.startsWith('</', pos)) {
        pos += 2;
        const name = readName();
        if (name !== node.name) fail(`</${name}> closes <${node.name}>`);
        skipSpace();
        if (xml[pos] !== '>') fail("expected '>'");
        pos++;
        return node;
      }
      if (xml.startsWith('<!', pos) || xml.startsWith('<?', pos)) fail('unsupported markup');
      node.children.push(readElement());
    }
  };

  const root = readElement();
  skipSpace();
  if (pos !== xml.length) fail('content after the root element');
  return root;
}

/** Child elements named `name` (all children when omitted). */
export function childElements(node: ParsedElement, name?: string): ParsedElement[] {
  return node.children.filter((c): c is ParsedElement => typeof c !== 'string' && (!name || c.name === name));
}

/** The concatenated text content of an element (direct text children). */
export function textOf(node: ParsedElement): string {
  return node.children.filter((c): c is string => typeof c === 'string').join('');
}
