/**
 * Replica fetching tested directly: the leader's answer (records up to its LEO, DivergingEpoch,
 * fenced epochs) and the follower's truncation and HW (getOffsetTruncationState, processPartitionData).
 */
import { describe, expect, it } from 'vitest';
import { appendProducerBatch, createPartitionLog, type PartitionLog } from '../../src/sim/log/partitionLog';
import type { ProducedBatch } from '../../src/sim/log/recordBatch';
import { asReplicatedLog, assignEpochStartOffset, lastFetchedEpoch, withHighWatermark } from '../../src/sim/log/replicaLog';
import {
  applyReplicaFetchResponse,
  type ReplicaFetchRequest,
  readForFollower,
  truncationOffset,
} from '../../src/sim/replication/followerFetch';

function records(n: number, tag: string): ProducedBatch {
  return {
    producerId: -1,
    producerEpoch: -1,
    baseSequence: -1,
    isTransactional: false,
    records: Array.from({ length: n }, (_, i) => ({ key: null, value: `${tag}${i}`, headers: {}, timestamp: 0 })),
  };
}

function epochLog(parts: [number, number, string][]): PartitionLog {
  let log = asReplicatedLog(createPartitionLog('t', 0));
  for (const [epoch, n, tag] of parts) {
    log = assignEpochStartOffset(log, epoch);
    if (n) log = appendProducerBatch(log, records(n, tag), 0).log;
  }
  return log;
}

function fetch(log: PartitionLog, currentLeaderEpoch: number): ReplicaFetchRequest {
  return {
    topic: 't',
    partition: 0,
    replicaId: 'b1',
    brokerEpoch: 1,
    fetchOffset: log.logEndOffset,
    lastFetchedEpoch: lastFetchedEpoch(log),
    currentLeaderEpoch,
    maxWaitMs: 500,
    maxRecords: 500,
  };
}

describe('the leader reads for a follower', () => {
  it('returns batches up to its LEO, above the HW too (FetchIsolation.LOG_END)', () => {
    const leader = epochLog([[0, 3, 'a']]);
    const r = readForFollower(leader, 0, { ...fetch(epochLog([]), 0), fetchOffset: 0 });
    expect(r.error).toBe('NONE');
    expect(r.batches.map((b) => b.baseOffset)).toEqual([0]);
    expect(r.highWatermark).toBe(0);
  });

  it('refuses a stale or future currentLeaderEpoch', () => {
    const leader = epochLog([
      [0, 1, 'a'],
      [1, 0, ''],
    ]);
    expect(readForFollower(leader, 1, fetch(epochLog([]), 0)).error).toBe('FENCED_LEADER_EPOCH');
    expect(readForFollower(leader, 1, fetch(epochLog([]), 2)).error).toBe('UNKNOWN_LEADER_EPOCH');
  });

  it("answers DivergingEpoch when the follower's last epoch ends earlier here (the old leader's unreplicated tail)", () => {
    // old leader b0 wrote 2 records in epoch 0, then 2 more that b1 never fetched; b1 leads epoch 1 from offset 2
    const oldLeader = epochLog([[0, 2, 'a']]);
    const returning = appendProducerBatch(oldLeader, records(2, 'lost'), 0).log;
    let newLeader = appendProducerBatch(assignEpochStartOffset(epochLog([[0, 2, 'a']]), 1), records(1, 'b'), 0).log;
    newLeader = withHighWatermark(newLeader, 3);
    const r = readForFollower(newLeader, 1, fetch(returning, 1));
    expect(r.divergingEpoch).toEqual({ epoch: 0, endOffset: 2 });
    expect(r.batches).toEqual([]);
    expect(truncationOffset(returning, { epoch: 0, endOffset: 2 })).toEqual({ offset: 2, completed: true });
    const cut = applyReplicaFetchResponse(returning, r);
    expect(cut.truncatedFrom).toBe(2);
    expect(cut.truncated.flatMap((b) => b.records.map((x) => x.value))).toEqual(['lost0', 'lost1']);
    expect(cut.log.logEndOffset).toBe(2);
    // the next fetch gets the new leader's record, and the HW as min(leader HW, own LEO)
    const next = applyReplicaFetchResponse(cut.log, readForFollower(newLeader, 1, fetch(cut.log, 1)));
    expect(next.log.batches.toArray().flatMap((b) => b.records.map((x) => x.value))).toEqual(['a0', 'a1', 'b0']);
    expect(next.log.highWatermark).toBe(3);
    expect(next.log.epochs).toEqual([
      { epoch: 0, startOffset: 0 },
      { epoch: 1, startOffset: 2 },
    ]);
  });

  it('a follower that led an epoch without appending drops that epoch on DivergingEpoch, and its next fetch is answered with records', () => {
    // b1 led epoch 1 and appended nothing (its cache: 0@0, 1@1); b0 leads epoch 2 from offset 1
    const follower = assignEpochStartOffset(epochLog([[0, 1, 'a']]), 1);
    const leader = appendProducerBatch(assignEpochStartOffset(epochLog([[0, 1, 'a']]), 2), records(1, 'b'), 0).log;
    const r = readForFollower(leader, 2, fetch(follower, 2));
    expect(r.divergingEpoch).toEqual({ epoch: 0, endOffset: 1 });
    const out = applyReplicaFetchResponse(follower, r);
    expect(out.truncatedFrom).toBeNull();
    expect(out.log.epochs).toEqual([{ epoch: 0, startOffset: 0 }]);
    const next = readForFollower(leader, 2, fetch(out.log, 2));
    expect(next.divergingEpoch).toBeNull();
    expect(next.batches.flatMap((b) => b.records.map((x) => x.value))).toEqual(['b0']);
  });

  it("a follower that does not know the leader's epoch truncates to the end of its largest lower epoch and asks again", () => {
    const follower = epochLog([
      [0, 2, 'a'],
      [2, 2, 'x'],
    ]);
    expect(truncationOffset(follower, { epoch: 1, endOffset: 3 })).toEqual({ offset: 2, completed: false });
  });

  it("a follower's HW never exceeds its own LEO", () => {
    const leader = withHighWatermark(epochLog([[0, 4, 'a']]), 4);
    const r = readForFollower(leader, 0, { ...fetch(epochLog([]), 0), fetchOffset: 0, maxRecords: 1 });
    const out = applyReplicaFetchResponse(epochLog([]), r);
    expect(out.log.logEndOffset).toBe(4);
    expect(out.log.highWatermark).toBe(4);
    const partial = applyReplicaFetchResponse(epochLog([]), { ...r, highWatermark: 9 });
    expect(partial.log.highWatermark).toBe(4);
  });
});
