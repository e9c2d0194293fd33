/**
 * Worked cases, the log cleaner and transaction markers: expected outcomes written from Kafka's
 * source (4.0 line: LogCleaner.scala CleanedTransactionMetadata.onBatchRead / onControlBatchRead,
 * Cleaner.cleanInto's checkBatchRetention and isBatchLastRecordOfProducer, MemoryRecords.filterTo,
 * UnifiedLog.lastRecordsOfActiveProducers, ProducerStateEntry) before the scenarios were run.
 */
import { describe, expect, it } from 'vitest';
import { run } from './helpers';

const at = (r: ReturnType<typeof run>, t: number) =>
  r
    .partitionAt('c-0', t)
    .records.map((x) => `${x.offset} ${x.control ?? `${x.key}=${x.value}`}`)
    .join(' ');

describe('worked cases: the log cleaner and markers', () => {
  /*
   * Compacted c-0 (segment.ms 100, delete.retention.ms 1000), protocol 2. a: k1=v1 committed (0, COMMIT
   * 1), k1=v2 aborted (2, ABORT 3), k2=w committed (4, COMMIT 5); q: k1=v3 (6), then k9=z (7) rolls the
   * active segment. The cleaner runs at 3000, 3500, 5000.
   * Pass 1: 0 is superseded by 6 (emptied, dropped); COMMIT 1 is kept — its transaction's batch 0
   * was read in this pass (ongoingCommittedTxns); 2 is aborted data (dropped, lastObservedBatchOffset
   * set), so ABORT 3 is kept and re-indexed (cleanedIndex); 4, COMMIT 5 (its data read), 6 kept.
   * Pass 2: COMMIT 1 and ABORT 3 read no batch of their transaction: eligible, and the pass stamps
   * them deleteHorizonMs = 3500 + 1000 (filterTo: containsMarkerForEmptyTxn); nothing removed.
   * Pass 3 (5000 ≥ 4500): both removed (discardBatchRecords, DELETE). COMMIT 5 stays (4 is read each
   * pass). A read_committed reader then gets 4, 6, 7.
   */
  it('cleaner-markers: a marker goes only after a pass that read none of its transaction stamped it, delete.retention.ms later', () => {
    const r = run('cleaner-markers.json');
    expect(at(r, 2900)).toBe('0 k1=v1 1 COMMIT 2 k1=v2 3 ABORT 4 k2=w 5 COMMIT 6 k1=v3 7 k9=z');
    expect(at(r, 3100)).toBe('1 COMMIT 3 ABORT 4 k2=w 5 COMMIT 6 k1=v3 7 k9=z');
    expect(at(r, 3600)).toBe('1 COMMIT 3 ABORT 4 k2=w 5 COMMIT 6 k1=v3 7 k9=z');
    expect(at(r, 5100)).toBe('4 k2=w 5 COMMIT 6 k1=v3 7 k9=z');
    expect(r.partition('c-0').emptyBatches ?? []).toEqual([]);
    expect(r.received('rc').map((x) => x.offset)).toEqual([4, 6, 7]);
  });

  /*
   * The same without a's third transaction: its last records are k1=v2 (2, aborted) and ABORT 3.
   * Under protocol 2 the ABORT marker carries the bumped epoch 2, and ProducerAppendInfo
   * .appendEndTxnMarker → ProducerStateEntry.update → maybeUpdateProducerEpoch clears the batch
   * metadata: a has no last data offset, so its last record is the control batch of its epoch
   * (isBatchLastRecordOfProducer, case 3). (The derivation first written here missed that clear and
   * expected the emptied batch 2 to be kept and to hold the ABORT marker forever; the model was right.)
   * Pass 1: 0 dropped, COMMIT 1 kept, 2 dropped (aborted; not a's last record), ABORT 3 kept.
   * Pass 2: both markers eligible, stamped 4500. Pass 3: COMMIT 1 removed; ABORT 3 is discardable but
   * a's last record: RETAIN_EMPTY — its header stays (no record), keeping a's epoch in the log.
   */
  it('cleaner-abort-last-batch: the ABORT marker that is its producer’s last record is kept as an empty header', () => {
    const r = run('cleaner-abort-last-batch.json');
    expect(at(r, 3100)).toBe('1 COMMIT 3 ABORT 4 k1=v3 5 k9=z');
    expect(at(r, 3600)).toBe('1 COMMIT 3 ABORT 4 k1=v3 5 k9=z');
    expect(at(r, 5100)).toBe('4 k1=v3 5 k9=z');
    expect(
      (r.partition('c-0').emptyBatches ?? []).map((b) => `${b.baseOffset} ${b.control} ${r.pidName(b.producerId)} e${b.producerEpoch}`),
    ).toEqual(['3 ABORT a e2']);
    expect(r.received('rc').map((x) => x.offset)).toEqual([4, 5]);
  });
});
