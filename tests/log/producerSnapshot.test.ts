/**
 * Producer state snapshots and a restart's reload (ProducerStateManager.takeSnapshot,
 * truncateAndReload, loadFromSnapshot, readSnapshot, removeStraySnapshots; UnifiedLog.roll,
 * rebuildProducerState): the rules one by one, on the log alone.
 */
import { describe, expect, it } from 'vitest';
import { appendMarker, appendProducerBatch, createPartitionLog, type PartitionLog } from '../../src/sim/log/partitionLog';
import { removeExpiredProducers } from '../../src/sim/log/producerExpiration';
import { keptSnapshots, reloadProducerState } from '../../src/sim/log/producerSnapshot';
import { truncateReloading } from '../../src/sim/log/replicaLog';

const DAY = 86400000;

const batch = (producerId: number, baseSequence: number, timestamp: number, isTransactional = false) => ({
  producerId,
  producerEpoch: 0,
  baseSequence,
  isTransactional,
  records: [{ key: 'k', value: 'v', headers: {}, timestamp }],
});

/** A log whose segments roll at every batch after the first (segment.bytes below one record). */
const rollingLog = () => createPartitionLog('orders', 0, 0, { segmentBytes: 1, segmentMs: DAY });

function append(log: PartitionLog, producerId: number, seq: number, t: number, isTransactional = false): PartitionLog {
  const r = appendProducerBatch(log, batch(producerId, seq, t, isTransactional), t);
  expect(r.outcome.kind).toBe('appended');
  return r.log;
}

describe('producer state snapshots', () => {
  it('a segment roll snapshots the state before the batch that rolled it, at its base offset', () => {
    let log = append(rollingLog(), 1000, 0, 1); // offset 0, first segment: no roll
    expect(log.producerSnapshots).toBeUndefined();
    log = append(log, 1000, 1, 2); // offset 1 rolls a segment
    expect(log.segments.map((s) => s.baseOffset)).toEqual([0, 1]);
    expect(log.producerSnapshots?.map((s) => s.offset)).toEqual([1]);
    // the snapshot holds producer 1000 as of offset 0 only
    expect(log.producerSnapshots?.[0]?.producers.get(1000)?.batches.map((b) => b.lastSeq)).toEqual([0]);
  });

  it('a log that never rolls takes no snapshot', () => {
    let log = createPartitionLog('orders', 0);
    for (let i = 0; i < 4; i++) log = append(log, 1000, i, i + 1);
    expect(log.producerSnapshots).toBeUndefined();
  });

  it('a restart keeps the snapshots at segment bases and the largest other one only if not below the last base', () => {
    let log = append(rollingLog(), 1000, 0, 1);
    log = append(log, 1000, 1, 2); // snapshot at 1 (a base)
    // a reload's snapshot at the log end (2) is not a base: kept while it is the largest and above the last base
    const reloaded = reloadProducerState(log, 3, DAY).log;
    expect(reloaded.producerSnapshots?.map((s) => s.offset)).toEqual([1, 2]);
    expect(keptSnapshots(reloaded).map((s) => s.offset)).toEqual([1, 2]);
    // after the next roll (base 2 — the same offset as the stray: the stray is now a base) and another (base 3)
    let grown = append(reloaded, 1000, 2, 4);
    grown = append(grown, 1000, 3, 5);
    expect(grown.segments.map((s) => s.baseOffset)).toEqual([0, 1, 2, 3]);
    expect(keptSnapshots(grown).map((s) => s.offset)).toEqual([1, 2, 3]);
    // a stray below the last base goes
    const stray = { ...grown, producerSnapshots: [...(grown.producerSnapshots ?? []), { offset: 0.5, producers: new Map() }] };
    expect(
      keptSnapshots({ ...stray, producerSnapshots: [...(stray.producerSnapshots ?? [])].sort((a, b) => a.offset - b.offset) }).map(
        (s) => s.offset,
      ),
    ).toEqual([1, 2, 3]);
  });
});

