import { describe, expect, it } from 'vitest';
import { BatchLog } from '../src/sim/log/batchLog';
import type { Headers, RecordBatch } from '../src/sim/log/recordBatch';

function batch(base: number, n: number, extra: Partial<RecordBatch> = {}, value = (o: number) => `v${o}`): RecordBatch {
  return {
    baseOffset: base,
    lastOffset: base + n - 1,
    producerId: 7,
    producerEpoch: 0,
    baseSequence: base,
    lastSequence: base + n - 1,
    isTransactional: false,
    isControl: false,
    controlType: null,
    records: Array.from({ length: n }, (_, i) => ({
      key: `k${base + i}`,
      value: value(base + i),
      headers: (i === 0 ? { event_id: `e${base}` } : {}) as Headers,
      timestamp: 1000 + base + i + 0.5,
      origin: { client: 'source', ref: base + i },
      offset: base + i,
    })),
    appendTime: 2000 + base,
    ...extra,
  };
}

/** Same fields, same order, same values: what a hash of a payload or a golden file would see. */
const text = (b: unknown) => JSON.stringify(b);

describe('BatchLog', () => {
  it('gives back each batch as it was appended, keys in their order, optional fields included', () => {
    const items = [
      batch(0, 3),
      batch(3, 1, { partitionLeaderEpoch: 2 }),
      batch(4, 2, { deleteHorizonMs: 99, partitionLeaderEpoch: 3 }),
      {
        ...batch(6, 1),
        isControl: true,
        controlType: 'ABORT' as const,
        records: [{ offset: 6, key: null, value: null, headers: {}, timestamp: 5 }],
      },
    ];
    let log = BatchLog.empty();
    for (const b of items) log = log.append(b);
    expect(log.length).toBe(4);
    expect(log.toArray().map(text)).toEqual(items.map(text));
    expect(log.toArray()).toEqual(items);
    expect(text(log.last())).toBe(text(items[3]));
    expect(log.at(4)).toBeUndefined();
    expect(log.at(-1)).toBeUndefined();
  });

  it('finds batches by offset without reading them, as lowerBound does', () => {
    let log = BatchLog.empty();
    for (let base = 0; base < 50; base += 5) log = log.append(batch(base, 3)); // gaps, as after cleaning
    for (let o = -1; o <= 52; o++) expect(log.indexAtOrAfter(o)).toBe(log.lowerBound((b) => b.lastOffset >= o));
    expect(log.lastOffsetAt(2)).toBe(12);
  });

  it('keeps old versions unchanged: a truncated or older version that appends copies its rows', () => {
    let log = BatchLog.empty();
    for (let i = 0; i < 10; i++) log = log.append(batch(i * 2, 2));
    const before = log.toArray().map(text);
    const cut = log.take(4);
    const forked = cut.append(batch(8, 1, {}, () => 'other'));
    const grown = log.append(batch(20, 2));
    expect(log.toArray().map(text)).toEqual(before);
    expect(cut.length).toBe(4);
    expect(forked.toArray().map(text)).toEqual([...before.slice(0, 4), text(batch(8, 1, {}, () => 'other'))]);
    expect(grown.toArray().map(text)).toEqual([...before, text(batch(20, 2))]);
    expect(log.take(99)).toBe(log);
  });

  it('a batch read from one log and appended to another reads back the same (a follower copy)', () => {
    let leader = BatchLog.empty();
    for (let i = 0; i < 5; i++) leader = leader.append(batch(i * 3, 3, { partitionLeaderEpoch: 1 }));
    let follower = BatchLog.empty();
    for (const b of leader) follower = follower.append(b);
    follower = follower.append(batch(15, 1, { partitionLeaderEpoch: 2 }));
    expect(follower.toArray().slice(0, 5).map(text)).toEqual(leader.toArray().map(text));
    expect(text(follower.at(5))).toBe(text(batch(15, 1, { partitionLeaderEpoch: 2 })));
  });

  it('stays readable across its byte chunks, in every version', () => {
    const long = (o: number) => `${'x'.repeat(300)}${o}`;
    let log = BatchLog.empty();
    const versions: BatchLog[] = [];
    for (let i = 0; i < 2000; i++) {
      log = log.append(batch(i * 2, 2, {}, long));
      if (i % 500 === 0) versions.push(log);
    }
    for (const v of versions) expect(text(v.last())).toBe(text(batch((v.length - 1) * 2, 2, {}, long)));
    expect(text(log.at(1999))).toBe(text(batch(3998, 2, {}, long)));
    expect(text(log.at(0))).toBe(text(batch(0, 2, {}, long)));
  });

  it('a batch read again soon is the object read before; a truncated and regrown log reads its own', () => {
    let log = BatchLog.empty();
    for (let i = 0; i < 40; i++) log = log.append(batch(i, 1));
    expect(log.at(3)).toBe(log.at(3));
    const regrown = log.take(3).append(batch(3, 1, {}, () => 'new'));
    expect(regrown.at(3)?.records[0]?.value).toBe('new');
    expect(log.at(3)?.records[0]?.value).toBe('v3');
  });

  it('with() and of() rebuild a log of the given batches', () => {
    let log = BatchLog.empty();
    for (let i = 0; i < 3; i++) log = log.append(batch(i, 1));
    const edited = log.with(
      1,
      batch(1, 1, {}, () => 'edited'),
    );
    expect(edited.at(1)?.records[0]?.value).toBe('edited');
    expect(log.at(1)?.records[0]?.value).toBe('v1');
    expect(BatchLog.of([batch(0, 2)]).toArray()).toEqual([batch(0, 2)]);
  });
});
