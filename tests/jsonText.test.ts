/**
 * The JSON syntax diagnosis: it finds an error exactly when JSON.parse refuses the text, at the
 * place the error is, and reads a byte order mark as nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError, parseJsonText, stripByteOrderMark } from '../src/sim/scenario/jsonText';

const parses = (t: string) => {
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
};

describe('findJsonSyntaxError', () => {
  it('agrees with JSON.parse on random JSON, its truncations and random text', () => {
    const jsonish = fc.oneof(
      fc.json({ maxDepth: 4 }),
      fc.json({ maxDepth: 4 }).chain((j) => fc.nat(j.length).map((n) => j.slice(0, n))),
      fc
        .json({ maxDepth: 3 })
        .chain((j) =>
          fc
            .tuple(fc.nat(j.length), fc.constantFrom(',', ']', '}', ':', '"', '\\', '\u0001', ' ', 'x', '-', '.', 'e'))
            .map(([n, c]) => j.slice(0, n) + c + j.slice(n)),
        ),
      fc.string({ unit: 'binary', maxLength: 60 }),
    );
    fc.assert(
      fc.property(jsonish, (t) => (findJsonSyntaxError(t) === null) === parses(t)),
      { numRuns: 4000, seed: 7 },
    );
  });

  it('points at the problem: line, column, what was expected and found', () => {
    expect(findJsonSyntaxError('{"a": 1,}')).toMatchObject({
      offset: 8,
      line: 1,
      column: 9,
      en: expect.stringContaining('expected a field name in double quotes'),
    });
    expect(findJsonSyntaxError('{\n"a" 1}')).toMatchObject({
      line: 2,
      column: 5,
      en: expect.stringContaining('expected ":" after the field name, found \'1\''),
    });
    expect(findJsonSyntaxError('["a\tb"]')).toMatchObject({ column: 4, en: expect.stringContaining('the control character U+0009') });
    expect(findJsonSyntaxError('"\\x"')).toMatchObject({ column: 3, en: expect.stringContaining('an escape after the backslash') });
    expect(findJsonSyntaxError('[1, 2')).toMatchObject({
      en: expect.stringContaining('expected "," or "]", found the end of the text (it may have been cut off)'),
    });
    expect(findJsonSyntaxError('[-]')?.en).toContain('expected a digit');
  });

  it('handles nesting far deeper than a recursive parser could', () => {
    expect(findJsonSyntaxError(`${'['.repeat(200000)}${']'.repeat(200000)}`)).toBeNull();
    expect(findJsonSyntaxError(`${'['.repeat(200000)}${']'.repeat(199999)}`)?.en).toContain('found the end of the text');
  });
});

describe('parseJsonText', () => {
  it('drops one leading byte order mark, and only one', () => {
    expect(stripByteOrderMark('\uFEFF{}')).toBe('{}');
    expect(parseJsonText('\uFEFF{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonText('\uFEFF\uFEFF{}')).toMatchObject({
      ok: false,
      problem: { line: 1, column: 1, en: expect.stringContaining('U+FEFF') },
    });
  });
});
