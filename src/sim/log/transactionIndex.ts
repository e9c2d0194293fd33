/**
 * The aborted-transaction index of a partition (Kafka's TransactionIndex): one entry per aborted
 * transaction that wrote data here, as (producerId, firstOffset, lastOffset = the ABORT marker's
 * offset, lastStableOffset at the time). A read_committed fetch returns the entries overlapping
 * the fetched range, and the consumer skips those producers' batches in that range.
 */
import type { AppendLog } from './appendLog';

export interface AbortedTxn {
  readonly producerId: number;
  readonly firstOffset: number;
  readonly lastOffset: number;
  readonly lastStableOffset: number;
}

/** Entries with lastOffset >= from and firstOffset < to (entries are in marker-offset order). */
export function abortedTxnsOverlapping(index: AppendLog<AbortedTxn>, from: number, to: number): AbortedTxn[] {
  const out: AbortedTxn[] = [];
  for (let i = index.lowerBound((t) => t.lastOffset >= from); i < index.length; i++) {
    const t = index.at(i) as AbortedTxn;
    if (t.firstOffset < to) out.push(t);
  }
  return out;
}
