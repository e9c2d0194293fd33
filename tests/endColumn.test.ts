/** The recorder's column of running ends: 2 bytes a row, widened when a block runs far past its base. */
import { describe, expect, it } from 'vitest';
import { EndColumn } from '../src/sim/kernel/endColumn';

describe('EndColumn', () => {
  it('gives back every value written, across blocks, with big jumps, after a resize and a trim', () => {
    const values: number[] = [];
    let v = 0;
    for (let i = 0; i < 1000; i++) {
      v += i % 97 === 0 ? 70000 : i % 3;
      values.push(v);
    }
    let c = new EndColumn(16);
    for (let i = 0; i < values.length; i++) {
      if (i === c.capacity) c = c.resized(i, c.capacity * 2);
      c.set(i, values[i] as number);
    }
    expect(values.map((_, i) => c.get(i))).toEqual(values);
    const trimmed = c.resized(values.length, values.length);
    expect(values.map((_, i) => trimmed.get(i))).toEqual(values);
    // a prefix (a fork's) goes on from where it was cut
    const prefix = c.resized(130, 256);
    prefix.set(130, (values[129] as number) + 1);
    expect(prefix.get(129)).toBe(values[129]);
    expect(prefix.get(130)).toBe((values[129] as number) + 1);
  });

  it('keeps 2 bytes a row while a block stays within 65,535 of its base', () => {
    const c = new EndColumn(1024);
    for (let i = 0; i < 1024; i++) c.set(i, i * 1000);
    expect(c.byteLength).toBe(1024 * 2 + 16 * 4);
    c.set(1023, 1022 * 1000 + 70000);
    expect(c.byteLength).toBe(1024 * 4 + 16 * 4);
    expect(c.get(1022)).toBe(1022000);
  });
});
