/**
 * The records waiting in the producer for one partition (Kafka's RecordAccumulator deque), as a
 * persistent queue: appending and draining cost O(1) amortised, so a burst of 100k send() calls stays
 * linear, and old versions held by checkpoints never change.
 *
 * A short queue (the usual one: the records of a batch or two) is a plain array, copied on each
 * change: a packed checkpoint encodes it as bytes. A long one is an `AppendLog`, which a checkpoint
 * keeps by reference — and with it every record appended to its shared array after that step, so
 * thousands of checkpoints of a steady stream would keep every record the producer ever sent.
 */
import { AppendLog } from '../log/appendLog';
import type { PendingRecord } from './producerContext';

export interface PartitionQueue {
  readonly records: AppendLog<PendingRecord> | readonly PendingRecord[];
  /** Index of the first record not yet drained into a batch. */
  readonly head: number;
  /** Bytes of the records not yet drained. */
  readonly bytes: number;
}

/** Up to this many records a queue is a plain array. */
const SHORT_QUEUE = 64;

export const EMPTY_QUEUE: PartitionQueue = { records: [], head: 0, bytes: 0 };

export function queueSize(q: PartitionQueue | undefined): number {
  return q ? q.records.length - q.head : 0;
}

export function queueFirst(q: PartitionQueue | undefined): PendingRecord | undefined {
  return q ? q.records.at(q.head) : undefined;
}

export function queueAppend(q: PartitionQueue | undefined, rec: PendingRecord): PartitionQueue {
  const base = q ?? EMPTY_QUEUE;
  const r = base.records;
  const bytes = base.bytes + rec.bytes;
  if (r instanceof AppendLog) return { records: r.append(rec), head: base.head, bytes };
  const items = r.slice(base.head);
  items.push(rec);
  return { records: items.length > SHORT_QUEUE ? AppendLog.of(items) : items, head: 0, bytes };
}

/** The bytes `queueTake(q, maxBytes)` would take, without taking them (the drain's max.request.size check). */
export function queueHeadBytes(q: PartitionQueue, maxBytes: number): number {
  let bytes = 0;
  let n = 0;
  const records = q.records;
  for (let i = q.head; i < records.length; i++) {
    const b = (records.at(i) as PendingRecord).bytes;
    if (n > 0 && bytes + b > maxBytes) break;
    bytes += b;
    n++;
  }
  return bytes;
}

/** Takes records from the head up to maxBytes (at least one), as Kafka closes a batch at batch.size. */
export function queueTake(q: PartitionQueue, maxBytes: number): { taken: PendingRecord[]; rest: PartitionQueue } {
  const taken: PendingRecord[] = [];
  let bytes = 0;
  let i = q.head;
  const records = q.records;
  while (i < records.length) {
    const r = records.at(i) as PendingRecord;
    if (taken.length > 0 && bytes + r.bytes > maxBytes) break;
    taken.push(r);
    bytes += r.bytes;
    i++;
  }
  // what is left: a short queue becomes an array of its own; a long one drops its drained prefix
  // once that is long (copying no more than was drained, so a burst of sends stays linear)
  const left = records.length - i;
  let rest: PartitionQueue;
  if (left === 0) rest = EMPTY_QUEUE;
  else if (left <= SHORT_QUEUE)
    rest = { records: records instanceof AppendLog ? records.toArray().slice(i) : records.slice(i), head: 0, bytes: q.bytes - bytes };
  else if (records instanceof AppendLog && i > 1024) rest = { records: records.dropFirst(i), head: 0, bytes: q.bytes - bytes };
  else rest = { records, head: i, bytes: q.bytes - bytes };
  return { taken, rest };
}

export function queueAll(q: PartitionQueue | undefined): PendingRecord[] {
  if (!q) return [];
  return q.records instanceof AppendLog ? q.records.toArray().slice(q.head) : q.records.slice(q.head);
}