describe("a restart's reload of the producer state", () => {
  it('with no snapshot, the recovery replays the whole log and the broker loads the snapshot it wrote at the log end: one batch per producer', () => {
    let log = createPartitionLog('orders', 0);
    for (let i = 0; i < 7; i++) log = append(log, 1000, i, i + 1);
    expect(log.producers.get(1000)?.batches).toHaveLength(5);
    const r = reloadProducerState(log, 100, DAY);
    expect(r.snapshotOffset).toBeNull();
    expect(r.replayedFrom).toBe(0);
    // readSnapshot builds one BatchMetadata per producer: the last
    expect(r.log.producers.get(1000)?.batches.map((b) => b.lastSeq)).toEqual([6]);
    expect(r.log.producers.get(1000)?.lastTimestamp).toBe(7);
    expect(r.dropped).toEqual([]);
    expect(r.restored).toEqual([]);
    expect(r.fewerBatches.map((e) => e.producerId)).toEqual([1000]);
    // an earlier batch's retry is now out of order; the last one's is still a duplicate
    expect(appendProducerBatch(r.log, batch(1000, 5, 6), 101).outcome).toMatchObject({
      kind: 'rejected',
      error: 'OUT_OF_ORDER_SEQUENCE_NUMBER',
    });
    expect(appendProducerBatch(r.log, batch(1000, 6, 7), 101).outcome).toMatchObject({ kind: 'duplicate', baseOffset: 6 });
    // and it ends with a snapshot at the log end
    expect(r.log.producerSnapshots?.map((s) => s.offset)).toEqual([7]);
  });

  it('producers with one batch each keep it: nothing to tell', () => {
    const log = append(append(createPartitionLog('orders', 0), 1000, 0, 1), 2000, 0, 2);
    const r = reloadProducerState(log, 100, DAY);
    expect(r.log.producers).toEqual(log.producers);
    expect(r.dropped).toEqual([]);
    expect(r.fewerBatches).toEqual([]);
  });

  it('leaves out a producer an expiration check dropped, though the recovery replayed its batch: the snapshot at the log end is loaded with the expiration filter', () => {
    const log = append(createPartitionLog('orders', 0), 1000, 0, 2);
    const checked = removeExpiredProducers(log, 15000, 10000);
    expect(checked.expired.map((e) => e.producerId)).toEqual([1000]);
    expect(checked.log.producers.has(1000)).toBe(false);
    const r = reloadProducerState(checked.log, 16000, 10000);
    expect(r.log.producers.has(1000)).toBe(false);
    expect(r.restored).toEqual([]);
    expect(r.dropped).toEqual([]);
  });

  it('leaves out a producer idle for producer.id.expiration.ms whose batch is after the latest snapshot, though no check had run', () => {
    let log = append(rollingLog(), 1000, 0, 2); // offset 0
    log = append(log, 2000, 0, 3); // offset 1 rolls: the snapshot at 1 holds 1000
    const r = reloadProducerState(log, 12000, 10000);
    expect(r.snapshotOffset).toBe(1);
    // both idle 10 s: 1000 of the snapshot, 2000 of the active segment the recovery replayed
    expect(r.log.producers.size).toBe(0);
    expect(r.dropped.map((e) => e.producerId).sort()).toEqual([1000, 2000]);
  });

  it("the recovery of the active segment deletes a snapshot above its base (a previous reload's at its log end) and starts from the base's", () => {
    let log = append(rollingLog(), 1000, 0, 1); // offset 0
    log = append(log, 1000, 1, 2); // rolls at 1: snapshot at 1
    // a reload at the log end (2) takes a snapshot there, a stray above the active segment's base
    const first = reloadProducerState(log, 3, DAY).log;
    expect(first.producerSnapshots?.map((s) => s.offset)).toEqual([1, 2]);
    // the active segment grows without a roll (one big segment from here)
    const grown = append({ ...first, segmentConfig: { ...first.segmentConfig, segmentBytes: 1073741824 } }, 1000, 2, 4);
    expect(grown.segments.map((s) => s.baseOffset)).toEqual([0, 1]);
    const r = reloadProducerState(grown, 5, DAY);
    expect(r.snapshotOffset).toBe(1);
    expect(r.replayedFrom).toBe(1);
    expect(r.log.producerSnapshots?.map((s) => s.offset)).toEqual([1, 3]);
  });

  it('does not use a snapshot at or below the log start (truncateAndReload deletes it)', () => {
    let log = append(rollingLog(), 1000, 0, 1); // offset 0
    log = append(log, 1000, 1, 2); // rolls at 1: snapshot at 1
    const r = reloadProducerState({ ...log, logStartOffset: 1 }, 3, DAY);
    expect(r.snapshotOffset).toBeNull();
    expect(r.replayedFrom).toBe(1);
    expect(r.log.producerSnapshots?.map((s) => s.offset)).toEqual([2]);
  });

  it('leaves out a producer of the snapshot idle for producer.id.expiration.ms, though no check had run', () => {
    let log = append(rollingLog(), 1000, 0, 2); // offset 0
    log = append(log, 2000, 0, 9000); // offset 1 rolls: snapshot at 1 holds 1000 (last batch at 2 ms)
    expect(log.producers.has(1000)).toBe(true);
    const r = reloadProducerState(log, 12000, 10000);
    expect(r.snapshotOffset).toBe(1);
    expect(r.replayedFrom).toBe(1);
    expect([...r.log.producers.keys()]).toEqual([2000]);
    expect(r.dropped.map((e) => e.producerId)).toEqual([1000]);
    // a retry of 1000's batch now meets no state and is appended again
    const retry = appendProducerBatch(r.log, batch(1000, 0, 2), 12001);
    expect(retry.outcome).toMatchObject({ kind: 'appended', baseOffset: 2 });
    // before the restart the same retry was a duplicate
    expect(appendProducerBatch(log, batch(1000, 0, 2), 12001).outcome).toMatchObject({ kind: 'duplicate', baseOffset: 0 });
  });

  it('a producer loaded from a snapshot keeps only its last batch: an earlier retry is out of order, not a duplicate', () => {
    let log = append(rollingLog(), 1000, 0, 1);
    log = append(log, 1000, 1, 2);
    log = append(log, 1000, 2, 3); // rolls at 2: the snapshot holds the state before offset 2 (sequences 0 and 1)
    log = append(log, 2000, 0, 4); // rolls at 3: the snapshot holds 1000's batches 0–2
    const r = reloadProducerState(log, 5, DAY);
    expect(r.snapshotOffset).toBe(3);
    expect(r.log.producers.get(1000)?.batches.map((b) => b.lastSeq)).toEqual([2]);
    expect(r.fewerBatches.map((e) => e.producerId)).toEqual([1000]);
    expect(appendProducerBatch(r.log, batch(1000, 2, 3), 6).outcome).toMatchObject({ kind: 'duplicate', baseOffset: 2 });
    expect(appendProducerBatch(r.log, batch(1000, 1, 2), 6).outcome).toMatchObject({
      kind: 'rejected',
      error: 'OUT_OF_ORDER_SEQUENCE_NUMBER',
    });
    // the broker before the restart still knew sequence 1
    expect(appendProducerBatch(log, batch(1000, 1, 2), 6).outcome).toMatchObject({ kind: 'duplicate', baseOffset: 1 });
  });

  it('keeps an open transaction of the snapshot (never expired) and replays the markers after it', () => {
    let log = append(rollingLog(), 7, 0, 1, true); // offset 0, a transaction opens
    log = append(log, 8, 0, 2); // rolls at 1: 7's transaction open in the snapshot
    const r = reloadProducerState(log, 3 * DAY, 10000);
    expect(r.log.producers.get(7)?.currentTxnFirstOffset).toBe(0);
    // 8, as idle, is left out: the snapshot at the log end is loaded with the expiration filter
    expect([...r.log.producers.keys()]).toEqual([7]);
    expect(r.dropped.map((e) => e.producerId)).toEqual([8]);
    const committed = appendMarker(log, { producerId: 7, producerEpoch: 0, controlType: 'COMMIT', coordinatorEpoch: 0 }, 5).log;
    const after = reloadProducerState(committed, 6, DAY);
    expect(after.log.producers.get(7)?.currentTxnFirstOffset).toBeNull();
  });

  it('drops the verification entries, which lived only in memory', () => {
    const log = append(createPartitionLog('orders', 0), 1000, 0, 1);
    const withEntry: PartitionLog = {
      ...log,
      verificationStates: new Map([[9, { guard: 1, lowestSequence: 0, epoch: 0, timestamp: 1 }]]),
    };
    expect(reloadProducerState(withEntry, 2, DAY).log.verificationStates.size).toBe(0);
  });

  it('a truncation deletes the snapshots past its new end, reloads from the latest left, and takes one at its end', () => {
    let log = append(rollingLog(), 1000, 0, 1);
    log = append(log, 1000, 1, 2); // snapshot at 1
    log = append(log, 1000, 2, 3); // snapshot at 2 (1000 with sequences 0 and 1)
    log = append(log, 1000, 3, 4); // snapshot at 3
    const { log: cut, reload } = truncateReloading({ ...log, epochs: [] }, 2, 5, DAY);
    expect(cut.producerSnapshots?.map((s) => s.offset)).toEqual([1, 2]);
    // truncateAndReload loads the snapshot at 2, which keeps 1000's last batch only
    expect(reload).toMatchObject({ snapshotOffset: 2, replayedFrom: 2, dropped: [] });
    expect(cut.producers.get(1000)?.batches.map((b) => b.lastSeq)).toEqual([1]);
    expect(reload?.fewerBatches.map((e) => e.producerId)).toEqual([1000]);
    // the old rule, a replay of the whole log left, would have kept both batches
    expect(
      truncateReloading({ ...log, epochs: [], producerSnapshots: [] }, 2, 5, DAY)
        .log.producers.get(1000)
        ?.batches.map((b) => b.lastSeq),
    ).toEqual([0, 1]);
  });

  it("a truncation's reload leaves out a producer of the snapshot idle for producer.id.expiration.ms", () => {
    let log = append(rollingLog(), 1000, 0, 2); // offset 0
    log = append(log, 2000, 0, 9000); // rolls at 1: the snapshot holds 1000
    log = append(log, 2000, 1, 9500); // rolls at 2
    const { log: cut, reload } = truncateReloading({ ...log, epochs: [] }, 2, 12000, 10000);
    expect(reload).toMatchObject({ snapshotOffset: 2 });
    expect(reload?.dropped.map((e) => e.producerId)).toEqual([1000]);
    expect([...cut.producers.keys()]).toEqual([2000]);
    // nothing cut: no reload
    expect(truncateReloading(log, 3, 12000, 10000).reload).toBeNull();
  });

  it('a truncation whose state was empty before (isEmptyBeforeTruncation) loads the snapshot and replays nothing', () => {
    let log = append(rollingLog(), 1000, 0, 1); // offset 0
    log = append(log, 2000, 0, 2); // rolls at 1: snapshot at 1 (1000)
    log = { ...log, segmentConfig: { ...log.segmentConfig, segmentBytes: 1073741824 } }; // no more rolls
    log = append(log, 2000, 1, 3); // offset 2
    log = append(log, 3000, 0, 4); // offset 3
    // an expiration check at 20 s drops every producer
    const checked = removeExpiredProducers(log, 20000, 10000).log;
    expect(checked.producers.size).toBe(0);
    const { log: cut, reload } = truncateReloading({ ...checked, epochs: [] }, 3, 20001, 10000);
    expect(reload).toMatchObject({ snapshotOffset: 1, replayedFrom: 1 });
    // the snapshot's producer is expired: nothing loaded, and 2000's batches at offsets 1 and 2 are not replayed
    expect(cut.producers.size).toBe(0);
    expect(cut.producerSnapshots?.map((x) => x.offset)).toEqual([1, 3]);
    // with a producer alive before, the same truncation replays the batches after the snapshot
    const alive = append(checked, 4000, 0, 20000);
    const replayed = truncateReloading({ ...alive, epochs: [] }, 3, 20001, 10000).log;
    expect([...replayed.producers.keys()]).toEqual([2000]);
  });
});
