// Finds where a JSON text stops being JSON, for messages with line:col (V8's do not always say).

/** Offset and description of the first syntax error in `text`, or undefined when it is valid. */
export function findJsonError(text: string): { offset: number; message: string } | undefined {
  let i = 0;
  const fail = (message: string): never => {
    throw new JsonSyntax(i, message);
  };
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const show = (): string => (i >= text.length ? 'end of input' : JSON.stringify(text[i]));
  const string = (): void => {
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail('control character in string (escape it)');
      if (c === 0x5c) {
        const next = text[i + 1];
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('bad \\u escape');
          i += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2;
        else fail('bad escape in string');
      } else i++;
    }
  };
  // A loop with an explicit stack, so that deep nesting cannot overflow ours.
  const stack: Array<'{' | '['> = [];
  let expect: 'value' | 'key' | 'after' = 'value';
  const scalar = (): void => {
    if (text[i] === '"') return string();
    const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (number) {
      i += number[0].length;
      return;
    }
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    fail(`unexpected ${show()}, expected a value`);
  };
  try {
    for (;;) {
      ws();
      if (expect === 'value') {
        const c = text[i];
        if (c === '{' || c === '[') {
          stack.push(c);
          i++;
          ws();
          if (text[i] === (c === '{' ? '}' : ']')) {
            stack.pop();
            i++;
            expect = 'after';
          } else expect = c === '{' ? 'key' : 'value';
          continue;
        }
        scalar();
        expect = 'after';
      } else if (expect === 'key') {
        if (text[i] !== '"') fail(`unexpected ${show()}, expected a quoted key`);
        string();
        ws();
        if (text[i] !== ':') fail(`unexpected ${show()}, expected ':'`);
        i++;
        expect = 'value';
      } else {
        const top = stack[stack.length - 1];
        if (top === undefined) break;
        const close = top === '{' ? '}' : ']';
        if (text[i] === close) {
          stack.pop();
          i++;
        } else if (text[i] === ',') {
          i++;
          expect = top === '{' ? 'key' : 'value';
        } else fail(`unexpected ${show()}, expected ',' or '${close}'`);
      }
    }
    if (i < text.length) fail(`unexpected ${show()} after the end of the JSON value`);
    return undefined;
  } catch (error) {
    if (error instanceof JsonSyntax) return { offset: error.offset, message: error.message };
    throw error;
  }
}

class JsonSyntax extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

/** 1-based line and column of an offset. */
export function lineCol(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      start = i + 1;
    }
  }
  return { line, col: Math.min(offset, text.length) - start + 1 };
}
