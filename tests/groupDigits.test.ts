import { describe, expect, it } from 'vitest';
import { Prng, seedPrng } from '../src/sim/kernel/prng';
import { groupDigits } from '../src/sim/text/groupDigits';

/** What the page showed before: Intl's grouping for the page's two languages. */
const intl = (n: number, lang: 'en' | 'ko') => n.toLocaleString(lang);

describe('groupDigits — toLocaleString without Intl', () => {
  it('groups integers by three with ","', () => {
    expect(groupDigits(0)).toBe('0');
    expect(groupDigits(999)).toBe('999');
    expect(groupDigits(1000)).toBe('1,000');
    expect(groupDigits(1234567)).toBe('1,234,567');
    expect(groupDigits(-45000)).toBe('-45,000');
    expect(groupDigits(200000)).toBe('200,000');
  });

  it('keeps at most three fraction digits, trailing zeros dropped', () => {
    expect(groupDigits(1234.5)).toBe('1,234.5');
    expect(groupDigits(0.125)).toBe('0.125');
    expect(groupDigits(2.3456)).toBe('2.346');
    expect(groupDigits(7.1)).toBe('7.1');
  });

  it('writes what toLocaleString("en") and ("ko") write, for counts, times and fractions', () => {
    const prng = new Prng(seedPrng(20261202));
    const unit = () => prng.uint32() / 4294967296;
    const values: number[] = [
      0,
      -0,
      1,
      10,
      100,
      1e3,
      1e4,
      1e5,
      1e6,
      123456789,
      2 ** 31,
      Number.MAX_SAFE_INTEGER,
      -1,
      Infinity,
      -Infinity,
      Number.NaN,
    ];
    for (let i = 0; i < 2000; i++) {
      const magnitude = 10 ** Math.floor(unit() * 10);
      const x = unit() * magnitude;
      values.push(Math.floor(x), Math.round(x * 10) / 10, Math.round(x * 100) / 100, -Math.floor(x));
    }
    for (const v of values) {
      expect(groupDigits(v), String(v)).toBe(intl(v, 'en'));
      expect(groupDigits(v), String(v)).toBe(intl(v, 'ko'));
    }
  });
});
