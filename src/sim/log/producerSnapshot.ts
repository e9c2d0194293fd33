/**
 * Producer state snapshots, and the reload of a log's producer state when its broker restarts
 * (Kafka's ProducerStateManager.takeSnapshot, truncateAndReload, loadFromSnapshot, readSnapshot,
 * removeStraySnapshots; UnifiedLog.roll and rebuildProducerState; LogLoader.load).
 *
 * - A snapshot is the producer map at an offset. The log takes one when it rolls a segment, at the
 *   new segment's base offset, before the batch that rolled it updates the state (UnifiedLog.roll:
 *   `updateMapEndOffset(newSegment.baseOffset)`, `takeSnapshot`), and one at the log end after each
 *   reload (rebuildProducerState). Only an offset above the last snapshot's is taken.
 * - A file holds one batch per producer: its last (`writeSnapshot` writes lastSeq, lastOffset and
 *   offsetDelta), so a producer loaded from it can match a retry of that batch only.
 * - A restart after a clean shutdown (a broker's controlled shutdown: UnifiedLog.close took a
 *   snapshot at the log end — `takeSnapshot`, only above the last one — and LogManager wrote the
 *   clean shutdown file) recovers nothing: LogLoader.load's `rebuildProducerState(…,
 *   reloadFromCleanShutdown)` loads the latest snapshot, that one (filtered, one batch each), and
 *   has nothing after it to replay.
 * - A restart after a crash (LogLoader.load without the clean shutdown file) first recovers the unflushed segments (LogLoader.recoverLog → recoverSegment): from
 *   the recovery point on — in the model always the active segment (Kafka flushes a segment up to
 *   the new base when it rolls; the recovery point never passes the active segment's base) — each
 *   with a fresh ProducerStateManager: `rebuildProducerState` up to the segment's base
 *   (`truncateAndReload` deletes the snapshots above it, loads the latest left with every producer
 *   idle for `producer.id.expiration.ms` left out — loadFromSnapshot filters isProducerExpired —,
 *   replays up to the base), `segment.recover` replays the segment's batches with no check and no
 *   filter, and `takeSnapshot` writes one at the segment's end: the log end. Then LogLoader's own
 *   manager (`removeStraySnapshots`, `rebuildProducerState(…, logEndOffset)`) loads *that* snapshot:
 *   every producer comes back with its last batch only, and every producer idle for
 *   `producer.id.expiration.ms` is left out — also one whose batches the recovery replayed, and one
 *   an expiration check had dropped. Verification entries lived only in memory (the crash dropped them).
 * - A truncation (UnifiedLog.truncateTo → rebuildProducerState on the live manager) deletes the
 *   snapshots past the new end, loads the latest left (filtered, one batch each) and replays the
 *   batches after it unfiltered — unless the state was empty before (no producer, no unreplicated
 *   transaction: `isEmptyBeforeTruncation`), when it replays nothing.
 */
import {
  applyControlBatch,
  applyDataBatch,
  dropReplicatedTxns,
  type PartitionLog,
  type ProducerSnapshot,
  withProducerSnapshot,
  withUnreplicatedTxns,
} from './partitionLog';
import { isProducerExpired, type ProducerStateEntry } from './producerStateEntry';

/** ProducerStateManager.removeStraySnapshots: a snapshot not at a segment's base offset stays only if it is the largest and not below the last base. */
export function keptSnapshots(log: PartitionLog): readonly ProducerSnapshot[] {
  const snapshots = log.producerSnapshots ?? [];
  const bases = new Set(log.segments.map((s) => s.baseOffset));
  const maxBase = Math.max(...bases);
  let stray: ProducerSnapshot | undefined;
  const kept: ProducerSnapshot[] = [];
  for (const s of snapshots) {
    if (bases.has(s.offset)) kept.push(s);
    else stray = s; // oldest first: each later stray replaces the one before
  }
  if (stray !== undefined && stray.offset >= maxBase) kept.push(stray);
  return kept.sort((a, b) => a.offset - b.offset);
}

/** ProducerSnapshot's file form: the entry with its last batch only (readSnapshot builds one BatchMetadata). */
function asRead(entry: ProducerStateEntry): ProducerStateEntry {
  return entry.batches.length <= 1 ? entry : { ...entry, batches: entry.batches.slice(-1) };
}

export interface ProducerStateReload {
  readonly log: PartitionLog;
  /** The snapshot loaded, or null (the state replayed from the log start). */
  readonly snapshotOffset: number | null;
  /** Where the replay started. */
  readonly replayedFrom: number;
  /** Producers the broker held before and no longer holds (left out as expired). */
  readonly dropped: readonly ProducerStateEntry[];
  /** Producers the broker no longer held (an expiration check dropped them) that the replay brought back. */
  readonly restored: readonly ProducerStateEntry[];
  /** Producers it holds with fewer of their batches than before (a snapshot keeps one per producer). */
  readonly fewerBatches: readonly ProducerStateEntry[];
}

