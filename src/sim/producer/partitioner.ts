/**
 * Kafka's default partitioner (BuiltInPartitioner): a record with a key goes to
 * toPositive(murmur2(serialized key)) % numPartitions, so a key lands on the same partition number
 * it would in real Kafka (keys are serialized as UTF-8, as StringSerializer does).
 *
 * A record without a key uses a "sticky" partition, among the partitions with a leader, that switches
 * after batch.size bytes once its last batch is full (after 2 × batch.size regardless). Kafka picks
 * the next sticky partition at random (weighted by queue sizes); the simulator moves to the next
 * partition with a leader in order instead, so that runs stay deterministic.
 */
import { type ClusterMetadata, leaderOf } from '../cluster/metadata';
import { fitsLastBatch, lastBatchFull, type PartitionQueue } from './recordAccumulator';

const encoder = new TextEncoder();

/** Kafka's Utils.murmur2 (seed 0x9747b28c), returning a signed 32-bit int as Java does. */
export function murmur2(data: Uint8Array): number {
  const length = data.length;
  const m = 0x5bd1e995;
  const r = 24;
  let h = 0x9747b28c ^ length;
  const length4 = length >>> 2;
  for (let i = 0; i < length4; i++) {
    const i4 = i * 4;
    let k =
      ((data[i4] as number) & 0xff) |
      (((data[i4 + 1] as number) & 0xff) << 8) |
      (((data[i4 + 2] as number) & 0xff) << 16) |
      (((data[i4 + 3] as number) & 0xff) << 24);
    k = Math.imul(k, m);
    k ^= k >>> r;
    k = Math.imul(k, m);
    h = Math.imul(h, m);
    h ^= k;
  }
  const tail = length & ~3;
  // Kafka's switch falls through from case 3 to case 1
  const rest = length % 4;
  if (rest >= 3) h ^= ((data[tail + 2] as number) & 0xff) << 16;
  if (rest >= 2) h ^= ((data[tail + 1] as number) & 0xff) << 8;
  if (rest >= 1) {
    h ^= (data[tail] as number) & 0xff;
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

/** Kafka's Utils.toPositive: clears the sign bit (not Math.abs, which overflows on MIN_VALUE). */
export function toPositive(n: number): number {
  return n & 0x7fffffff;
}

export function partitionForKey(key: string, numPartitions: number): number {
  // any hash modulo one partition is 0: no need to serialize and hash the key
  if (numPartitions === 1) return 0;
  return toPositive(murmur2(encoder.encode(key))) % numPartitions;
}

export function utf8Bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Java's String.hashCode, which Kafka uses to map a group.id or transactional.id to a coordinator partition. */
export function javaStringHashCode(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(31, h) + text.charCodeAt(i)) | 0;
  return h;
}

/** Kafka's Utils.abs(hashCode) % partitions for __consumer_offsets and __transaction_state. */
export function coordinatorPartitionFor(id: string, numPartitions: number): number {
  const h = javaStringHashCode(id);
  const abs = h === -2147483648 ? 0 : Math.abs(h);
  return abs % numPartitions;
}

/** BuiltInPartitioner.StickyPartitionInfo: a topic's sticky partition and the bytes produced to it since it was chosen. */
export interface StickyPartition {
  readonly partition: number;
  readonly bytes: number;
}

/**
 * BuiltInPartitioner.nextPartition: a partition with a leader in the producer's metadata
 * (Cluster.availablePartitionsForTopic; a MetadataResponse's leader -1, LEADER_NOT_AVAILABLE, is no
 * leader — null in the model's metadata), or any partition when none has one. Kafka takes one at
 * random (weighted by queue sizes when it has load stats, which leave out leaderless partitions too);
 * the model takes the next in order after `after` (the current sticky partition, which it reaches
 * last: Kafka's random pick may land on it again), or from partition 0 for a topic's first.
 */
export function nextStickyPartition(meta: ClusterMetadata, topic: string, after: number | null): number {
  const count = meta.topics[topic]?.partitions ?? 1;
  const start = after === null ? 0 : after + 1;
  for (let i = 0; i < count; i++) {
    const p = (start + i) % count;
    if (leaderOf(meta, topic, p) !== null) return p;
  }
  return start % count;
}

/**
 * RecordAccumulator.append of a record of no key, `bytes` long, with the built-in partitioner: the
 * partition it goes to, the topic's sticky partition after it, and the partition whose last batch it
 * closed without going there (null if none).
 *
 * - peekCurrentPartitionInfo: the topic's first sticky partition is chosen as a switch chooses one.
 * - partitionChanged, under the deque's lock before tryAppend, and again after tryAppend found no
 *   room (the record closed the last batch): once allBatchesFull(deque), a switch held back before is
 *   done — updatePartitionInfo(0 bytes, enableSwitch true) switches at batch.size produced — and the
 *   record goes to the new partition.
 * - After the append, updatePartitionInfo(appended bytes, enableSwitch = allBatchesFull(deque))
 *   switches when `produced >= batch.size && enableSwitch || produced >= 2 * batch.size`: the next
 *   record goes to the new partition.
 *
 * `queueOf` gives a partition's accumulator queue, whose last batch is Kafka's deque's. The bytes
 * produced are the records' (the model counts no batch header; Kafka's count adds a new batch's).
 */
export function stickyPartitionFor(
  meta: ClusterMetadata,
  topic: string,
  current: StickyPartition | undefined,
  bytes: number,
  batchSize: number,
  queueOf: (partition: number) => PartitionQueue | undefined,
): { partition: number; sticky: StickyPartition; closed: number | null } {
  let sticky = current ?? { partition: nextStickyPartition(meta, topic, null), bytes: 0 };
  let q = queueOf(sticky.partition);
  let closed: number | null = null;
  const fits = fitsLastBatch(q, bytes, batchSize);
  if (sticky.bytes >= batchSize && (lastBatchFull(q, batchSize) || !fits)) {
    if (!lastBatchFull(q, batchSize)) closed = sticky.partition;
    sticky = { partition: nextStickyPartition(meta, topic, sticky.partition), bytes: 0 };
    q = queueOf(sticky.partition);
  }
  const partition = sticky.partition;
  const produced = sticky.bytes + bytes;
  // allBatchesFull after the append: the record's batch, the last one, is full
  const joins = fitsLastBatch(q, bytes, batchSize);
  const full = joins && q !== undefined && q.lastBatchBytes + bytes >= batchSize;
  const switchNow = (produced >= batchSize && full) || produced >= 2 * batchSize;
  const next = switchNow ? { partition: nextStickyPartition(meta, topic, partition), bytes: 0 } : { partition, bytes: produced };
  return { partition, sticky: next, closed };
}
