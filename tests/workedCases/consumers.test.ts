/**
 * Worked cases, where a consumer starts reading: expected outcomes written from Kafka's source (4.0
 * line) before the scenarios were run.
 */
import { describe, expect, it } from 'vitest';
import { run } from './helpers';

describe('worked cases: where consumers start', () => {
  /*
   * tx opens a transaction at 0 (commits at 8000); plain writes b0, b1 (one batch, 1–2) at 200. rc
   * (read_committed) and ru (read_uncommitted), both auto.offset.reset=latest with no committed
   * offset, get their partition at ~4000.
   * - The consumer resets with ListOffsets(LATEST, its isolation level): Partition
   *   .fetchOffsetForTimestamp's lastFetchableOffset is the LSO for READ_COMMITTED and the HW for
   *   READ_UNCOMMITTED. So rc starts at 0 (the open transaction's first offset) and ru at 3.
   * - After the COMMIT (3) rc reads a, b0, b1; ru reads nothing (its position was already past them).
   */
  it('reset-latest-open-txn: read_committed resets to the LSO and later reads what was behind it; read_uncommitted to the HW', () => {
    const r = run('reset-latest-open-txn.json');
    expect(r.log('t-0')).toEqual(['0 a tx e0 s0 T', '1 b0 plain e0 s0', '2 b1 plain e0 s1', '3 COMMIT tx e1 s-1 T']);
    const listed = (consumer: string) => r.rpcs('ListOffsetsResponse', 'broker-0').filter((e) => e.to.startsWith(consumer));
    expect(JSON.stringify(listed('rc').map((e) => e.payload))).toContain('"offset":0');
    expect(JSON.stringify(listed('ru').map((e) => e.payload))).toContain('"offset":3');
    expect(r.received('rc').map((x) => x.offset)).toEqual([0, 1, 2]);
    expect(r.received('ru')).toEqual([]);
  });

  /*
   * plain-0 holds one batch p0–p2 (0–2); txn-0 one aborted batch t0–t2 (0–2), ABORT at 3, then c (4)
   * committed (COMMIT 5). Both groups' offsets are reset to 1 on both partitions.
   * - The leader answers a fetch from 1 with the whole batch starting at 0 (batches are not split);
   *   CompletedFetch.fetchRecords skips records with offset < nextFetchOffset: p1, p2 only.
   * - read_committed on txn-0: AbortedTransaction(t, 0) (its marker 3 ≥ 1) makes the batch 0–2
   *   aborted (consumeAbortedTransactionsUpTo): nothing of it; ABORT and COMMIT skipped; c returned.
   * - read_uncommitted: t1, t2 (not t0), then c.
   */
  it('seek-mid-batch: a position inside a batch returns the batch’s later records only, and an aborted batch none', () => {
    const r = run('seek-mid-batch.json');
    expect(r.received('rc').map((x) => `${x.topic}@${x.offset}`)).toEqual(['plain@1', 'plain@2', 'txn@4']);
    expect(r.received('ru').map((x) => `${x.topic}@${x.offset}`)).toEqual(['plain@1', 'plain@2', 'txn@1', 'txn@2', 'txn@4']);
    expect(
      r
        .facts('skipped')
        .filter((s) => s.consumer === 'rc')
        .map((s) => `${s.baseOffset}-${s.lastOffset}:${s.reason}`),
    ).toEqual(['0-2:aborted', '3-3:control', '5-5:control']);
  });
});
