/**
 * What a consumer makes of a FetchResponse (Kafka's CompletedFetch / FetchCollector).
 *
 * Control batches (transaction markers) are never returned. Under read_committed, the broker sends
 * the aborted transactions overlapping the fetched range; the consumer skips every batch of those
 * producers up to their ABORT marker. Either way the position moves past what was skipped, even
 * when nothing is returned. A fetch's error (FetchCollector.handleInitializeErrors) is kept with the
 * answer and handled when poll() collects it: fetcher.ts `collectFetchErrors`.
 */

import type { IsolationLevel } from '../log/partitionLog';
import type { RecordBatch } from '../log/recordBatch';
import type { AbortedTxn } from '../log/transactionIndex';
import type { RecordForApp } from '../protocol/messages';

export interface Skipped {
  readonly baseOffset: number;
  readonly lastOffset: number;
  readonly reason: 'aborted' | 'control';
}

export interface Collected {
  readonly records: RecordForApp[];
  /** The consumer's next fetch position after this response. */
  readonly nextOffset: number;
  readonly skipped: Skipped[];
}

export function collectFetched(
  topic: string,
  partition: number,
  batches: readonly RecordBatch[],
  abortedTransactions: readonly AbortedTxn[],
  isolation: IsolationLevel,
  fetchOffset: number,
): Collected {
  // an empty answer (a long poll that expired): the position stays, nothing to sort or track
  if (batches.length === 0) return { records: [], nextOffset: fetchOffset, skipped: [] };
  const aborted = [...abortedTransactions].sort((a, b) => a.firstOffset - b.firstOffset);
  const abortedPids = new Set<number>();
  let ai = 0;
  const records: RecordForApp[] = [];
  const skipped: Skipped[] = [];
  let next = fetchOffset;
  for (const b of batches) {
    if (b.lastOffset < fetchOffset) continue;
    if (isolation === 'read_committed' && b.producerId >= 0) {
      while (ai < aborted.length && (aborted[ai] as AbortedTxn).firstOffset <= b.lastOffset) {
        abortedPids.add((aborted[ai] as AbortedTxn).producerId);
        ai++;
      }
      if (b.isControl && b.controlType === 'ABORT') abortedPids.delete(b.producerId);
      else if (b.isTransactional && abortedPids.has(b.producerId)) {
        skipped.push({ baseOffset: b.baseOffset, lastOffset: b.lastOffset, reason: 'aborted' });
        next = b.lastOffset + 1;
        continue;
      }
    }
    if (b.isControl) {
      skipped.push({ baseOffset: b.baseOffset, lastOffset: b.lastOffset, reason: 'control' });
      next = b.lastOffset + 1;
      continue;
    }
    for (const r of b.records)
      if (r.offset >= fetchOffset) records.push({ topic, partition, offset: r.offset, key: r.key, value: r.value, headers: r.headers });
    next = b.lastOffset + 1;
  }
  return { records, nextOffset: next, skipped };
}
