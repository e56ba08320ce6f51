// Where a reproduction script's words hold variables: the base URL, its origin, the ids of the items it creates.
import { escapeRegExp } from '../core/regexp.js';
import type { Substitute } from '../http/curl.js';

/** A created item's id and the shell variable that holds it in the script. */
export interface IdVar {
  name: string;
  id: string;
}

/** The base URL (or its origin) at the start of a URL, and the ids of `vars` in its path or query, as variables. */
export function urlSubstitute(base: string, origin: string, vars: readonly IdVar[]): Substitute {
  return (text) => {
    const spans: Array<{ start: number; end: number; shell: string }> = [];
    let from = 0;
    if (startsWithin(text, base)) {
      spans.push({ start: 0, end: base.length, shell: '${BASE_URL}' });
      from = base.length;
    } else if (startsWithin(text, origin)) {
      spans.push({ start: 0, end: origin.length, shell: '${ORIGIN}' });
      from = origin.length;
    }
    for (const v of vars) {
      const encoded = encodeURIComponent(v.id);
      const re = new RegExp(`(?<=[/=.])${escapeRegExp(encoded)}(?=$|[/?&#])`, 'g');
      for (const m of text.slice(from).matchAll(re)) {
        const start = from + (m.index ?? 0);
        spans.push({ start, end: start + encoded.length, shell: `\${${v.name}}` });
      }
    }
    return spans.sort((a, b) => a.start - b.start);
  };
}

/** The ids of `vars` as JSON strings in a body, as variables. */
export function bodySubstitute(vars: readonly IdVar[]): Substitute {
  return (text) => {
    const spans: Array<{ start: number; end: number; shell: string }> = [];
    for (const v of vars) {
      const quoted = JSON.stringify(v.id);
      let at = text.indexOf(quoted);
      while (at >= 0) {
        spans.push({ start: at + 1, end: at + quoted.length - 1, shell: `\${${v.name}}` });
        at = text.indexOf(quoted, at + quoted.length);
      }
    }
    return spans.sort((a, b) => a.start - b.start);
  };
}

/** True when `text` starts with `prefix` followed by nothing, a `/`, `?` or `#`. */
export function startsWithin(text: string, prefix: string): boolean {
  return text.startsWith(prefix) && (text.length === prefix.length || /[/?#]/.test(text[prefix.length]));
}
