/**
 * When a segment rolls (UnifiedLog.maybeRoll → LogSegment.shouldRoll, timeWaitedForRoll): a
 * non-empty active segment rolls when the incoming batch would take it past segment.bytes, or when the
 * batch's largest timestamp is more than segment.ms after the largest timestamp of the segment's first
 * batch (rollingBasedTimestamp) — strictly more, and by record timestamps, not the broker's clock.
 * The cleaner never touches the active segment, so this decides what compaction may clean.
 */
import { describe, expect, it } from 'vitest';
import { appendProducerBatch, createPartitionLog, type PartitionLog } from '../../src/sim/log/partitionLog';
import { appendAsFollower, asReplicatedLog } from '../../src/sim/log/replicaLog';

const log = (segmentBytes = 1 << 30) =>
  createPartitionLog('t', 0, 0, { segmentBytes, segmentMs: 100 }, { cleanupPolicy: 'compact', deleteRetentionMs: 1000 });

/** A record with CreateTime `timestamp`, appended by the broker at `now`. */
function put(l: PartitionLog, key: string, timestamp: number, now: number): PartitionLog {
  return appendProducerBatch(
    l,
    { producerId: -1, producerEpoch: -1, baseSequence: -1, isTransactional: false, records: [{ key, value: 'v', headers: {}, timestamp }] },
    now,
  ).log;
}

const bases = (l: PartitionLog) => l.segments.map((s) => s.baseOffset);

describe('segment rolling (segment.ms, segment.bytes)', () => {
  it('a batch exactly segment.ms after the first one does not roll; one a millisecond later does', () => {
    expect(bases(put(put(log(), 'a', 0, 0), 'b', 100, 100))).toEqual([0]);
    expect(bases(put(put(log(), 'a', 0, 0), 'b', 101, 101))).toEqual([0, 1]);
  });

  it('the record timestamps decide, not when the broker appended them', () => {
    // sent at 0 and 120, appended at 50 and 140 (a slow network): 120 − 0 > 100 rolls
    expect(bases(put(put(log(), 'a', 0, 50), 'b', 120, 140))).toEqual([0, 1]);
    // sent at 0 and 90, the second appended 200 ms later (a retry): 90 − 0 ≤ 100 does not
    expect(bases(put(put(log(), 'a', 0, 0), 'b', 90, 200))).toEqual([0]);
  });

  it('a follower copying the leader’s batches later rolls where the leader did', () => {
    const leader = put(put(put(asReplicatedLog(log()), 'a', 0, 0), 'b', 60, 60), 'c', 150, 150);
    expect(bases(leader)).toEqual([0, 2]);
    const follower = appendAsFollower(asReplicatedLog(log()), leader.batches.toArray().slice(0, 2));
    expect(bases(appendAsFollower(follower, leader.batches.toArray().slice(2)))).toEqual([0, 2]);
  });

  it('segment.bytes: a batch that would take the active segment past it rolls', () => {
    const small = put(put(log(40), 'a', 0, 0), 'b', 1, 1); // 22 bytes each
    expect(bases(small)).toEqual([0, 1]);
  });
});
