/**
 * A log opened again after a clean shutdown (UnifiedLog.close → ProducerStateManager.takeSnapshot at
 * the log end, only above the last snapshot; LogLoader.load with the clean shutdown file: no
 * recoverLog, rebuildProducerState(…, reloadFromCleanShutdown) loads the latest snapshot —
 * truncateAndReload: readSnapshot's one batch per producer, loadFromSnapshot's expiry filter — with
 * nothing after it to replay).
 */
import { describe, expect, it } from 'vitest';
import { appendProducerBatch, createPartitionLog, type PartitionLog } from '../../src/sim/log/partitionLog';
import { reloadAfterCleanShutdown } from '../../src/sim/log/producerSnapshot';

const DAY = 86400000;

function append(log: PartitionLog, producerId: number, seq: number, t: number): PartitionLog {
  const r = appendProducerBatch(
    log,
    {
      producerId,
      producerEpoch: 0,
      baseSequence: seq,
      isTransactional: false,
      records: [{ key: 'k', value: 'v', headers: {}, timestamp: t }],
    },
    t,
  );
  expect(r.outcome.kind).toBe('appended');
  return r.log;
}

describe('the producer state after a clean shutdown', () => {
  it('is the snapshot its close wrote at the log end: nothing replayed, one batch per producer', () => {
    let log = createPartitionLog('orders', 0);
    for (let i = 0; i < 7; i++) log = append(log, 1000, i, i + 1);
    log = append(log, 2000, 0, 8);
    expect(log.producers.get(1000)?.batches).toHaveLength(5);
    const r = reloadAfterCleanShutdown(log, 100, DAY);
    expect(r.snapshotOffset).toBe(8);
    expect(r.replayedFrom).toBe(8);
    expect(r.log.producerSnapshots?.map((s) => s.offset)).toEqual([8]);
    expect(r.log.producers.get(1000)?.batches.map((b) => b.lastSeq)).toEqual([6]);
    expect(r.log.producers.get(2000)?.batches.map((b) => b.lastSeq)).toEqual([0]);
    expect(r.fewerBatches.map((e) => e.producerId)).toEqual([1000]);
    expect(r.dropped).toEqual([]);
    expect(r.restored).toEqual([]);
  });

  it('leaves out the producers idle for producer.id.expiration.ms when it loads', () => {
    let log = createPartitionLog('orders', 0);
    log = append(log, 1000, 0, 1);
    log = append(log, 2000, 0, DAY);
    const r = reloadAfterCleanShutdown(log, DAY + 2, DAY);
    expect([...r.log.producers.keys()]).toEqual([2000]);
    expect(r.dropped.map((e) => e.producerId)).toEqual([1000]);
  });

  it('takes no second snapshot at an offset it already has one for (takeSnapshot only above the last)', () => {
    let log = createPartitionLog('orders', 0);
    log = append(log, 1000, 0, 1);
    const first = reloadAfterCleanShutdown(log, 2, DAY).log;
    const again = reloadAfterCleanShutdown(first, 3, DAY);
    expect(again.log.producerSnapshots?.map((s) => s.offset)).toEqual([1]);
    expect(again.log.producers.get(1000)?.batches.map((b) => b.lastSeq)).toEqual([0]);
  });
});
