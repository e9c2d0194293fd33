/**
 * Reading scenario JSON as text: a leading UTF-8 byte order mark is accepted (editors on Windows
 * write one), and a syntax error is reported with its line and column and what was expected there,
 * in English and Korean. JSON.parse stays the parser; when it refuses a text, this module's small
 * scanner walks the text again (iteratively: deep nesting cannot overflow the stack) to find where
 * and why, because engines word their messages differently and some give only a character offset.
 */

export const BYTE_ORDER_MARK = '\uFEFF';

/** The text without one leading byte order mark. */
export function stripByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export interface JsonSyntaxProblem {
  /** 0-based index into the text (after a stripped byte order mark). */
  readonly offset: number;
  /** 1-based. */
  readonly line: number;
  /** 1-based, in UTF-16 code units from the start of the line. */
  readonly column: number;
  readonly en: string;
  readonly ko: string;
}

interface Want {
  readonly en: string;
  readonly ko: string;
}

const VALUE: Want = {
  en: 'a value (an object, a list, text in double quotes, a number, true, false or null)',
  ko: '값(객체, 목록, 큰따옴표로 감싼 텍스트, 숫자, true, false, null 중 하나)',
};
const KEY: Want = { en: 'a field name in double quotes', ko: '큰따옴표로 감싼 필드 이름' };
const KEY_OR_CLOSE: Want = { en: 'a field name in double quotes or "}"', ko: '큰따옴표로 감싼 필드 이름이나 "}"' };
const VALUE_OR_CLOSE: Want = { en: `${VALUE.en} or "]"`, ko: `${VALUE.ko}이나 "]"` };
const COLON: Want = { en: '":" after the field name', ko: '필드 이름 뒤의 ":"' };
const END: Want = { en: 'the end of the text (the scenario is complete here)', ko: '텍스트의 끝(시나리오는 여기서 끝나야 함)' };
const commaOr = (close: '}' | ']'): Want => ({ en: `"," or "${close}"`, ko: `"," 또는 "${close}"` });

function hex(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** What stands at `i`, for a person: a quoted character, a code point, or the end of the text. */
function found(text: string, i: number): Want {
  if (i >= text.length) return { en: 'the end of the text', ko: '텍스트의 끝' };
  const code = text.codePointAt(i) as number;
  if (code === 0xfeff) return { en: `${hex(code)} (a byte order mark)`, ko: `${hex(code)}(바이트 순서 표시)` };
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029)
    return { en: `the control character ${hex(code)}`, ko: `제어 문자 ${hex(code)}` };
  const ch = String.fromCodePoint(code);
  const quoted = ch === "'" ? `"'"` : `'${ch}'`;
  return { en: quoted, ko: quoted };
}

function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++)
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  return { line, column: offset - lineStart + 1 };
}

