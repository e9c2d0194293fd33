import { describe, expect, it } from 'vitest';
import { stringHash } from '../src/sim/kernel/hash';
import { NameTable } from '../src/sim/kernel/nameTable';
import { Recorder } from '../src/sim/kernel/recorder';

const EMPTY: readonly never[] = [];

describe('the recorder’s name columns', () => {
  it('keeps labels, actors and states in 8 bits, then 16, then 32 as the name table passes 254 and 65,534 names', () => {
    const names = new NameTable(stringHash);
    const rec = new Recorder(names);
    const step = (label: string) =>
      rec.step(0, 'timer', names.id('app'), -1, names.id(label), names.id('idle'), names.id('busy'), null, 0, null, EMPTY, EMPTY);
    step('tick');
    expect(rec.label).toBeInstanceOf(Uint8Array);
    for (let i = 0; names.names.length <= 0xff; i++) names.id(`name-${i}`);
    step('later-label');
    expect(rec.label).toBeInstanceOf(Uint16Array);
    expect(rec.before).toBeInstanceOf(Uint16Array);
    expect(names.id('later-label')).toBeGreaterThan(0xff);
    for (let i = 0; names.names.length <= 0x10000; i++) names.id(`name-${i}`);
    step('late-label');
    expect(rec.label).toBeInstanceOf(Uint32Array);
    expect(rec.actor).toBeInstanceOf(Uint32Array);
    expect(names.id('late-label')).toBeGreaterThan(0xffff);
    expect(rec.stepAt(0)?.label).toBe('tick');
    expect(rec.stepAt(1)).toMatchObject({ label: 'later-label', actor: 'app', before: 'idle', after: 'busy' });
    expect(rec.stepAt(2)).toMatchObject({ label: 'late-label', actor: 'app', before: 'idle', after: 'busy' });
  });

  it('keeps times in 32 bits while they are whole ms, and in floats from the first that is not', () => {
    const names = new NameTable(stringHash);
    const rec = new Recorder(names);
    const step = (t: number) =>
      rec.step(t, 'timer', names.id('app'), -1, names.id('tick'), names.id('idle'), names.id('idle'), null, 0, null, EMPTY, EMPTY);
    step(0);
    step(4294967295);
    expect(rec.t).toBeInstanceOf(Uint32Array);
    step(4294967296.5);
    step(7);
    expect(rec.t).toBeInstanceOf(Float64Array);
    expect([0, 1, 2, 3].map((i) => rec.stepAt(i)?.t)).toEqual([0, 4294967295, 4294967296.5, 7]);
    const big = new Recorder(names);
    big.step(2 ** 32, 'timer', names.id('app'), -1, names.id('tick'), names.id('idle'), names.id('idle'), null, 0, null, EMPTY, EMPTY);
    expect(big.stepAt(0)?.t).toBe(2 ** 32);
  });
});
