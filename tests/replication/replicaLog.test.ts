/**
 * The log under replication, tested directly: LeaderEpochFileCache (assign, endOffsetFor,
 * truncateFromEnd), UnifiedLog.appendAsFollower and truncateTo.
 */
import { describe, expect, it } from 'vitest';
import { assignEpoch, endOffsetFor, truncateEpochsFromEnd } from '../../src/sim/log/leaderEpochCache';
import { appendMarker, appendProducerBatch, createPartitionLog, type PartitionLog } from '../../src/sim/log/partitionLog';
import type { ProducedBatch, RecordBatch } from '../../src/sim/log/recordBatch';
import {
  appendAsFollower,
  asReplicatedLog,
  assignEpochStartOffset,
  lastFetchedEpoch,
  truncateTo,
  withHighWatermark,
} from '../../src/sim/log/replicaLog';
import { producedBatch as batch } from '../fixtures/producedBatch';

function leaderLog(): PartitionLog {
  return assignEpochStartOffset(asReplicatedLog(createPartitionLog('t', 0)), 0);
}

function append(log: PartitionLog, b: ProducedBatch): PartitionLog {
  return appendProducerBatch(log, b, 0).log;
}

describe('LeaderEpochFileCache', () => {
  const cache = [
    { epoch: 0, startOffset: 0 },
    { epoch: 2, startOffset: 5 },
    { epoch: 3, startOffset: 9 },
  ];

  it("endOffsetFor: the LEO for the latest epoch, else the next higher epoch's start with the largest epoch ≤ the requested", () => {
    expect(endOffsetFor(cache, 3, 12)).toEqual({ epoch: 3, endOffset: 12 });
    expect(endOffsetFor(cache, 2, 12)).toEqual({ epoch: 2, endOffset: 9 });
    // epoch 1 never wrote here: the largest lower epoch (0) and the start of epoch 2
    expect(endOffsetFor(cache, 1, 12)).toEqual({ epoch: 0, endOffset: 5 });
    expect(endOffsetFor(cache, 4, 12)).toEqual({ epoch: -1, endOffset: -1 });
    expect(endOffsetFor(cache, -1, 12)).toEqual({ epoch: -1, endOffset: -1 });
    expect(endOffsetFor([{ epoch: 2, startOffset: 3 }], 1, 8)).toEqual({ epoch: 1, endOffset: 3 });
  });

  it('assign adds a new epoch, keeps the latest one again, and removes entries it conflicts with', () => {
    expect(assignEpoch(cache, 4, 12)).toEqual([...cache, { epoch: 4, startOffset: 12 }]);
    expect(assignEpoch(cache, 3, 10)).toBe(cache);
    expect(assignEpoch(cache, 3, 7)).toEqual([cache[0], cache[1], { epoch: 3, startOffset: 7 }]);
  });

  it('truncateFromEnd removes the epochs starting at or after the end', () => {
    expect(truncateEpochsFromEnd(cache, 9)).toEqual([cache[0], cache[1]]);
    expect(truncateEpochsFromEnd(cache, 10)).toBe(cache);
  });
});

