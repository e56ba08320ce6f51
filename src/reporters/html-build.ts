// HTML as a tree of trusted fragments: every string is escaped when it is added, never by the caller.

/** A fragment of HTML this code wrote. Plain strings are text and get escaped; only Html is markup. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** A child: text (escaped), a fragment, or nothing (false/null/undefined are left out); arrays flatten. */
export type Child = Html | string | number | false | null | undefined | Child[];

/** An attribute: `true` writes it bare, `false`/undefined leave it out. */
export type AttrValue = string | number | boolean | undefined;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

// NUL and other C0/C1 controls (bar tab, LF, CR) are not allowed in HTML text; lone surrogates
// cannot be written as UTF-8. Both become U+FFFD so the reader sees that something was there.
const UNWRITABLE =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes text for an element's content or a double-quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(UNWRITABLE, '\uFFFD').replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

// Tag and attribute names come from our own code, never from the audited service.
const NAME = /^[a-z][a-z0-9-]*$/;
function checkName(name: string): string {
  if (!NAME.test(name)) throw new Error(`invalid HTML name: ${JSON.stringify(name)}`);
  return name;
}

const VOID = new Set(['meta', 'link', 'br', 'hr', 'img', 'input', 'col', 'wbr']);

/** Joins children into one fragment, escaping text. */
export function fragment(...children: Child[]): Html {
  let out = '';
  const add = (c: Child): void => {
    if (c === false || c === null || c === undefined) return;
    if (Array.isArray(c)) c.forEach(add);
    else if (c instanceof Html) out += c.value;
    else out += escapeHtml(String(c));
  };
  children.forEach(add);
  return new Html(out);
}

/** One element: `h('td', { class: 'cell failed' }, 'text')`. Void elements take no children. */
export function h(tag: string, attrs: Record<string, AttrValue> = {}, ...children: Child[]): Html {
  let open = `<${checkName(tag)}`;
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    open += value === true ? ` ${checkName(key)}` : ` ${checkName(key)}="${escapeHtml(String(value))}"`;
  }
  if (VOID.has(tag)) return new Html(`${open}>`);
  return new Html(`${open}>${fragment(...children).value}</${tag}>`);
}

/**
 * Static markup or code written in this repository (the stylesheet, the filter script).
 * Never call it with text that came from a run.
 */
export function trusted(markup: string): Html {
  return new Html(markup);
}
