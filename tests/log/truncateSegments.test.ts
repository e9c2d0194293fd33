/**
 * What a truncation (a replica following a new leader) does to the segments: LocalLog.truncateTo
 * deletes the segments whose base offset is past the target (`segment.baseOffset() > targetOffset`)
 * and cuts the active one (LogSegment.truncateTo). A segment that starts exactly at the new end stays,
 * emptied, as the active segment; the active segment's size is what it still holds. The model dropped
 * the segment at the new end and kept the old size, so the cleaner's bound (the active segment's base)
 * fell back to an earlier segment, and a segment could roll by segment.bytes for records it no longer had.
 */
import { describe, expect, it } from 'vitest';
import { cleanLog } from '../../src/sim/log/logCleaner';
import { appendProducerBatch, createPartitionLog, estimateRecordBytes, type PartitionLog } from '../../src/sim/log/partitionLog';
import { asReplicatedLog, truncateTo } from '../../src/sim/log/replicaLog';

const log = (segmentBytes = 1 << 30) =>
  asReplicatedLog(createPartitionLog('t', 0, 0, { segmentBytes, segmentMs: 100 }, { cleanupPolicy: 'compact', deleteRetentionMs: 1000 }));

function put(l: PartitionLog, key: string, timestamp: number): PartitionLog {
  const records = [{ key, value: 'v', headers: {}, timestamp }];
  return appendProducerBatch(l, { producerId: -1, producerEpoch: -1, baseSequence: -1, isTransactional: false, records }, timestamp).log;
}

const bases = (l: PartitionLog) => l.segments.map((s) => s.baseOffset);
const ONE = estimateRecordBytes({ key: 'a', value: 'v', headers: {} });

describe('truncation and segments (LocalLog.truncateTo)', () => {
  it('a segment that starts at the new end stays, emptied, as the active segment', () => {
    // a@0, a@1 in segment 0; b@2 at 500 rolls segment 2; c@3 in it
    const l = put(put(put(put(log(), 'a', 0), 'a', 10), 'b', 500), 'c', 510);
    expect(bases(l)).toEqual([0, 2]);
    const cut = truncateTo({ ...l, highWatermark: 2 }, 2);
    expect(cut.logEndOffset).toBe(2);
    expect(bases(cut)).toEqual([0, 2]);
    expect(cut.segments[1]?.bytes).toBe(0);
    // so the cleaner may still clean segment 0 (its bound is the active segment's base, 2)
    expect(cleanLog(cut, 1000).cleanableUpTo).toBe(2);
  });

  it('segments past the new end go; the one that starts at it stays', () => {
    const l = put(put(put(log(), 'a', 0), 'b', 500), 'c', 1000);
    expect(bases(l)).toEqual([0, 1, 2]);
    expect(bases(truncateTo(l, 1))).toEqual([0, 1]);
  });

  it('the active segment keeps the size of what it still holds', () => {
    const l = put(put(put(log(), 'a', 0), 'b', 10), 'c', 20);
    expect(l.segments[0]?.bytes).toBe(3 * ONE);
    const cut = truncateTo(l, 1);
    expect(cut.segments[0]?.bytes).toBe(ONE);
    // segment.bytes room for two records: after the cut, the next one fits without a roll
    const small = put(put(put(log(2 * ONE), 'a', 0), 'b', 10), 'c', 20);
    expect(bases(small)).toEqual([0, 2]);
    expect(bases(put(truncateTo(small, 1), 'd', 30))).toEqual([0]);
  });
});