describe('a replicated log', () => {
  it('stamps each batch with the leader epoch and leaves the HW where the replication layer puts it', () => {
    let log = append(leaderLog(), batch(7, 0, 2));
    expect(log.logEndOffset).toBe(2);
    expect(log.highWatermark).toBe(0);
    expect(log.batches.at(0)?.partitionLeaderEpoch).toBe(0);
    log = withHighWatermark(log, 5);
    expect(log.highWatermark).toBe(2);
  });

  it('an unreplicated log carries no epoch and its HW follows the LEO, as before replication', () => {
    const log = append(createPartitionLog('t', 0), batch(7, 0, 2));
    expect(log.highWatermark).toBe(2);
    expect(log.batches.at(0)?.partitionLeaderEpoch).toBeUndefined();
    expect(log.epochs).toBeUndefined();
  });

  it("appendAsFollower keeps the leader's offsets and epochs and updates producer state without checks", () => {
    let leader = append(leaderLog(), batch(7, 0, 2));
    leader = assignEpochStartOffset(leader, 1);
    leader = append(leader, batch(7, 2, 1));
    const follower = appendAsFollower(asReplicatedLog(createPartitionLog('t', 0)), leader.batches.toArray());
    expect(follower.logEndOffset).toBe(3);
    expect(follower.batches.toArray().map((b) => [b.baseOffset, b.partitionLeaderEpoch])).toEqual([
      [0, 0],
      [2, 1],
    ]);
    expect(follower.epochs).toEqual([
      { epoch: 0, startOffset: 0 },
      { epoch: 1, startOffset: 2 },
    ]);
    expect(lastFetchedEpoch(follower)).toBe(1);
    expect(follower.producers.get(7)?.batches.map((b) => b.lastSeq)).toEqual([1, 2]);
    // a retry of the last batch on the follower, if it became leader, is a duplicate with the original offset
    const retry = appendProducerBatch(assignEpochStartOffset(follower, 2), batch(7, 2, 1), 6);
    expect(retry.outcome).toEqual({ kind: 'duplicate', baseOffset: 2, lastOffset: 2 });
    // a follower's HW is what the leader says, never above its own LEO
    expect(withHighWatermark(follower, 10).highWatermark).toBe(3);
  });

  it('appendAsFollower of a transaction and its ABORT marker builds the open transaction and the aborted index', () => {
    let leader = append(leaderLog(), batch(9, 0, 1, true));
    leader = appendMarker(leader, { producerId: 9, producerEpoch: 0, controlType: 'ABORT', coordinatorEpoch: 0 }, 0).log;
    const first = appendAsFollower(asReplicatedLog(createPartitionLog('t', 0)), [leader.batches.at(0) as RecordBatch]);
    expect(first.producers.get(9)?.currentTxnFirstOffset).toBe(0);
    const both = appendAsFollower(first, [leader.batches.at(1) as RecordBatch]);
    expect(both.producers.get(9)?.currentTxnFirstOffset).toBeNull();
    expect(both.abortedTxns.toArray().map((a) => [a.firstOffset, a.lastOffset])).toEqual([[0, 1]]);
  });

  it("appendAsFollower and truncateTo take the producer's coordinator epoch from the marker: a new leader fences a zombie coordinator's late marker", () => {
    // ProducerAppendInfo.appendEndTxnMarker: updatedEntry.update(producerEpoch, endTxnMarker.coordinatorEpoch(), …), on every origin
    let leader = append(leaderLog(), batch(9, 0, 1, true));
    leader = appendMarker(leader, { producerId: 9, producerEpoch: 0, controlType: 'COMMIT', coordinatorEpoch: 2 }, 0).log;
    leader = append(leader, batch(9, 1, 1, true));
    const follower = appendAsFollower(asReplicatedLog(createPartitionLog('t', 0)), leader.batches.toArray());
    expect(follower.producers.get(9)?.coordinatorEpoch).toBe(2);
    // the follower, now leader: the old coordinator's (epoch 1) late COMMIT would commit the open transaction too
    const late = { producerId: 9, producerEpoch: 0, controlType: 'COMMIT' as const, coordinatorEpoch: 1 };
    expect(appendMarker(follower, late, 0).outcome).toMatchObject({ kind: 'rejected', error: 'TRANSACTION_COORDINATOR_FENCED' });
    // the same after a truncation replays the log (rebuildProducerState)
    const cut = truncateTo(follower, 2);
    expect(cut.producers.get(9)?.coordinatorEpoch).toBe(2);
    expect(appendMarker(cut, late, 0).outcome).toMatchObject({ kind: 'rejected', error: 'TRANSACTION_COORDINATOR_FENCED' });
    // the marker batch carries it, as the control record's EndTransactionMarker does
    expect(follower.batches.at(1)?.coordinatorEpoch).toBe(2);
  });

  it('truncateTo removes the records, truncates the epoch cache, rebuilds producer state and lowers the HW', () => {
    let log = append(leaderLog(), batch(7, 0, 2));
    log = assignEpochStartOffset(log, 1);
    log = append(log, batch(7, 2, 2));
    log = withHighWatermark(log, 4);
    const cut = truncateTo(log, 2);
    expect(cut.logEndOffset).toBe(2);
    expect(cut.highWatermark).toBe(2);
    expect(cut.batches.toArray().map((b) => b.baseOffset)).toEqual([0]);
    expect(cut.epochs).toEqual([{ epoch: 0, startOffset: 0 }]);
    expect(cut.producers.get(7)?.batches.map((b) => b.lastSeq)).toEqual([1]);
    // the truncated version is a new one: the old log still has its records
    expect(log.logEndOffset).toBe(4);
    const again = append(cut, batch(7, 2, 1));
    expect(again.logEndOffset).toBe(3);
    expect(log.batches.at(1)?.records.length).toBe(2);
    // truncating at or past the end changes nothing
    expect(truncateTo(log, 4)).toBe(log);
  });

  it('truncateTo at the LEO drops an epoch that starts there (a leader that appended nothing in its epoch)', () => {
    // UnifiedLog.truncateTo: "Always truncate epoch cache since we may have a conflicting epoch entry at the end"
    const led = assignEpochStartOffset(append(leaderLog(), batch(7, 0, 1)), 1);
    expect(led.epochs).toEqual([
      { epoch: 0, startOffset: 0 },
      { epoch: 1, startOffset: 1 },
    ]);
    expect(lastFetchedEpoch(led)).toBe(1);
    const cut = truncateTo(led, 1);
    expect(cut.epochs).toEqual([{ epoch: 0, startOffset: 0 }]);
    expect(cut.logEndOffset).toBe(1);
    expect(cut.batches).toBe(led.batches);
    expect(lastFetchedEpoch(cut)).toBe(0);
  });

  it("truncateTo past an open transaction's marker reopens it; before its first batch forgets it", () => {
    let log = append(leaderLog(), batch(9, 0, 1, true));
    log = appendMarker(log, { producerId: 9, producerEpoch: 0, controlType: 'ABORT', coordinatorEpoch: 0 }, 0).log;
    expect(log.abortedTxns.length).toBe(1);
    const reopened = truncateTo(log, 1);
    expect(reopened.producers.get(9)?.currentTxnFirstOffset).toBe(0);
    expect(reopened.abortedTxns.length).toBe(0);
    expect(truncateTo(log, 0).producers.size).toBe(0);
  });
});