/**
 * ProducerStateManager.truncateAndReload + UnifiedLog.rebuildProducerState over a log whose batches
 * are final and whose producer state is cleared: the latest of `snapshots` (at or below the log end,
 * above its start) loaded without the producers idle for `expirationMs` and with one batch each, the
 * batches from its offset (the log start without one) replayed with no check — unless `replay` is
 * false (rebuildProducerState's `isEmptyBeforeTruncation`) —, then a snapshot at the log end.
 */
export function rebuildProducerState(
  cleared: PartitionLog,
  snapshots: readonly ProducerSnapshot[],
  now: number,
  expirationMs: number,
  replay = true,
): { log: PartitionLog; snapshotOffset: number | null; replayedFrom: number } {
  const usable = snapshots.filter((s) => s.offset <= cleared.logEndOffset && s.offset > cleared.logStartOffset);
  const snapshot = usable[usable.length - 1];
  const loaded = new Map<number, ProducerStateEntry>();
  if (snapshot !== undefined)
    for (const [id, e] of snapshot.producers) if (!isProducerExpired(e, now, expirationMs)) loaded.set(id, asRead(e));
  const replayedFrom = snapshot?.offset ?? cleared.logStartOffset;
  let next: PartitionLog = { ...cleared, producers: loaded, producerSnapshots: usable };
  const aborted = cleared.abortedTxns; // the transaction index is on disk: the replay does not write it
  const from = replay ? cleared.batches.indexAtOrAfter(replayedFrom) : cleared.batches.length;
  for (let i = from; i < cleared.batches.length; i++) {
    const b = cleared.batches.at(i);
    if (b === undefined) continue;
    next = b.isControl ? { ...applyControlBatch(next, b), abortedTxns: aborted } : applyDataBatch(next, b);
  }
  return { log: withProducerSnapshot(next, cleared.logEndOffset), snapshotOffset: snapshot?.offset ?? null, replayedFrom };
}

/** What a reload forgot against a fuller state: producers gone, and producers of the same epoch with fewer batches. */
export function forgotten(
  fuller: ReadonlyMap<number, ProducerStateEntry>,
  reloaded: ReadonlyMap<number, ProducerStateEntry>,
): { dropped: ProducerStateEntry[]; fewerBatches: ProducerStateEntry[] } {
  const dropped: ProducerStateEntry[] = [];
  const fewerBatches: ProducerStateEntry[] = [];
  for (const [id, before] of fuller) {
    const after = reloaded.get(id);
    if (after === undefined) dropped.push(before);
    else if (after.producerEpoch === before.producerEpoch && after.batches.length < before.batches.length) fewerBatches.push(after);
  }
  return { dropped, fewerBatches };
}

/**
 * The producer state of a log its broker opens again at `now` after a crash (LogLoader.load:
 * recoverLog's recovery of the active segment, then the load of the snapshot it wrote at the log
 * end), against what it held.
 */
export function reloadProducerState(log: PartitionLog, now: number, expirationMs: number): ProducerStateReload {
  // truncateAndReload clears the unreplicated transactions; the replay's markers above the HW add theirs again
  const cleared: PartitionLog = { ...withUnreplicatedTxns(log, []), producers: new Map(), verificationStates: new Map() };
  // recoverSegment(active): rebuildProducerState up to its base deletes the snapshots above it (the
  // stray one a previous reload took at its log end among them); segment.recover replays the segment
  // and takes a snapshot at the log end
  const activeBase = log.segments[log.segments.length - 1]?.baseOffset ?? log.logStartOffset;
  const recovered = rebuildProducerState(
    cleared,
    keptSnapshots(log).filter((s) => s.offset <= activeBase),
    now,
    expirationMs,
  );
  // LogLoader's own manager loads that snapshot (readSnapshot: one batch each; loadFromSnapshot: the
  // expired left out), at the log end: nothing to replay
  const producers = new Map<number, ProducerStateEntry>();
  for (const [id, e] of recovered.log.producers) if (!isProducerExpired(e, now, expirationMs)) producers.set(id, asRead(e));
  const r = { ...recovered, log: { ...recovered.log, producers } };
  const next = dropReplicatedTxns(r.log);
  const restored: ProducerStateEntry[] = [];
  for (const [id, after] of next.producers) if (!log.producers.has(id)) restored.push(after);
  return { ...r, log: next, ...forgotten(log.producers, next.producers), restored };
}

/**
 * The producer state of a log its broker opens again at `now` after a clean shutdown: the snapshot
 * its close took at the log end (UnifiedLog.close → ProducerStateManager.takeSnapshot) is the latest,
 * and LogLoader.load loads it without recovery (truncateAndReload: the expired left out, one batch
 * each; nothing after it to replay), against what the broker held when it stopped.
 */
export function reloadAfterCleanShutdown(log: PartitionLog, now: number, expirationMs: number): ProducerStateReload {
  const closed = withProducerSnapshot(log, log.logEndOffset);
  const cleared: PartitionLog = { ...withUnreplicatedTxns(closed, []), producers: new Map(), verificationStates: new Map() };
  const r = rebuildProducerState(cleared, keptSnapshots(closed), now, expirationMs);
  const next = dropReplicatedTxns(r.log);
  return { ...r, log: next, ...forgotten(log.producers, next.producers), restored: [] };
}
