// XML as a tree with one escaping serialiser (model: node's test_runner junit reporter, treeToXML).

/** An attribute value; `undefined` leaves the attribute out. */
export type XmlAttrValue = string | number | undefined;

/** One element: attributes in insertion order, children are elements or text. */
export interface XmlElement {
  name: string;
  attrs: Record<string, XmlAttrValue>;
  children: XmlNode[];
}

/** Text children are plain strings: the serialiser escapes them, never the caller. */
export type XmlNode = XmlElement | string;

/** Builds an element. Text children are kept as given and escaped at serialisation. */
export function el(
  name: string,
  attrs: Record<string, XmlAttrValue> = {},
  ...children: XmlNode[]
): XmlElement {
  return { name, attrs, children };
}

// Characters XML 1.0 forbids anywhere, even escaped: C0 controls other than tab/LF/CR, lone
// surrogates (the `u` flag matches them as single code points), and U+FFFE/U+FFFF.
const FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Removes every character that may not appear in an XML 1.0 document. */
export function stripInvalidXmlChars(value: string): string {
  return value.replace(FORBIDDEN, '');
}

const TEXT_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  // A raw CR would be normalised to LF by every parser; keep it as written.
  '\r': '&#13;',
};

// In attributes, parsers turn raw tab/LF/CR into spaces: write them as references to keep them.
const ATTR_ESCAPES: Record<string, string> = { ...TEXT_ESCAPES, '\n': '&#10;', '\t': '&#9;' };

/** Escapes text content. `]]>` needs nothing more: its `>` is escaped. */
export function escapeXmlText(value: string): string {
  return stripInvalidXmlChars(value).replace(/[&<>"'\r]/g, (c) => TEXT_ESCAPES[c]);
}

/** Escapes an attribute value, keeping line breaks and tabs as character references. */
export function escapeXmlAttr(value: string): string {
  return stripInvalidXmlChars(value).replace(/[&<>"'\r\n\t]/g, (c) => ATTR_ESCAPES[c]);
}

// Names come from our own code, never from the audited service; a bad one is a bug of ours.
const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
function checkName(name: string): string {
  if (!NAME.test(name)) throw new Error(`invalid XML name: ${JSON.stringify(name)}`);
  return name;
}

function openTag(node: XmlElement): string {
  let tag = `<${checkName(node.name)}`;
  for (const [key, value] of Object.entries(node.attrs)) {
    if (value === undefined) continue;
    tag += ` ${checkName(key)}="${escapeXmlAttr(String(value))}"`;
  }
  return tag;
}

/** Writes `node` into `out`, one line per tag when `indent` is a string, all inline when null. */
function serialiseNode(node: XmlElement, indent: string | null, out: string[]): void {
  const tag = openTag(node);
  const pad = indent ?? '';
  const children = node.children.filter((c) => c !== '');
  if (children.length === 0) {
    out.push(`${pad}${tag}/>`);
    return;
  }
  // Mixed or text content is written inline: added whitespace would change the text.
  if (indent === null || children.some((c) => typeof c === 'string')) {
    const inner: string[] = [];
    for (const c of children) {
      if (typeof c === 'string') inner.push(escapeXmlText(c));
      else serialiseNode(c, null, inner);
    }
    out.push(`${pad}${tag}>${inner.join('')}</${node.name}>`);
    return;
  }
  out.push(`${pad}${tag}>`);
  for (const child of children as XmlElement[]) serialiseNode(child, `${indent}  `, out);
  out.push(`${pad}</${node.name}>`);
}

/** Serialises a document: XML declaration, the tree indented by two spaces, trailing newline. */
export function serialiseXml(root: XmlElement): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  serialiseNode(root, '', out);
  return `${out.join('\n')}\n`;
}
