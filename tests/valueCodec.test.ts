/** The facts codec: values round-trip, and the string table does not grow with the run. */
import { describe, expect, it } from 'vitest';
import { ByteStore, ValueReader, ValueTables, writeValue } from '../src/sim/kernel/valueCodec';

function writeAll(values: readonly unknown[]): { store: ByteStore; tables: ValueTables; starts: number[] } {
  const store = new ByteStore();
  const tables = new ValueTables();
  const slot = tables.newSlot();
  const starts: number[] = [];
  for (const v of values) {
    starts.push(store.length);
    writeValue(store, tables, v, slot);
  }
  return { store, tables, starts };
}

describe('valueCodec', () => {
  it('interns a field whose values repeat: one string, written as an id', () => {
    const facts = Array.from({ length: 1000 }, (_, i) => ({ topic: 'orders', partition: i % 3 }));
    const { store, tables } = writeAll(facts);
    expect(tables.strings.filter((s) => s === 'orders')).toHaveLength(1);
    // a byte for the shape, one for the topic's id, one for the partition
    expect(store.length).toBeLessThan(facts.length * 4);
  });

  it("stops adding a field's strings when they keep coming new, even if each is met a few times", () => {
    // a record's key, met five times (sent, appended, delivered, polled, processed) and never again
    const facts: { key: string; step: string }[] = [];
    for (let r = 0; r < 20000; r++)
      for (const step of ['send', 'append', 'deliver', 'poll', 'process']) facts.push({ key: `order-${r}`, step });
    const { store, tables, starts } = writeAll(facts);
    const keys = tables.strings.filter((s) => s.startsWith('order-')).length;
    expect(keys).toBeGreaterThan(0);
    expect(keys).toBeLessThanOrEqual(4097);
    // and every value reads back, interned or inline
    for (const i of [0, 4, 5, 20484, 99999]) expect(new ValueReader(store.bytes, tables, starts[i]).value()).toEqual(facts[i]);
  });
});
