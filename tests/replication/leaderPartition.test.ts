/**
 * The leader's partition state, tested directly: Replica.updateFetchStateOrThrow, the HW with strict
 * min ISR and caught-up followers outside the ISR, ISR expand and shrink, AlterPartition answers,
 * and what an acks=all produce gets before and after its append.
 */
import { describe, expect, it } from 'vitest';
import { appendProducerBatch, createPartitionLog, type PartitionLog } from '../../src/sim/log/partitionLog';
import type { ProducedBatch } from '../../src/sim/log/recordBatch';
import { asReplicatedLog, assignEpochStartOffset, withHighWatermark } from '../../src/sim/log/replicaLog';
import {
  becomeLeader,
  checkEnoughReplicasReachOffset,
  effectiveMinIsr,
  isrToExpand,
  isrToShrink,
  type LeaderPartition,
  maximalIsr,
  maybeIncrementLeaderHW,
  notEnoughReplicasBeforeAppend,
  onAlterPartitionResponse,
  proposeIsr,
  updateFollowerFetchState,
} from '../../src/sim/replication/leaderPartition';
import { isCaughtUp, resetReplicaState, updateFetchState } from '../../src/sim/replication/replicaState';

const LAG = 30000;
const all = () => true;

function records(n: number): ProducedBatch {
  return {
    producerId: -1,
    producerEpoch: -1,
    baseSequence: -1,
    isTransactional: false,
    records: Array.from({ length: n }, () => ({ key: null, value: 'v', headers: {}, timestamp: 0 })),
  };
}

function leaderLog(n: number): PartitionLog {
  const log = assignEpochStartOffset(asReplicatedLog(createPartitionLog('t', 0)), 0);
  return n ? appendProducerBatch(log, records(n), 0).log : log;
}

function partition(minIsr = 2, isr = ['b0', 'b1', 'b2']): LeaderPartition {
  return becomeLeader(
    { topic: 't', partition: 0, leader: 'b0', leaderEpoch: 0, partitionEpoch: 0, replicas: ['b0', 'b1', 'b2'], isr },
    minIsr,
    0,
    0,
  );
}

describe('Replica.updateFetchStateOrThrow', () => {
  it("caught up now at the leader's LEO; at the previous fetch's time if it reached the LEO of then; else unchanged", () => {
    let r = resetReplicaState('b1', false, 0);
    r = updateFetchState(r, 5, 5, 100);
    expect(r).toMatchObject({ logEndOffset: 5, lastCaughtUpTimeMs: 100 });
    r = updateFetchState(r, 5, 8, 200); // behind the leader now, but at the LEO the leader had at 100
    expect(r.lastCaughtUpTimeMs).toBe(100);
    r = updateFetchState(r, 8, 12, 300); // reached the LEO of the previous fetch (8): caught up as of 200
    expect(r.lastCaughtUpTimeMs).toBe(200);
    r = updateFetchState(r, 9, 20, 400); // not at 12: unchanged
    expect(r.lastCaughtUpTimeMs).toBe(200);
    expect(isCaughtUp(r, 20, 200 + LAG, LAG)).toBe(true);
    expect(isCaughtUp(r, 20, 201 + LAG, LAG)).toBe(false);
  });
});

describe('Partition.maybeIncrementLeaderHW', () => {
  it('the HW is the smallest LEO of the ISR, forward only', () => {
    let p = partition();
    const log = leaderLog(4);
    p = updateFollowerFetchState(p, 'b1', 4, 4, 10);
    expect(maybeIncrementLeaderHW(p, log, 10, LAG, all).highWatermark).toBe(0); // b2's LEO still unknown
    p = updateFollowerFetchState(p, 'b2', 2, 4, 10);
    expect(maybeIncrementLeaderHW(p, log, 10, LAG, all).highWatermark).toBe(2);
    p = updateFollowerFetchState(p, 'b2', 4, 4, 20);
    expect(maybeIncrementLeaderHW(p, log, 20, LAG, all).highWatermark).toBe(4);
    expect(maybeIncrementLeaderHW(p, withHighWatermark(log, 4), 20, LAG, all).highWatermark).toBe(4);
  });

  it('strict min ISR: with the ISR below min.insync.replicas the HW does not move at all', () => {
    let p = partition(2, ['b0']);
    p = updateFollowerFetchState(p, 'b1', 3, 3, 10);
    expect(maybeIncrementLeaderHW(p, leaderLog(3), 10, LAG, all).highWatermark).toBe(0);
    // with min.insync.replicas=1 the same leader alone moves it
    expect(maybeIncrementLeaderHW(partition(1, ['b0']), leaderLog(3), 10, LAG, all).highWatermark).toBe(3);
  });

  it('a caught-up eligible follower outside the ISR counts; an ineligible one does not', () => {
    let p = partition(1, ['b0', 'b1']);
    p = updateFollowerFetchState(p, 'b1', 3, 3, 10);
    p = updateFollowerFetchState(p, 'b2', 1, 1, 10); // at the leader's LEO of its fetch: caught up
    expect(maybeIncrementLeaderHW(p, leaderLog(3), 10, LAG, all).highWatermark).toBe(1);
    expect(maybeIncrementLeaderHW(p, leaderLog(3), 10, LAG, (b) => b !== 'b2').highWatermark).toBe(3);
  });

  it('effective min ISR is capped at the replica count', () => {
    expect(effectiveMinIsr({ minInsyncReplicas: 5, replicas: ['a', 'b', 'c'] })).toBe(3);
  });
});