function problem(text: string, offset: number, want: Want, what?: Want): JsonSyntaxProblem {
  const { line, column } = position(text, offset);
  const f = what ?? found(text, offset);
  return {
    offset,
    line,
    column,
    en: `not valid JSON at line ${line}, column ${column}: expected ${want.en}, found ${f.en}`,
    ko: `올바른 JSON이 아닙니다(${line}행 ${column}열). 와야 할 것: ${want.ko}. 실제로 있는 것: ${f.ko}.`,
  };
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

/** Scans a string starting at the quote at `start`; returns the index after it, or a problem. */
function scanString(text: string, start: number): number | JsonSyntaxProblem {
  let j = start + 1;
  for (;;) {
    if (j >= text.length)
      return problem(text, j, {
        en: 'a closing double quote (the text ends inside a string)',
        ko: '닫는 큰따옴표(문자열 안에서 텍스트가 끝남)',
      });
    const c = text.charCodeAt(j);
    if (c === 34) return j + 1;
    if (c < 0x20)
      return problem(text, j, {
        en: 'a character allowed inside a string (write a line break as \\n and a tab as \\t)',
        ko: '문자열 안에 쓸 수 있는 문자(줄바꿈은 \\n, 탭은 \\t로 씀)',
      });
    if (c === 92) {
      const e = text[j + 1];
      if (e === 'u') {
        HEX4.lastIndex = j + 2;
        if (!HEX4.test(text)) return problem(text, j + 2, { en: 'four hex digits after \\u', ko: '\\u 뒤의 16진수 네 자리' });
        j += 6;
        continue;
      }
      if (e === undefined || !'"\\/bfnrt'.includes(e))
        return problem(text, j + 1, {
          en: 'an escape after the backslash: one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX',
          ko: '백슬래시 뒤의 이스케이프: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX 중 하나',
        });
      j += 2;
      continue;
    }
    j++;
  }
}

/**
 * The first syntax error in a JSON text, or null when the text is valid JSON. Linear in the text's
 * length; nesting is kept on an explicit stack.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxProblem | null {
  const stack: ('{' | '[')[] = [];
  type Expect = 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'colon' | 'comma-or-close' | 'end';
  let expect: Expect = 'value';
  const afterValue = (): Expect => (stack.length ? 'comma-or-close' : 'end');
  let i = 0;
  const n = text.length;
  for (;;) {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
    if (i >= n) {
      if (expect === 'end') return null;
      const want: Record<Exclude<Expect, 'end'>, Want> = {
        value: VALUE,
        'value-or-close': VALUE_OR_CLOSE,
        key: KEY,
        'key-or-close': KEY_OR_CLOSE,
        colon: COLON,
        'comma-or-close': commaOr(stack[stack.length - 1] === '{' ? '}' : ']'),
      };
      return problem(text, i, want[expect], { en: 'the end of the text (it may have been cut off)', ko: '텍스트의 끝(잘렸을 수 있음)' });
    }
    const ch = text[i] as string;
    switch (expect) {
      case 'value':
      case 'value-or-close': {
        if (expect === 'value-or-close' && ch === ']') {
          stack.pop();
          i++;
          expect = afterValue();
          break;
        }
        if (ch === '{' || ch === '[') {
          stack.push(ch);
          i++;
          expect = ch === '{' ? 'key-or-close' : 'value-or-close';
          break;
        }
        if (ch === '"') {
          const end = scanString(text, i);
          if (typeof end !== 'number') return end;
          i = end;
          expect = afterValue();
          break;
        }
        if (ch === '-' || (ch >= '0' && ch <= '9')) {
          NUMBER.lastIndex = i;
          const m = NUMBER.exec(text);
          if (!m) return problem(text, i + 1, { en: 'a digit', ko: '숫자' });
          i += m[0].length;
          expect = afterValue();
          break;
        }
        const word = ['true', 'false', 'null'].find((w) => text.startsWith(w, i));
        if (word) {
          i += word.length;
          expect = afterValue();
          break;
        }
        return problem(text, i, expect === 'value' ? VALUE : VALUE_OR_CLOSE);
      }
      case 'key':
      case 'key-or-close': {
        if (expect === 'key-or-close' && ch === '}') {
          stack.pop();
          i++;
          expect = afterValue();
          break;
        }
        if (ch !== '"') return problem(text, i, expect === 'key' ? KEY : KEY_OR_CLOSE);
        const end = scanString(text, i);
        if (typeof end !== 'number') return end;
        i = end;
        expect = 'colon';
        break;
      }
      case 'colon':
        if (ch !== ':') return problem(text, i, COLON);
        i++;
        expect = 'value';
        break;
      case 'comma-or-close': {
        const top = stack[stack.length - 1] as '{' | '[';
        const close = top === '{' ? '}' : ']';
        if (ch === ',') {
          i++;
          expect = top === '{' ? 'key' : 'value';
        } else if (ch === close) {
          stack.pop();
          i++;
          expect = afterValue();
        } else return problem(text, i, commaOr(close));
        break;
      }
      case 'end':
        return problem(text, i, END);
    }
  }
}

export type JsonParse = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: JsonSyntaxProblem };

/** JSON.parse after a leading byte order mark is dropped; a refusal comes back with its line and column. */
export function parseJsonText(text: string): JsonParse {
  const body = stripByteOrderMark(text);
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (e) {
    const found = findJsonSyntaxError(body);
    if (found) return { ok: false, problem: found };
    // valid by the grammar, refused by the engine (e.g. nesting deeper than it allows)
    const message = (e as Error).message;
    return {
      ok: false,
      problem: {
        offset: 0,
        line: 1,
        column: 1,
        en: `not valid JSON: ${message}`,
        ko: `JSON으로 읽을 수 없습니다: ${message}`,
      },
    };
  }
}
