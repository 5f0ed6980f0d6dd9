/**
 * Where JSON text first stops being JSON, as an offset; undefined when it is JSON. Node 20's JSON.parse says "at
 * position N" for some errors only ("Unexpected token ']', …" has none), and a dice file's error must name its line:
 * this small scanner finds the offset for every error, pointing at the character that cannot stand there.
 */
export function jsonErrorPosition(text: string): number | undefined {
  let i = 0;
  const fail = (): never => {
    throw new JsonStop(i);
  };
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const literal = (word: string): void => {
    for (const c of word) {
      if (text[i] !== c) fail();
      i++;
    }
  };
  const string = (): void => {
    i++;
    for (;;) {
      const c = text[i];
      if (c === undefined || c < ' ') fail();
      if (c === '"') return void i++;
      if (c === '\\') {
        i++;
        if (text[i] === 'u') {
          for (let k = 0; k < 4; k++) {
            i++;
            if (!/[0-9a-fA-F]/.test(text[i] ?? '')) fail();
          }
        } else if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) fail();
      }
      i++;
    }
  };
  const digits = (): void => {
    if (!/[0-9]/.test(text[i] ?? '')) fail();
    while (/[0-9]/.test(text[i] ?? '')) i++;
  };
  const number = (): void => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
  };
  // Each container's items: a value (or, in an object, a key and a value) then "," or the closing bracket.
  const items = (close: string, item: () => void): void => {
    i++;
    ws();
    if (text[i] === close) return void i++;
    for (;;) {
      ws();
      item();
      ws();
      if (text[i] === close) return void i++;
      if (text[i] !== ',') fail();
      i++;
    }
  };
  const value = (): void => {
    const c = text[i];
    if (c === '{') {
      items('}', () => {
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        ws();
        value();
      });
    } else if (c === '[') items(']', value);
    else if (c === '"') string();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) number();
    else fail();
  };
  try {
    ws();
    value();
    ws();
    if (i < text.length) fail();
    return undefined;
  } catch (e) {
    if (e instanceof JsonStop) return e.position;
    // Nesting deeper than the stack (a hostile file): no position to give.
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}

class JsonStop {
  constructor(readonly position: number) {}
}
