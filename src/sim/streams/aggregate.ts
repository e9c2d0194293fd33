/**
 * Kafka Streams' rules for what `groupBy(...).count()` counts, and how a state store is rebuilt from
 * its changelog.
 *
 * - `KStreamAggregate.KStreamAggregateProcessor.process` (count() is an aggregate, see
 *   `KGroupedStreamImpl.count`): a record whose key or value is null is skipped with the warning
 *   "Skipping record due to null key or value" and the dropped-records metric — it is not counted.
 * - `groupBy` re-keys records into a repartition topic; `InternalStreamsBuilder.rewriteRepartitionNodes`
 *   puts a `KStreamFilter (k, v) -> k != null` in front of it (no relaxed-null-key join downstream),
 *   so a record whose selected key is null is dropped silently before the repartition topic.
 */
import type { RecordForApp } from '../protocol/messages';
import { keyOf } from '../protocol/topicPartition';
import type { Stores } from './streamThreadContext';

/** Why count() skips a record, or null when it counts it. */
export function countSkipReason(r: Pick<RecordForApp, 'key' | 'value'>): 'null key' | 'null value' | null {
  if (r.key === null) return 'null key';
  if (r.value === null) return 'null value';
  return null;
}

/** The key groupBy selects: the record's key, or its value. Null when the selected field is null. */
export function selectedKey(r: Pick<RecordForApp, 'key' | 'value'>, groupBy: 'key' | 'value'): string | null {
  return groupBy === 'value' ? r.value : r.key;
}

/** The count a changelog record carries; a null value (a tombstone) deletes the key. */
function changelogCount(value: string | null): number | null {
  return value === null ? null : Number(value);
}

/**
 * Applies changelog records to the tasks' stores, as StoreChangelogReader does while restoring:
 * each changelog partition into its own task's store (the task of that partition number,
 * ProcessorStateManager.getStorePartition; restoreChangelog → stateManager.restore), and only
 * records below the restore's end offset of their partition (records at or past it are left for later).
 */
export function applyChangelog(
  stores: Stores,
  records: readonly Pick<RecordForApp, 'topic' | 'partition' | 'offset' | 'key' | 'value'>[],
  end: Readonly<Record<string, number>>,
): { stores: Stores; applied: number } {
  const next: Record<number, Record<string, number>> = {};
  for (const [p, s] of Object.entries(stores)) next[Number(p)] = { ...s };
  let applied = 0;
  for (const r of records) {
    if (r.offset >= (end[keyOf(r)] ?? 0) || r.key === null) continue;
    const count = changelogCount(r.value);
    next[r.partition] ??= {};
    const store = next[r.partition] as Record<string, number>;
    if (count === null) delete store[r.key];
    else store[r.key] = count;
    applied += 1;
  }
  return { stores: next, applied };
}