describe('ISR expand and shrink', () => {
  it('a follower joins once its LEO reaches the HW and the epoch start; not while an AlterPartition is in flight', () => {
    let p = { ...partition(1, ['b0', 'b1']), leaderEpochStartOffset: 2 };
    const log = withHighWatermark(leaderLog(4), 3);
    p = updateFollowerFetchState(p, 'b2', 2, 4, 10);
    expect(isrToExpand(p, log, 'b2', all)).toBeNull(); // below the HW
    p = updateFollowerFetchState(p, 'b2', 3, 4, 20);
    expect(isrToExpand(p, log, 'b2', all)).toEqual(['b0', 'b1', 'b2']);
    expect(isrToExpand(p, log, 'b2', () => false)).toBeNull();
    const pending = proposeIsr(p, ['b0', 'b1', 'b2']);
    expect(isrToExpand(pending, log, 'b2', all)).toBeNull();
    // the maximal ISR holds the pending member; the committed ISR does not yet
    expect(maximalIsr(pending)).toEqual(['b0', 'b1', 'b2']);
    expect(pending.isr).toEqual(['b0', 'b1']);
  });

  it('an ISR follower not caught up within replica.lag.time.max.ms leaves; a pending shrink keeps the old maximal ISR', () => {
    let p = partition(2);
    const log = leaderLog(4);
    p = updateFollowerFetchState(p, 'b1', 4, 4, 1000);
    p = updateFollowerFetchState(p, 'b2', 0, 4, 1000); // reset at 0 as an ISR member: caught up at time 0
    expect(isrToShrink(p, log, LAG, LAG)).toBeNull();
    expect(isrToShrink(p, log, LAG + 1, LAG)).toEqual(['b0', 'b1']);
    const pending = proposeIsr(p, ['b0', 'b1']);
    expect(maximalIsr(pending)).toEqual(['b0', 'b1', 'b2']);
    expect(isrToShrink(pending, log, LAG + 1, LAG)).toBeNull();
  });

  it('AlterPartition answers: NONE commits, INELIGIBLE_REPLICA reverts, a stale epoch waits for metadata', () => {
    const pending = proposeIsr(partition(2), ['b0', 'b1']);
    const ok = onAlterPartitionResponse(pending, { error: 'NONE', leaderEpoch: 0, partitionEpoch: 1, isr: ['b0', 'b1'] });
    expect(ok).toMatchObject({ isr: ['b0', 'b1'], partitionEpoch: 1, proposedIsr: null });
    expect(onAlterPartitionResponse(pending, { error: 'INELIGIBLE_REPLICA', leaderEpoch: 0, partitionEpoch: 0, isr: [] })).toMatchObject({
      isr: ['b0', 'b1', 'b2'],
      proposedIsr: null,
    });
    expect(onAlterPartitionResponse(pending, { error: 'FENCED_LEADER_EPOCH', leaderEpoch: 1, partitionEpoch: 3, isr: [] })).toBe(pending);
  });
});

describe('acks=all: before the append and the delayed produce', () => {
  it('NOT_ENOUGH_REPLICAS before the append when the committed ISR is below the effective min ISR, acks=all only', () => {
    const p = partition(2, ['b0']);
    expect(notEnoughReplicasBeforeAppend(p, -1)).toBe(
      'The size of the current ISR [b0] is insufficient to satisfy the min.isr requirement of 2 for partition t-0',
    );
    expect(notEnoughReplicasBeforeAppend(p, 1)).toBeNull();
    expect(notEnoughReplicasBeforeAppend(partition(2, ['b0', 'b1']), -1)).toBeNull();
  });

  it('checkEnoughReplicasReachOffset: wait below the HW; NONE, or AFTER_APPEND if the maximal ISR shrank; NOT_LEADER_OR_FOLLOWER once not leader', () => {
    const log = leaderLog(3);
    const p = partition(2);
    expect(checkEnoughReplicasReachOffset(p, log, 3)).toBeNull();
    expect(checkEnoughReplicasReachOffset(p, withHighWatermark(log, 3), 3)).toBe('NONE');
    const shrunk = { ...p, isr: ['b0'] };
    expect(checkEnoughReplicasReachOffset(shrunk, withHighWatermark(log, 3), 3)).toBe('NOT_ENOUGH_REPLICAS_AFTER_APPEND');
    expect(checkEnoughReplicasReachOffset(null, log, 3)).toBe('NOT_LEADER_OR_FOLLOWER');
  });
});
