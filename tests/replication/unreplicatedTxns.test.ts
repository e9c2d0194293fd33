/**
 * The LSO holds a finished transaction until its marker is replicated (ProducerStateManager:
 * completeTxn moves it to unreplicatedTxns, onHighWatermarkUpdated removes it once the HW passes
 * the marker; UnifiedLog.lastStableOffset = min(firstUnstableOffset, HW)), tested on the log.
 */
import { describe, expect, it } from 'vitest';
import {
  appendMarker,
  appendProducerBatch,
  createPartitionLog,
  fetchFrom,
  lastStableOffset,
  type PartitionLog,
} from '../../src/sim/log/partitionLog';
import type { ControlType } from '../../src/sim/log/recordBatch';
import { appendAsFollower, asReplicatedLog, assignEpochStartOffset, truncateTo, withHighWatermark } from '../../src/sim/log/replicaLog';
import { producedBatch } from '../fixtures/producedBatch';

const marker = (pid: number, controlType: ControlType) => ({ producerId: pid, producerEpoch: 0, controlType, coordinatorEpoch: 0 });

function leaderLog(): PartitionLog {
  return assignEpochStartOffset(asReplicatedLog(createPartitionLog('t', 0)), 0);
}

/** A replicated leader: producer 7's transaction at offsets 0–2, its COMMIT marker at 3, HW at `hw`. */
function committedAt(hw: number): PartitionLog {
  let log = appendProducerBatch(leaderLog(), producedBatch(7, 0, 3, true), 0).log;
  log = withHighWatermark(log, 3);
  log = appendMarker(log, marker(7, 'COMMIT'), 0).log;
  return withHighWatermark(log, hw);
}

describe('a finished transaction and the LSO on a replicated partition', () => {
  it('the LSO stays at the transaction’s first offset while its marker is at or above the HW', () => {
    const log = committedAt(3);
    expect(log.logEndOffset).toBe(4);
    expect(log.highWatermark).toBe(3);
    expect(lastStableOffset(log)).toBe(0);
    expect(log.unreplicatedTxns).toEqual([{ producerId: 7, firstOffset: 0, lastOffset: 3 }]);
    // a read_committed fetch returns nothing yet: the data is below the HW, the commit is not
    expect(fetchFrom(log, 0, 'read_committed', 100).batches).toEqual([]);
    expect(fetchFrom(log, 0, 'read_uncommitted', 100).batches.length).toBe(1);
  });

  it('once the HW passes the marker, the transaction is stable and read_committed reads it', () => {
    const log = withHighWatermark(committedAt(3), 4);
    expect(lastStableOffset(log)).toBe(4);
    expect('unreplicatedTxns' in log).toBe(false);
    expect(fetchFrom(log, 0, 'read_committed', 100).batches.length).toBe(2);
  });

  it('an aborted transaction holds the LSO the same way', () => {
    let log = appendProducerBatch(leaderLog(), producedBatch(7, 0, 2, true), 0).log;
    log = withHighWatermark(log, 2);
    log = appendMarker(log, marker(7, 'ABORT'), 0).log;
    expect(lastStableOffset(log)).toBe(0);
    expect(lastStableOffset(withHighWatermark(log, 3))).toBe(3);
  });

  it('the earliest of open and unreplicated transactions pins the LSO', () => {
    // producer 7 committed 0–2 (marker 3, not replicated); producer 8 opened a transaction at 4
    let log = committedAt(3);
    log = appendProducerBatch(log, producedBatch(8, 0, 1, true), 0).log;
    log = withHighWatermark(log, 5);
    expect(lastStableOffset(log)).toBe(4);
  });

  it('on a partition with one replica the HW is past the marker as it is appended: nothing is held', () => {
    let log = appendProducerBatch(createPartitionLog('t', 0), producedBatch(7, 0, 3, true), 0).log;
    log = appendMarker(log, marker(7, 'COMMIT'), 0).log;
    expect(log.highWatermark).toBe(4);
    expect(lastStableOffset(log)).toBe(4);
    expect('unreplicatedTxns' in log).toBe(false);
  });

  it('a follower holds it too, until the leader’s HW reaches it past the marker', () => {
    const leader = committedAt(3);
    let follower = asReplicatedLog(createPartitionLog('t', 0));
    // a replica's fetch reads up to the leader's log end, the marker included
    follower = appendAsFollower(follower, [...leader.batches]);
    follower = withHighWatermark(follower, 3);
    expect(lastStableOffset(follower)).toBe(0);
    expect(lastStableOffset(withHighWatermark(follower, 4))).toBe(4);
  });

  it('a truncation rebuilds them: a cut marker leaves the transaction open, a kept one stays unreplicated', () => {
    const log = committedAt(3);
    const cut = truncateTo(log, 3);
    expect(cut.logEndOffset).toBe(3);
    expect('unreplicatedTxns' in cut).toBe(false);
    expect(lastStableOffset(cut)).toBe(0);
    expect(cut.producers.get(7)?.currentTxnFirstOffset).toBe(0);

    const kept = truncateTo(appendProducerBatch(log, producedBatch(9, 0, 1, true), 0).log, 4);
    expect(kept.unreplicatedTxns).toEqual([{ producerId: 7, firstOffset: 0, lastOffset: 3 }]);
    expect(lastStableOffset(kept)).toBe(0);
  });
});

/**
 * The LSO an aborted-transaction index entry records (ProducerStateManager.lastStableOffset(CompletedTxn),
 * read in UnifiedLog.append before completeTxn): the first offset of another producer's open
 * transaction, else the marker's offset + 1 — never capped by the HW. The old model stored the
 * partition's LSO, min(first unstable offset, HW): 1 here, where Kafka writes 2.
 */
describe('the LSO of an aborted-transaction index entry', () => {
  it('is the offset after the ABORT marker on a replicated leader whose HW has not reached it', () => {
    let log = appendProducerBatch(leaderLog(), producedBatch(7, 0, 1, true), 0).log;
    log = withHighWatermark(log, 1);
    log = appendMarker(log, marker(7, 'ABORT'), 0).log;
    expect(log.abortedTxns.at(0)).toEqual({ producerId: 7, firstOffset: 0, lastOffset: 1, lastStableOffset: 2 });
  });

  it('is the first offset of another producer’s transaction still open', () => {
    let log = appendProducerBatch(leaderLog(), producedBatch(7, 0, 1, true), 0).log;
    log = appendProducerBatch(log, producedBatch(8, 0, 1, true), 0).log;
    log = withHighWatermark(log, 2);
    log = appendMarker(log, marker(7, 'ABORT'), 0).log;
    expect(log.abortedTxns.at(0)?.lastStableOffset).toBe(1);
  });
});
