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
  /**
   * The last batch of Kafka's deque for these records, which RecordAccumulator.tryAppend fills: its
   * record count (0: no batch), its bytes, and whether a record that did not fit closed it
   * (closeForRecordAppends) and went to another partition (the built-in partitioner's switch).
   * The drain cuts the same batches (`queueTake`).
   */
  readonly lastBatchRecords: number;
  readonly lastBatchBytes: number;
  readonly lastBatchClosed: boolean;
  /**
   * Bytes the queue's batches hold from buffer.memory (bufferPool.ts): each batch, when its first
   * record opened it, took max(batch.size, that record's size) (RecordAccumulator.append →
   * BufferPool.allocate); the drain hands a batch's share to the ProducerBatch it closes.
   */
  readonly allocated: number;
}

/** Up to this many records a queue is a plain array. */
const SHORT_QUEUE = 64;

export const EMPTY_QUEUE: PartitionQueue = {
  records: [],
  head: 0,
  bytes: 0,
  lastBatchRecords: 0,
  lastBatchBytes: 0,
  lastBatchClosed: false,
  allocated: 0,
};

export function queueSize(q: PartitionQueue | undefined): number {
  return q ? q.records.length - q.head : 0;
}

export function queueFirst(q: PartitionQueue | undefined): PendingRecord | undefined {
  return q ? q.records.at(q.head) : undefined;
}

/**
 * Whether a record of `bytes` goes into the queue's last batch (ProducerBatch.tryAppend →
 * MemoryRecordsBuilder.hasRoomFor: an open batch takes a record while it stays within batch.size),
 * else into a new one.
 */
export function fitsLastBatch(q: PartitionQueue | undefined, bytes: number, batchSize: number): boolean {
  return q !== undefined && q.lastBatchRecords > 0 && !q.lastBatchClosed && q.lastBatchBytes + bytes <= batchSize;
}

/**
 * RecordAccumulator.allBatchesFull: the deque's last batch is full, or there is none (a batch waiting
 * for a retry goes back to the deque's front, closed, so it never makes the answer false). A batch is
 * full (MemoryRecordsBuilder.isFull) once closed for appends, or when its bytes reach its write limit,
 * max(batch.size, the first record's size upper bound): a batch of one record never does (the bound
 * is above the record's size), one of more only at exactly batch.size (hasRoomFor keeps it within).
 */
export function lastBatchFull(q: PartitionQueue | undefined, batchSize: number): boolean {
  if (q === undefined || q.lastBatchRecords === 0 || q.lastBatchClosed) return true;
  return q.lastBatchRecords > 1 && q.lastBatchBytes >= batchSize;
}

/**
 * Appends a record: into the last batch if it fits within `batchSize`, else into a new one. A record
 * that opens a batch after a closed one, though it would have fitted, is marked so that the drain
 * does not put it into that batch.
 */
export function queueAppend(q: PartitionQueue | undefined, appended: PendingRecord, batchSize: number): PartitionQueue {
  const base = q ?? EMPTY_QUEUE;
  const r = base.records;
  const bytes = base.bytes + appended.bytes;
  const fits = fitsLastBatch(base, appended.bytes, batchSize);
  const rec =
    base.lastBatchClosed && base.lastBatchBytes + appended.bytes <= batchSize ? { ...appended, opensBatch: true as const } : appended;
  const lastBatchRecords = fits ? base.lastBatchRecords + 1 : 1;
  const lastBatchBytes = fits ? base.lastBatchBytes + rec.bytes : rec.bytes;
  // a new batch takes its buffer from the pool (BufferPool.allocate)
  const allocated = fits ? base.allocated : base.allocated + batchAllocation(rec.bytes, batchSize);
  if (r instanceof AppendLog)
    return { records: r.append(rec), head: base.head, bytes, lastBatchRecords, lastBatchBytes, lastBatchClosed: false, allocated };
  const items = r.slice(base.head);
  items.push(rec);
  return {
    records: items.length > SHORT_QUEUE ? AppendLog.of(items) : items,
    head: 0,
    bytes,
    lastBatchRecords,
    lastBatchBytes,
    lastBatchClosed: false,
    allocated,
  };
}

/**
 * What a batch holds from buffer.memory: RecordAccumulator.append allocates max(batch.size, the
 * record's size upper bound) for a new batch. A batch of several records stays within batch.size, so
 * its bytes say it too: max(batch.size, the batch's bytes). The model leaves out the batch header
 * Kafka's upper bound adds.
 */
export function batchAllocation(bytes: number, batchSize: number): number {
  return Math.max(batchSize, bytes);
}

/** A record that did not fit closed the last batch (RecordAccumulator.tryAppend → closeForRecordAppends). */
export function queueCloseLastBatch(q: PartitionQueue): PartitionQueue {
  return q.lastBatchRecords === 0 || q.lastBatchClosed ? q : { ...q, lastBatchClosed: true };
}

/** Does `r` start a new batch after `n` records of `bytes` (a batch stays within maxBytes; one record always goes)? */
function endsBatch(n: number, bytes: number, r: PendingRecord, maxBytes: number): boolean {
  return n > 0 && (bytes + r.bytes > maxBytes || r.opensBatch === true);
}

/** The bytes `queueTake(q, maxBytes)` would take, without taking them (the drain's max.request.size check). */
export function queueHeadBytes(q: PartitionQueue, maxBytes: number): number {
  let bytes = 0;
  let n = 0;
  const records = q.records;
  for (let i = q.head; i < records.length; i++) {
    const r = records.at(i) as PendingRecord;
    if (endsBatch(n, bytes, r, maxBytes)) break;
    bytes += r.bytes;
    n++;
  }
  return bytes;
}

/**
 * Takes records from the head up to maxBytes (at least one), as Kafka closes a batch at batch.size:
 * the deque's first batch. `maxBytes` is the batch.size the records were appended with, so what is
 * left keeps its last batch.
 */
export function queueTake(q: PartitionQueue, maxBytes: number): { taken: PendingRecord[]; rest: PartitionQueue } {
  const taken: PendingRecord[] = [];
  let bytes = 0;
  let i = q.head;
  const records = q.records;
  while (i < records.length) {
    const r = records.at(i) as PendingRecord;
    if (endsBatch(taken.length, bytes, r, maxBytes)) break;
    taken.push(r);
    bytes += r.bytes;
    i++;
  }
  // what is left: a short queue becomes an array of its own; a long one drops its drained prefix
  // once that is long (copying no more than was drained, so a burst of sends stays linear)
  const left = records.length - i;
  // the batch taken carries its buffer away with it (the ProducerBatch holds it until it completes)
  const allocated = Math.max(0, q.allocated - batchAllocation(bytes, maxBytes));
  let rest: PartitionQueue;
  if (left === 0) rest = EMPTY_QUEUE;
  else if (left <= SHORT_QUEUE)
    rest = {
      ...q,
      records: records instanceof AppendLog ? records.toArray().slice(i) : records.slice(i),
      head: 0,
      bytes: q.bytes - bytes,
      allocated,
    };
  else if (records instanceof AppendLog && i > 1024)
    rest = { ...q, records: records.dropFirst(i), head: 0, bytes: q.bytes - bytes, allocated };
  else rest = { ...q, head: i, bytes: q.bytes - bytes, allocated };
  return { taken, rest };
}

export function queueAll(q: PartitionQueue | undefined): PendingRecord[] {
  if (!q) return [];
  return q.records instanceof AppendLog ? q.records.toArray().slice(q.head) : q.records.slice(q.head);
}
