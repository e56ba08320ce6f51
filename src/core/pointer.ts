// JSON pointers (RFC 6901): the value a pointer names in a JSON value.

/** The value at `pointer` in `value` ('' is the whole value); undefined when nothing is there. */
export function pointerGet(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  if (!pointer.startsWith('/')) return undefined;
  let node = value;
  for (const key of pointerTokens(pointer)) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(key)) return undefined;
      node = node[Number(key)];
    } else if (node !== null && typeof node === 'object' && Object.hasOwn(node, key)) {
      node = (node as Record<string, unknown>)[key];
    } else return undefined;
  }
  return node;
}

/** The reference tokens of a pointer, unescaped (`/a~1b/0` -> `a/b`, `0`); none for ''. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'));
}
