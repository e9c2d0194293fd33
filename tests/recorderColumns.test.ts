import { describe, expect, it } from 'vitest';
import { stringHash } from '../src/sim/kernel/hash';
import { NameTable } from '../src/sim/kernel/nameTable';
import { Recorder } from '../src/sim/kernel/recorder';

const EMPTY: readonly never[] = [];

describe('the recorder’s name columns', () => {
  it('keeps labels, actors and states in 16 bits and widens them all once the name table passes 65,534 names', () => {
    const names = new NameTable(stringHash);
    const rec = new Recorder(names);
    const step = (label: string) =>
      rec.step(0, 'timer', names.id('app'), -1, names.id(label), names.id('idle'), names.id('busy'), null, 0, null, EMPTY, EMPTY);
    step('tick');
    expect(rec.label).toBeInstanceOf(Uint16Array);
    for (let i = 0; names.names.length <= 0x10000; i++) names.id(`name-${i}`);
    step('late-label');
    expect(rec.label).toBeInstanceOf(Uint32Array);
    expect(rec.actor).toBeInstanceOf(Uint32Array);
    expect(names.id('late-label')).toBeGreaterThan(0xffff);
    expect(rec.stepAt(0)?.label).toBe('tick');
    expect(rec.stepAt(1)).toMatchObject({ label: 'late-label', actor: 'app', before: 'idle', after: 'busy' });
  });
});
