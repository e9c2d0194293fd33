/**
 * read_committed on both sides, on the functions directly: the leader's answer (UnifiedLog.read up
 * to the LSO, LocalLog.addAbortedTransactions / TransactionIndex.collectAbortedTxns) and the
 * consumer's skipping (CompletedFetch.nextFetchedRecord, FetchCollector.fetchRecords), 4.0 line.
 */
import { describe, expect, it } from 'vitest';
import { collectFetched } from '../src/sim/consumer/fetchCollector';
import {
  appendMarker,
  appendProducerBatch,
  createPartitionLog,
  fetchFrom,
  lastStableOffset,
  type PartitionLog,
} from '../src/sim/log/partitionLog';

/** A transactional batch of `n` records from producer `pid` (epoch 0) at sequence `seq`. */
function txn(log: PartitionLog, pid: number, seq: number, n = 1): PartitionLog {
  const records = Array.from({ length: n }, (_, i) => ({ key: `p${pid}-${seq + i}`, value: 'v', headers: {}, timestamp: 0 }));
  const r = appendProducerBatch(log, { producerId: pid, producerEpoch: 0, baseSequence: seq, isTransactional: true, records }, 0);
  expect(r.outcome.kind).toBe('appended');
  return r.log;
}
function marker(log: PartitionLog, pid: number, controlType: 'COMMIT' | 'ABORT'): PartitionLog {
  return appendMarker(log, { producerId: pid, producerEpoch: 0, controlType, coordinatorEpoch: 0 }, 0).log;
}

/** 0–1: pid 1 (aborted at 4); 2: pid 2 (committed at 3); 4: ABORT of pid 1; 5: pid 3, still open. */
function mixedLog(): PartitionLog {
  let log = createPartitionLog('t', 0);
  log = txn(log, 1, 0, 2);
  log = txn(log, 2, 0);
  log = marker(log, 2, 'COMMIT');
  log = marker(log, 1, 'ABORT');
  return txn(log, 3, 0);
}

describe('the leader: LSO and the aborted transactions of a read_committed fetch', () => {
  it('the LSO is the first offset of the open transaction; read_committed gets the batches below it, read_uncommitted up to the HW', () => {
    const log = mixedLog();
    expect(lastStableOffset(log)).toBe(5);
    expect(fetchFrom(log, 0, 'read_committed', 100).batches.map((b) => b.baseOffset)).toEqual([0, 2, 3, 4]);
    expect(fetchFrom(log, 0, 'read_uncommitted', 100).batches.map((b) => b.baseOffset)).toEqual([0, 2, 3, 4, 5]);
  });

  it('aborted transactions with lastOffset ≥ the fetch offset and firstOffset < the end of the fetched range', () => {
    const log = mixedLog();
    expect(fetchFrom(log, 0, 'read_committed', 100).abortedTransactions.map((t) => [t.producerId, t.firstOffset, t.lastOffset])).toEqual([
      [1, 0, 4],
    ]);
    // from offset 5 on, the abort (marker at 4) is behind the fetch: not sent
    expect(fetchFrom(log, 5, 'read_committed', 100).abortedTransactions).toEqual([]);
    // read_uncommitted gets none
    expect(fetchFrom(log, 0, 'read_uncommitted', 100).abortedTransactions).toEqual([]);
  });
});

describe('the consumer: skipping aborted batches and markers', () => {
  it('skips the aborted producer up to its ABORT marker, never returns markers, and moves past them', () => {
    const log = mixedLog();
    const f = fetchFrom(log, 0, 'read_committed', 100);
    const c = collectFetched('t', 0, f.batches, f.abortedTransactions, 'read_committed', 0);
    expect(c.records.map((r) => r.offset)).toEqual([2]);
    expect(c.skipped.map((s) => [s.baseOffset, s.reason])).toEqual([
      [0, 'aborted'],
      [3, 'control'],
      [4, 'control'],
    ]);
    expect(c.nextOffset).toBe(5);
  });

  it('a later transaction of the same producer after its ABORT marker is read again', () => {
    let log = mixedLog();
    log = marker(log, 3, 'COMMIT');
    log = txn(log, 1, 2);
    log = marker(log, 1, 'COMMIT');
    const f = fetchFrom(log, 0, 'read_committed', 100);
    const c = collectFetched('t', 0, f.batches, f.abortedTransactions, 'read_committed', 0);
    expect(c.records.map((r) => r.offset)).toEqual([2, 5, 7]);
    expect(c.nextOffset).toBe(9);
  });

  it('read_uncommitted returns the aborted records too (markers still skipped)', () => {
    const log = mixedLog();
    const f = fetchFrom(log, 0, 'read_uncommitted', 100);
    const c = collectFetched('t', 0, f.batches, f.abortedTransactions, 'read_uncommitted', 0);
    expect(c.records.map((r) => r.offset)).toEqual([0, 1, 2, 5]);
  });
});
