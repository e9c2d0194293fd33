/**
 * The state a Kafka Streams count keeps, checked against the events it counted: the verdict's view of
 * "exactly once of the state update". Under exactly_once_v2 the input offsets, the store's changelog
 * and the output are written in one transaction, so after a crash the store is restored to the last
 * committed point and each event is counted once. Under at_least_once the changelog is written before
 * the offsets are committed: a crash restores increments whose input is then processed again, and
 * the count is inflated.
 *
 * Each task has its own store and changelog partition (the task's partition: ProcessorStateManager
 * .getStorePartition), so the check is per task: a key counted on two partitions has two counts,
 * each against the events of its own counted-topic partition. A store is read as a restore would
 * read it: the last value per key of its changelog partition, records the application's isolation level reads (below the high watermark; under
 * exactly_once_v2, read_committed, committed or plain records below the LSO — which an open
 * transaction, or a finished one whose marker is not yet below the HW, holds back). The events per
 * key are the distinct events (event_id, else the record's address) in the counted topic — the
 * input, or the repartition topic after a groupBy — that the application may read, without the
 * records count() drops (a null key or value). A counted topic that lost records — to the cleaner,
 * retention, or a truncation after a leader change (an unclean election can cut records already
 * counted) — is not judged: its records were counted once too.
 */
import { recordAddress } from '../protocol/topicPartition';
import { taskId } from '../streams/streamsTopology';
import type { PartitionRow, RecordRow } from '../trace/logView';
import type { StoreCheck, StoreKey } from './verdictTypes';

export interface StoreSpec {
  /** The count store's changelog topic. */
  readonly changelogTopic: string;
  /** The topic count() reads: the input, or the repartition topic after a groupBy. */
  readonly countedTopic: string;
  /** count() runs after a groupBy (its tasks are sub-topology 1's). */
  readonly repartitioned?: boolean;
}

/** A (task partition, key) pair as one map key. */
const at = (partition: number, key: string) => `${partition}\u0000${key}`;

const readable = (r: RecordRow, readCommitted: boolean): boolean =>
  r.control === null && (!readCommitted || r.txnOutcome === null || r.txnOutcome === 'committed');

/** The partition still holds every offset it ever had below its high watermark (nothing cleaned or deleted). */
function whole(p: PartitionRow): boolean {
  if (p.logStartOffset > 0) return false;
  let n = 0;
  for (const r of p.records) if (r.offset < p.highWatermark) n++;
  return n === p.highWatermark;
}

/**
 * Every readable record of a topic, with its partition: below the high watermark, and for
 * read_committed below the LSO (UnifiedLog.read bounds a fetch by the HW or by the LSO, LSO ≤ HW).
 */
function* readableRecords(rows: readonly PartitionRow[], topic: string, readCommitted: boolean): Generator<[number, RecordRow]> {
  for (const p of rows) {
    if (p.topic !== topic) continue;
    const end = readCommitted ? p.lastStableOffset : p.highWatermark;
    for (const r of p.records) if (r.offset < end && readable(r, readCommitted)) yield [p.partition, r];
  }
}

/**
 * The store's count of each key against the events it counted. `final`: the end of the run, where
 * a count below its events is a loss; before it a count may still be behind (a transaction not
 * committed yet), so only a count above its events — an event counted twice — is reported.
 * `countedTopicTruncated`: a copy of the counted topic was cut by a truncation (its offset may hold
 * another record now, so the offsets alone do not show it).
 */
export function storeCheck(
  rows: readonly PartitionRow[],
  spec: StoreSpec,
  readCommitted: boolean,
  final: boolean,
  countedTopicTruncated = false,
): StoreCheck | null {
  // records the cleaner, retention or a truncation removed from the counted topic were counted once too: no judging
  if (countedTopicTruncated || !rows.every((p) => p.topic !== spec.countedTopic || whole(p))) return null;
  // per task: the changelog partition and the counted-topic partition of one number
  const counts = new Map<string, number>();
  const where = new Map<string, [number, string]>();
  for (const [partition, r] of readableRecords(rows, spec.changelogTopic, readCommitted)) {
    if (r.key === null) continue;
    where.set(at(partition, r.key), [partition, r.key]);
    // a tombstone deletes the key
    if (r.value === null) counts.delete(at(partition, r.key));
    else counts.set(at(partition, r.key), Number(r.value));
  }
  const events = new Map<string, Set<string>>();
  const records = new Map<string, number>();
  for (const [partition, r] of readableRecords(rows, spec.countedTopic, readCommitted)) {
    if (r.key === null || r.value === null) continue;
    const k = at(partition, r.key);
    where.set(k, [partition, r.key]);
    records.set(k, (records.get(k) ?? 0) + 1);
    let set = events.get(k);
    if (!set) {
      set = new Set();
      events.set(k, set);
    }
    set.add(r.headers.event_id ?? recordAddress(spec.countedTopic, partition, r.offset));
  }
  if (counts.size === 0) return null;
  const pairs = [...where.entries()].sort(([, [pa, ka]], [, [pb, kb]]) => (ka < kb ? -1 : ka > kb ? 1 : pa - pb));
  const tasksOf = new Map<string, number>();
  for (const [, [, key]] of pairs) tasksOf.set(key, (tasksOf.get(key) ?? 0) + 1);
  const row = (k: string, partition: number, key: string): StoreKey => ({
    key,
    ...((tasksOf.get(key) ?? 0) > 1 ? { task: taskId(spec.repartitioned === true, partition) } : {}),
    count: counts.get(k) ?? 0,
    events: events.get(k)?.size ?? 0,
    records: records.get(k) ?? 0,
  });
  const keys = pairs.map(([k, [partition, key]]) => row(k, partition, key));
  const inflated = keys.filter((k) => k.count > k.events);
  const short = final ? keys.filter((k) => k.count < k.events) : [];
  return { changelogTopic: spec.changelogTopic, countedTopic: spec.countedTopic, keys, inflated, short };
}
