/**
 * The records waiting in the producer for one partition (Kafka's RecordAccumulator deque), as a
 * persistent queue: appending and draining cost O(1) amortised, so a burst of 100k send() calls stays
 * linear, and old versions held by checkpoints never change.
 */
import { AppendLog } from '../log/appendLog';
import type { PendingRecord } from './producerContext';

export interface PartitionQueue {
  readonly records: AppendLog<PendingRecord>;
  /** Index of the first record not yet drained into a batch. */
  readonly head: number;
  /** Bytes of the records not yet drained. */
  readonly bytes: number;
}

export const EMPTY_QUEUE: PartitionQueue = { records: AppendLog.empty(), head: 0, bytes: 0 };

export function queueSize(q: PartitionQueue | undefined): number {
  return q ? q.records.length - q.head : 0;
}

export function queueFirst(q: PartitionQueue | undefined): PendingRecord | undefined {
  return q ? q.records.at(q.head) : undefined;
}

export function queueAppend(q: PartitionQueue | undefined, rec: PendingRecord): PartitionQueue {
  const base = q ?? EMPTY_QUEUE;
  return { records: base.records.append(rec), head: base.head, bytes: base.bytes + rec.bytes };
}

/** Takes records from the head up to maxBytes (at least one), as Kafka closes a batch at batch.size. */
export function queueTake(q: PartitionQueue, maxBytes: number): { taken: PendingRecord[]; rest: PartitionQueue } {
  const taken: PendingRecord[] = [];
  let bytes = 0;
  let i = q.head;
  while (i < q.records.length) {
    const r = q.records.at(i) as PendingRecord;
    if (taken.length > 0 && bytes + r.bytes > maxBytes) break;
    taken.push(r);
    bytes += r.bytes;
    i++;
  }
  // drop the drained prefix once it is large, so a long-lived producer does not hold every record
  const rest: PartitionQueue =
    i === q.records.length
      ? EMPTY_QUEUE
      : i > 1024
        ? { records: AppendLog.of(q.records.toArray().slice(i)), head: 0, bytes: q.bytes - bytes }
        : { records: q.records, head: i, bytes: q.bytes - bytes };
  return { taken, rest };
}

export function queueAll(q: PartitionQueue | undefined): PendingRecord[] {
  return q ? q.records.toArray().slice(q.head) : [];
}
