/** The checkpoint state codec gives back values every handler treats as the originals. */
import { describe, expect, it } from 'vitest';
import { StateReader, StateSharing, StateWriter } from '../src/sim/kernel/stateCodec';
import { ByteStore, ValueTables } from '../src/sim/kernel/valueCodec';
import { AppendLog } from '../src/sim/log/appendLog';

function roundTrip<T>(v: T): { back: T; refs: readonly unknown[]; bytes: number } {
  const store = new ByteStore();
  const tables = new ValueTables();
  const w = new StateWriter(store, tables);
  w.write(v);
  const r = new StateReader(store.bytes, tables, w.refs, 0);
  const back = r.read() as T;
  expect(r.pos).toBe(store.length);
  return { back, refs: w.refs, bytes: store.length };
}

describe('stateCodec', () => {
  it('keeps numbers JSON loses: -0, NaN, infinities, fractions and large integers', () => {
    const { back } = roundTrip([-0, 0, Number.NaN, Number.POSITIVE_INFINITY, -1.5, 2 ** 40, -(2 ** 40), 134217727, -134217728]);
    expect(Object.is(back[0], -0)).toBe(true);
    expect(Object.is(back[1], 0)).toBe(true);
    expect(back.slice(2)).toEqual([Number.NaN, Number.POSITIVE_INFINITY, -1.5, 2 ** 40, -(2 ** 40), 134217727, -134217728]);
  });

  it('keeps key order, undefined values, a __proto__ key, Maps and Sets in their order', () => {
    const o = JSON.parse('{"b":1,"a":"x","__proto__":{"c":true}}') as Record<string, unknown>;
    o.u = undefined;
    const m = new Map<unknown, unknown>([
      [3, 'three'],
      ['k', { n: null }],
      [1, undefined],
    ]);
    const s = new Set(['z', 'a', 2]);
    const { back } = roundTrip({ o, m, s });
    expect(Object.keys(back.o)).toEqual(['b', 'a', '__proto__', 'u']);
    expect('u' in back.o).toBe(true);
    expect(Object.getPrototypeOf(back.o)).toBe(Object.prototype);
    expect(back.o.__proto__).toEqual({ c: true });
    expect(back.m).toBeInstanceOf(Map);
    expect([...back.m]).toEqual([...m]);
    expect(back.s).toBeInstanceOf(Set);
    expect([...back.s]).toEqual([...s]);
  });

  it('decodes an object met twice as one object (shared structure stays shared)', () => {
    const envelope = { id: 7, payload: { records: ['a', 'b'] } };
    const { back } = roundTrip({ queue: [{ envelope }], open: new Map([[7, envelope]]), again: envelope.payload });
    expect(back.queue[0]?.envelope).toBe(back.open.get(7));
    expect(back.again).toBe(back.open.get(7)?.payload);
    expect(back.queue[0]?.envelope).not.toBe(envelope);
    expect(back.queue[0]?.envelope).toEqual(envelope);
  });

  it('keeps class instances, functions and holey arrays by reference', () => {
    const log = AppendLog.empty<number>().append(1).append(2);
    const f = () => 1;
    const holey: number[] = [1];
    holey[2] = 3;
    class Point {
      constructor(readonly x: number) {}
    }
    const p = new Point(1);
    const { back, refs } = roundTrip({ log, f, holey, p, plain: [log] });
    expect(back.log).toBe(log);
    expect(back.plain[0]).toBe(log);
    expect(back.f).toBe(f);
    expect(back.holey).toBe(holey);
    expect(back.p).toBe(p);
    expect(refs).toHaveLength(5);
  });

  it('writes repeated field values as interned strings and keys once per shape', () => {
    const rows = Array.from({ length: 200 }, (_, i) => ({ topic: 'input', partition: 0, key: `k${i}` }));
    const { back, bytes } = roundTrip(rows);
    expect(back).toEqual(rows);
    // about a byte for the shape, one for the topic, one for the partition and the key's characters
    expect(bytes).toBeLessThan(200 * 10);
  });
  it('writes an object once per store: a later encoding refers back to it and decodes by itself', () => {
    const store = new ByteStore();
    const tables = new ValueTables();
    const sharing = new StateSharing();
    // two checkpoints of one run: the pending records and an idle actor's context are unchanged
    const pending = Array.from({ length: 50 }, (_, i) => ({ key: `k${i}`, value: `v${i}`, headers: { event_id: `e${i}` } }));
    const idle = { state: 'idle', members: new Map([['c1', { generation: 3 }]]) };
    const first = { step: 256, producer: { pending, epoch: 0 }, group: idle };
    const second = { step: 512, producer: { pending, epoch: 1 }, group: idle, again: pending[7] };
    new StateWriter(store, tables, sharing).writeShared(first);
    const firstBytes = store.length;
    const start = store.length;
    new StateWriter(store, tables, sharing).writeShared(second);
    const secondBytes = store.length - start;
    // the second encoding writes its new objects and a back-reference to each unchanged one
    expect(secondBytes).toBeLessThan(firstBytes / 10);
    // decoded alone, from its own position (as a packed checkpoint is), it is the value it was
    const back = new StateReader(store.bytes, tables, sharing.refs, start).read() as typeof second;
    expect(back).toStrictEqual(second);
    expect(back.again).toBe(back.producer.pending[7]);
    // the same with a sharing of its own writes everything again
    const alone = new ByteStore();
    new StateWriter(alone, tables).write(second);
    expect(alone.length).toBeGreaterThan(firstBytes / 2);
  });

  it('keeps a reference met in an earlier encoding valid in a later one', () => {
    const store = new ByteStore();
    const tables = new ValueTables();
    const sharing = new StateSharing();
    const log = AppendLog.empty<number>().append(1);
    const holder = { log, n: 1 };
    new StateWriter(store, tables, sharing).writeShared({ holder });
    const start = store.length;
    new StateWriter(store, tables, sharing).writeShared({ holder, log, m: new Map([[1, holder]]) });
    const back = new StateReader(store.bytes, tables, sharing.refs, start).read() as {
      holder: typeof holder;
      log: typeof log;
      m: Map<number, typeof holder>;
    };
    expect(back.holder.log).toBe(log);
    expect(back.log).toBe(log);
    expect(back.m.get(1)).toBe(back.holder);
  });
});
