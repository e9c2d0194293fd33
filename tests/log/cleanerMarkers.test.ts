/**
 * The log cleaner removes transaction markers once their transaction has left nothing
 * (LogCleaner's CleanedTransactionMetadata.onControlBatchRead, checkBatchRetention; MemoryRecords.filterTo
 * `containsMarkerForEmptyTxn`): the first pass that reads no batch of the transaction stamps the
 * marker with now + delete.retention.ms, a pass at or after that horizon removes it; only ABORT markers
 * whose aborted batches a pass still read keep their aborted-transaction index entry. A marker that is
 * an active producer's last record (no data batch cached, the producer's current epoch) stays as an
 * empty header. Tested on cleanLog directly.
 */
import { describe, expect, it } from 'vitest';
import { cleanLog } from '../../src/sim/log/logCleaner';
import { fetchFrom, type PartitionLog } from '../../src/sim/log/partitionLog';
import { data, emptyLog, marker, RETENTION } from './cleanableLog';

const offsets = (log: PartitionLog) => [...log.batches].map((b) => b.baseOffset);

/**
 * Producer 5 (one epoch, protocol v1): a=v1 committed (0, COMMIT at 1), a=bad aborted (2, ABORT at 3),
 * a=v2 committed (4, COMMIT at 5); then a plain b=x at 500 (offset 6) rolls a new segment, so 0..5 are cleanable.
 */
function threeTransactions(): PartitionLog {
  let log = emptyLog();
  log = marker(data(log, 5, 0, 0, 'a', 'v1', 0), 5, 0, 'COMMIT', 2);
  log = marker(data(log, 5, 0, 1, 'a', 'bad', 10), 5, 0, 'ABORT', 12);
  log = marker(data(log, 5, 0, 2, 'a', 'v2', 20), 5, 0, 'COMMIT', 22);
  return data(log, -1, -1, -1, 'b', 'x', 500, false);
}

describe('log cleaner: transaction markers', () => {
  it('a pass that removes a transaction’s records keeps its marker (its batches were read in this pass)', () => {
    const r = cleanLog(threeTransactions(), 1000);
    expect(offsets(r.log)).toEqual([1, 3, 4, 5, 6]);
    // a=v1 superseded, the aborted transaction's record discarded: the narration tells them apart
    expect(r.removed).toBe(2);
    expect(r.abortedRemoved).toBe(1);
    expect([...r.log.batches].filter((b) => b.isControl).every((b) => b.deleteHorizonMs === undefined)).toBe(true);
    // the ABORT marker's aborted records were still read: its index entry stays (cleanedIndex)
    expect(r.log.abortedTxns.toArray()).toMatchObject([{ producerId: 5, firstOffset: 2, lastOffset: 3 }]);
  });

  it('the next pass stamps the markers of emptied transactions with now + delete.retention.ms; the ABORT loses its index entry', () => {
    const second = cleanLog(cleanLog(threeTransactions(), 1000).log, 2000);
    const byOffset = new Map([...second.log.batches].map((b) => [b.baseOffset, b]));
    expect(byOffset.get(1)?.deleteHorizonMs).toBe(2000 + RETENTION);
    expect(byOffset.get(3)?.deleteHorizonMs).toBe(2000 + RETENTION);
    // the COMMIT of a=v2, whose record is still there, is not eligible
    expect(byOffset.get(5)?.deleteHorizonMs).toBeUndefined();
    expect(second.log.abortedTxns.length).toBe(0);
    // before the horizon they stay
    expect(offsets(cleanLog(second.log, 2000 + RETENTION - 1).log)).toEqual([1, 3, 4, 5, 6]);
  });

  it('a pass at or after the horizon removes them; offsets never change and read_committed reads the same', () => {
    const second = cleanLog(cleanLog(threeTransactions(), 1000).log, 2000).log;
    const third = cleanLog(second, 2000 + RETENTION);
    expect(third.removed).toBe(0);
    expect(third.markersRemoved).toBe(2);
    expect(offsets(third.log)).toEqual([4, 5, 6]);
    const read = fetchFrom(third.log, 0, 'read_committed', 100);
    expect(read.batches.flatMap((b) => b.records.filter(() => !b.isControl).map((x) => `${x.key}=${x.value}@${x.offset}`))).toEqual([
      'a=v2@4',
      'b=x@6',
    ]);
  });

  it('a marker that is an active producer’s last record (no data batch cached, its current epoch) stays as an empty header', () => {
    // producer 9 (protocol v2): a=v1 at 0, its COMMIT at 1 with the bumped epoch 1; then plain a=v2 and c
    let log = marker(data(emptyLog(), 9, 0, 0, 'a', 'v1', 0), 9, 1, 'COMMIT', 2);
    log = data(log, -1, -1, -1, 'a', 'v2', 10, false);
    log = data(log, -1, -1, -1, 'c', 'z', 500, false);
    let cleaned = cleanLog(log, 1000).log; // a=v1 goes, the COMMIT stays (its batch was read)
    cleaned = cleanLog(cleaned, 2000).log; // stamped
    const r = cleanLog(cleaned, 2000 + RETENTION);
    expect(r.markersRemoved).toBe(1);
    const [first] = [...r.log.batches];
    expect(first).toMatchObject({
      baseOffset: 1,
      lastOffset: 1,
      isControl: true,
      controlType: 'COMMIT',
      producerId: 9,
      producerEpoch: 1,
      records: [],
    });
  });
});
