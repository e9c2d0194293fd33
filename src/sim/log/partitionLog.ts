/**
 * One partition's log on its leader broker: record batches at dense offsets, the producer state per
 * producerId, the aborted-transaction index, and the offsets that bound what consumers may read:
 * log start offset, high watermark, last stable offset, log end offset.
 *
 * Every function here is pure: it takes a PartitionLog and returns a new one.
 *
 * A partition with one replica (no `epochs`) has its high watermark at the log end offset as soon
 * as a batch is appended; a replicated partition's log carries a leader epoch cache (`epochs`), stamps
 * each batch with its leader epoch, and its HW is moved by the replication layer
 * (src/sim/replication: Partition.maybeIncrementLeaderHW, or a follower's min(leader HW, own LEO)).
 */
import type { KafkaError } from '../protocol/errors';
import { AppendLog } from './appendLog';
import { BatchLog } from './batchLog';
import { type EpochEntry, latestEpoch } from './leaderEpochCache';
import {
  type BatchMetadata,
  checkProducerBatch,
  emptyEntry,
  findDuplicateBatch,
  type ProducerStateEntry,
  recordBatchInEntry,
} from './producerStateEntry';
import {
  type ControlType,
  type LogRecord,
  lastSequenceOf,
  NO_HEADERS,
  NO_PRODUCER_ID,
  NO_SEQUENCE,
  type ProducedBatch,
  type ProducedRecord,
  type RecordBatch,
  sharedHeaders,
} from './recordBatch';
import { type AbortedTxn, abortedTxnsOverlapping } from './transactionIndex';
import {
  endsVerification,
  guardVerifies,
  maybeUpdateLowestSequenceAndEpoch,
  NO_VERIFICATION_GUARD,
  type VerificationStateEntry,
} from './verificationState';

export interface SegmentConfig {
  /** Kafka's segment.bytes; records are sized with estimateRecordBytes. */
  readonly segmentBytes: number;
  /**
   * Kafka's segment.ms: the next append rolls a new segment when its batch's largest timestamp is
   * more than this after the segment's first batch's (LogSegment.shouldRoll / timeWaitedForRoll).
   */
  readonly segmentMs: number;
}

export interface TopicLogConfig {
  /** cleanup.policy: 'delete' (the default), 'compact' or 'compact,delete'. */
  readonly cleanupPolicy: 'delete' | 'compact' | 'compact,delete';
  /** delete.retention.ms: how long a tombstone survives cleaning. */
  readonly deleteRetentionMs: number;
}

export const DEFAULT_TOPIC_LOG_CONFIG: TopicLogConfig = { cleanupPolicy: 'delete', deleteRetentionMs: 86400000 };

export function isCompacted(config: TopicLogConfig): boolean {
  return config.cleanupPolicy !== 'delete';
}

export interface Segment {
  readonly baseOffset: number;
  /** The largest timestamp of the segment's first batch (LogSegment.rollingBasedTimestamp); unset while empty. */
  readonly rollingBasedTimestamp: number;
  readonly bytes: number;
}

export interface PartitionLog {
  readonly topic: string;
  readonly partition: number;
  /** The record batches, kept as bytes (batchLog.ts): each read builds a plain batch. */
  readonly batches: BatchLog;
  readonly logStartOffset: number;
  readonly logEndOffset: number;
  readonly highWatermark: number;
  readonly producers: ReadonlyMap<number, ProducerStateEntry>;
  /** Transaction verifications in progress, per producerId (ProducerStateManager.verificationStates). */
  readonly verificationStates: ReadonlyMap<number, VerificationStateEntry>;
  /** The next verification guard to hand out (Kafka creates a new VerificationGuard object). */
  readonly nextVerificationGuard: number;
  readonly abortedTxns: AppendLog<AbortedTxn>;
  readonly segments: readonly Segment[];
  readonly segmentConfig: SegmentConfig;
  readonly topicConfig: TopicLogConfig;
  /** The log cleaner has compacted everything below this offset. */
  readonly cleanerCheckpoint: number;
  /**
   * LeaderEpochFileCache: (leader epoch, start offset) entries, oldest first. Present only on a
   * replicated partition's log; absent, the log has one replica and no epochs.
   */
  readonly epochs?: readonly EpochEntry[];
  /**
   * Finished transactions whose marker is not yet below the high watermark, oldest first
   * (ProducerStateManager.unreplicatedTxns): they hold the LSO at their first offset until the HW
   * passes the marker (onHighWatermarkUpdated). Present only while there is one: on a log with one
   * replica the HW passes every marker as it is appended.
   */
  readonly unreplicatedTxns?: readonly UnreplicatedTxn[];
  /**
   * Producer state snapshots, oldest first (`log/producerSnapshot.ts`): taken when a segment rolls and
   * after a restart's reload; a restart loads the latest. Absent until the first is taken.
   */
  readonly producerSnapshots?: readonly ProducerSnapshot[];
}

/** A producer state snapshot (ProducerStateManager.takeSnapshot): the producer map at an offset. */
export interface ProducerSnapshot {
  /** The state of every batch below this offset. */
  readonly offset: number;
  readonly producers: ReadonlyMap<number, ProducerStateEntry>;
}

/** ProducerStateManager.takeSnapshot: the log's producer map now, at `offset`, if later than the last snapshot's. */
export function withProducerSnapshot(log: PartitionLog, offset: number): PartitionLog {
  const snapshots = log.producerSnapshots ?? [];
  const last = snapshots[snapshots.length - 1];
  if (last !== undefined && last.offset >= offset) return log;
  return { ...log, producerSnapshots: [...snapshots, { offset, producers: log.producers }] };
}

/** A finished transaction on one partition: its first data offset and its marker's offset. */
export interface UnreplicatedTxn {
  readonly producerId: number;
  readonly firstOffset: number;
  readonly lastOffset: number;
}

/** The log with these unreplicated transactions; the field is left out when there are none. */
export function withUnreplicatedTxns(log: PartitionLog, txns: readonly UnreplicatedTxn[]): PartitionLog {
  if (txns.length > 0) return { ...log, unreplicatedTxns: txns };
  if (log.unreplicatedTxns === undefined) return log;
  const { unreplicatedTxns: _dropped, ...rest } = log;
  return rest;
}

/** UnifiedLog.updateHighWatermarkMetadata → onHighWatermarkUpdated: a marker below the HW is replicated. */
export function dropReplicatedTxns(log: PartitionLog): PartitionLog {
  const txns = log.unreplicatedTxns;
  if (txns === undefined) return log;
  const left = txns.filter((t) => t.lastOffset >= log.highWatermark);
  return left.length === txns.length ? log : withUnreplicatedTxns(log, left);
}

export const DEFAULT_SEGMENT_CONFIG: SegmentConfig = { segmentBytes: 1073741824, segmentMs: 604800000 };

export function createPartitionLog(
  topic: string,
  partition: number,
  startOffset = 0,
  segmentConfig: SegmentConfig = DEFAULT_SEGMENT_CONFIG,
  topicConfig: TopicLogConfig = DEFAULT_TOPIC_LOG_CONFIG,
): PartitionLog {
  return {
    topic,
    partition,
    batches: BatchLog.empty(),
    logStartOffset: startOffset,
    logEndOffset: startOffset,
    highWatermark: startOffset,
    producers: new Map(),
    verificationStates: new Map(),
    nextVerificationGuard: NO_VERIFICATION_GUARD + 1,
    abortedTxns: AppendLog.empty(),
    segments: [{ baseOffset: startOffset, rollingBasedTimestamp: 0, bytes: 0 }],
    segmentConfig,
    topicConfig,
    cleanerCheckpoint: startOffset,
  };
}

/** Size of a record for segment.bytes (Kafka's v2 record overhead is about this much). */
export function estimateRecordBytes(r: { key: string | null; value: string | null; headers: Readonly<Record<string, string>> }): number {
  let n = 20 + (r.key?.length ?? 0) + (r.value?.length ?? 0);
  for (const [k, v] of Object.entries(r.headers)) n += k.length + v.length + 2;
  return n;
}

/** The epoch a leader stamps on what it appends now (partitionLeaderEpoch): null on a one-replica log. */
export function appendEpoch(log: PartitionLog): number | null {
  return log.epochs === undefined ? null : latestEpoch(log.epochs);
}

export type AppendOutcome =
  | { kind: 'appended'; baseOffset: number; lastOffset: number }
  /** A retry of a batch the broker already has: nothing appended, answered with the original offsets. */
  | { kind: 'duplicate'; baseOffset: number; lastOffset: number }
  | { kind: 'rejected'; error: KafkaError; reason: string };

/** A batch's largest record timestamp (its header's maxTimestamp; a header kept empty by the cleaner: its append time). */
function maxTimestamp(batch: RecordBatch): number {
  let max = batch.records.length === 0 ? batch.appendTime : Number.NEGATIVE_INFINITY;
  for (const r of batch.records) if (r.timestamp > max) max = r.timestamp;
  return max;
}

/**
 * UnifiedLog.maybeRoll → LogSegment.shouldRoll: a non-empty active segment rolls when this batch
 * would take it past segment.bytes, or when the batch's largest timestamp is more than segment.ms
 * (strictly; segment.jitter.ms 0) after the segment's first batch's (timeWaitedForRoll): record
 * timestamps, not the broker's clock, so a follower rolls where its leader did.
 */
function withBatch(log: PartitionLog, batch: RecordBatch, bytes: number): PartitionLog {
  const active = log.segments[log.segments.length - 1] as Segment;
  const ts = maxTimestamp(batch);
  const roll =
    active.bytes > 0 &&
    (active.bytes + bytes > log.segmentConfig.segmentBytes || ts - active.rollingBasedTimestamp > log.segmentConfig.segmentMs);
  if (roll) {
    // UnifiedLog.roll snapshots the producer state at the new segment's base, before this batch's update
    const rolled = withProducerSnapshot(log, batch.baseOffset);
    return withAppended(rolled, batch, [...log.segments, { baseOffset: batch.baseOffset, rollingBasedTimestamp: ts, bytes }]);
  }
  return withAppended(log, batch, [
    ...log.segments.slice(0, -1),
    {
      baseOffset: active.baseOffset,
      rollingBasedTimestamp: active.bytes === 0 ? ts : active.rollingBasedTimestamp,
      bytes: active.bytes + bytes,
    },
  ]);
}

/** The log with the batch after its end and these segments. */
function withAppended(log: PartitionLog, batch: RecordBatch, segments: readonly Segment[]): PartitionLog {
  const next = batch.lastOffset + 1;
  if (log.epochs !== undefined) {
    // a replicated log: the batch carries the leader's epoch; the HW waits for the ISR
    const epoch = latestEpoch(log.epochs);
    const stamped = batch.partitionLeaderEpoch === undefined && epoch !== null ? { ...batch, partitionLeaderEpoch: epoch } : batch;
    return { ...log, batches: log.batches.append(stamped), logEndOffset: next, segments };
  }
  return {
    ...log,
    batches: log.batches.append(batch),
    logEndOffset: next,
    highWatermark: next, // one replica: the HW follows the log end offset
    segments,
  };
}

/** A batch's size in a segment: its records' estimated sizes, 20 bytes a marker (a header kept empty: 0). */
export function batchBytes(batch: RecordBatch): number {
  let bytes = 0;
  for (const r of batch.records) bytes += batch.isControl ? 20 : estimateRecordBytes(r);
  return bytes;
}

/** Appends a batch exactly as given (its offsets and leader epoch), as a follower does (withBatch). */
export function appendBatchAsIs(log: PartitionLog, batch: RecordBatch): PartitionLog {
  return withBatch(log, batch, batchBytes(batch));
}

/** UnifiedLog.hasOngoingTransaction(producerId, epoch): this epoch of the producer has an open transaction here. */
export function hasOngoingTransaction(log: PartitionLog, producerId: number, producerEpoch: number): boolean {
  const entry = log.producers.get(producerId);
  return entry !== undefined && entry.currentTxnFirstOffset !== null && entry.producerEpoch === producerEpoch;
}

/**
 * UnifiedLog.maybeStartTransactionVerification, before the leader asks the coordinator: creates the
 * producer's verification entry (a new guard) or lowers its lowest sequence, and returns the guard
 * the verified produce must carry. `supportsEpochBump`: a protocol v2 produce (it adds the partition).
 */
export function startTransactionVerification(
  log: PartitionLog,
  producerId: number,
  baseSequence: number,
  producerEpoch: number,
  now: number,
  supportsEpochBump = false,
): { log: PartitionLog; guard: number } {
  const existing = log.verificationStates.get(producerId);
  const entry = existing
    ? maybeUpdateLowestSequenceAndEpoch(existing, baseSequence, producerEpoch)
    : {
        guard: log.nextVerificationGuard,
        lowestSequence: baseSequence,
        epoch: producerEpoch,
        timestamp: now,
        ...(supportsEpochBump ? { supportsEpochBump: true as const } : {}),
      };
  if (entry === existing) return { log, guard: entry.guard };
  const verificationStates = new Map(log.verificationStates);
  verificationStates.set(producerId, entry);
  return { log: { ...log, verificationStates, nextVerificationGuard: log.nextVerificationGuard + (existing ? 0 : 1) }, guard: entry.guard };
}

/**
 * UnifiedLog.updateProducers: a transactional append (data or marker) ends the producer's
 * verification — but a protocol v2 one survives a marker of its own epoch (endsVerification).
 */
function clearVerification(log: PartitionLog, producerId: number, batch: { isControl: boolean; producerEpoch: number }): PartitionLog {
  if (!endsVerification(log.verificationStates.get(producerId), batch)) return log;
  const verificationStates = new Map(log.verificationStates);
  verificationStates.delete(producerId);
  return { ...log, verificationStates };
}

export interface AppendOptions {
  /** transaction.partition.verification.enable (always on for protocol v2) — only the leader's client appends check it. */
  readonly verificationEnabled?: boolean;
  /** The guard the leader got when it started verifying this produce; NO_VERIFICATION_GUARD if it did not. */
  readonly verificationGuard?: number;
}

/**
 * Appends a producer's batch after the broker's checks (UnifiedLog.analyzeAndValidateProducerState):
 * a duplicate appends nothing and answers with the original offsets; a transactional batch that
 * starts a transaction must carry the current verification guard; a stale epoch or a sequence gap
 * is rejected.
 */
export function appendProducerBatch(
  log: PartitionLog,
  batch: ProducedBatch,
  now: number,
  options: AppendOptions = {},
): { log: PartitionLog; outcome: AppendOutcome } {
  if (isCompacted(log.topicConfig) && batch.records.some((r) => r.key === null))
    return rejected(log, 'INVALID_RECORD', 'Compacted topic cannot accept message without key');
  const idempotent = batch.producerId !== NO_PRODUCER_ID && batch.baseSequence !== NO_SEQUENCE;
  const lastSeq = lastSequenceOf(batch);
  const entry = idempotent ? log.producers.get(batch.producerId) : undefined;
  if (idempotent) {
    const dup = findDuplicateBatch(entry, batch.producerEpoch, batch.baseSequence, lastSeq);
    if (dup) return { log, outcome: { kind: 'duplicate', baseOffset: dup.firstOffset, lastOffset: dup.lastOffset } };
    const verification = log.verificationStates.get(batch.producerId);
    if (
      batch.isTransactional &&
      options.verificationEnabled &&
      !hasOngoingTransaction(log, batch.producerId, batch.producerEpoch) &&
      !guardVerifies(verification, options.verificationGuard ?? NO_VERIFICATION_GUARD)
    )
      return rejected(log, 'INVALID_TXN_STATE', 'Record was not part of an ongoing transaction');
    const check = checkProducerBatch(entry, batch.producerEpoch, batch.baseSequence, verification);
    if (!check.ok) return rejected(log, check.error, check.reason);
  } else if (batch.producerId !== NO_PRODUCER_ID) {
    // transactional or idempotent batches always carry sequences; an epoch check still applies
    const stored = log.producers.get(batch.producerId);
    if (stored && batch.producerEpoch < stored.producerEpoch)
      return rejected(log, 'INVALID_PRODUCER_EPOCH', `epoch ${batch.producerEpoch} is older than ${stored.producerEpoch}`);
  }
  const baseOffset = log.logEndOffset;
  const records = batch.records.map((r, i) => withOffset(r, baseOffset + i));
  const stored: RecordBatch = {
    baseOffset,
    lastOffset: baseOffset + records.length - 1,
    producerId: batch.producerId,
    producerEpoch: batch.producerEpoch,
    baseSequence: small(batch.baseSequence),
    lastSequence: small(lastSeq),
    isTransactional: batch.isTransactional,
    isControl: false,
    controlType: null,
    records,
    appendTime: small(now),
  };
  let bytes = 0;
  for (const r of records) bytes += estimateRecordBytes(r);
  let next = withBatch(log, stored, bytes);
  if (batch.producerId !== NO_PRODUCER_ID) {
    const meta: BatchMetadata = {
      firstSeq: batch.baseSequence,
      lastSeq,
      firstOffset: stored.baseOffset,
      lastOffset: stored.lastOffset,
    };
    const producers = new Map(log.producers);
    producers.set(
      batch.producerId,
      recordBatchInEntry(
        entry ?? log.producers.get(batch.producerId),
        batch.producerId,
        batch.producerEpoch,
        meta,
        batch.isTransactional,
        maxTimestamp(stored),
      ),
    );
    next = { ...next, producers };
    if (batch.isTransactional) next = clearVerification(next, batch.producerId, stored);
  }
  return { log: next, outcome: { kind: 'appended', baseOffset: stored.baseOffset, lastOffset: stored.lastOffset } };
}

/** An append refused: the log as it was, and the error with its reason. */
function rejected(log: PartitionLog, error: KafkaError, reason: string): { log: PartitionLog; outcome: AppendOutcome } {
  return { log, outcome: { kind: 'rejected', error, reason } };
}

/**
 * Writes a transaction marker (a control batch of one record, one offset) for a producer. An ABORT
 * for a transaction that wrote data here adds an entry to the aborted-transaction index.
 */
export function appendMarker(
  log: PartitionLog,
  marker: { producerId: number; producerEpoch: number; controlType: ControlType; coordinatorEpoch: number },
  now: number,
): { log: PartitionLog; outcome: AppendOutcome; txnFirstOffset: number | null } {
  const entry = log.producers.get(marker.producerId);
  const refused = (error: KafkaError, reason: string) => ({ ...rejected(log, error, reason), txnFirstOffset: null });
  if (entry && marker.producerEpoch < entry.producerEpoch)
    return refused('INVALID_PRODUCER_EPOCH', `marker epoch ${marker.producerEpoch} is older than the current epoch ${entry.producerEpoch}`);
  // ProducerAppendInfo.checkCoordinatorEpoch: a marker from a coordinator older than the last one
  // that wrote a marker for this producer here (a zombie coordinator's, late) is refused
  if (entry && marker.coordinatorEpoch < entry.coordinatorEpoch)
    return refused(
      'TRANSACTION_COORDINATOR_FENCED',
      `marker coordinator epoch ${marker.coordinatorEpoch} is older than ${entry.coordinatorEpoch}, the last coordinator's to write a marker for producer ${marker.producerId}`,
    );
  const offset = log.logEndOffset;
  const batch: RecordBatch = {
    baseOffset: offset,
    lastOffset: offset,
    producerId: marker.producerId,
    producerEpoch: marker.producerEpoch,
    baseSequence: NO_SEQUENCE,
    lastSequence: NO_SEQUENCE,
    isTransactional: true,
    isControl: true,
    controlType: marker.controlType,
    records: [{ offset, key: null, value: null, headers: NO_HEADERS, timestamp: small(now) }],
    appendTime: small(now),
    coordinatorEpoch: marker.coordinatorEpoch,
  };
  const txnFirstOffset = (entry ?? emptyEntry(marker.producerId)).currentTxnFirstOffset;
  const next = applyControlBatch(withBatch(log, batch, 20), batch);
  return { log: next, outcome: { kind: 'appended', baseOffset: offset, lastOffset: offset }, txnFirstOffset };
}

/**
 * The LSO an aborted-transaction index entry records (ProducerStateManager.lastStableOffset(CompletedTxn),
 * taken in UnifiedLog.append before `completeTxn`): the first offset of the earliest transaction of
 * another producer still open, else the offset after the marker. Not the partition's LSO: it ignores
 * the HW and the finished transactions whose markers are not yet replicated.
 */
function stableOffsetAfterTxn(log: PartitionLog, producerId: number, markerOffset: number): number {
  let first = Number.POSITIVE_INFINITY;
  for (const [id, entry] of log.producers)
    if (id !== producerId && entry.currentTxnFirstOffset !== null && entry.currentTxnFirstOffset < first)
      first = entry.currentTxnFirstOffset;
  return first === Number.POSITIVE_INFINITY ? markerOffset + 1 : first;
}

/**
 * What a transaction marker does to the producer state and the aborted-transaction index once it is
 * in the log (ProducerAppendInfo.appendEndTxnMarker, then the transaction index): the producer takes
 * the marker's epoch and its coordinator epoch. `log` already holds the marker batch at its offset.
 */
export function applyControlBatch(log: PartitionLog, batch: RecordBatch): PartitionLog {
  const coordinatorEpoch = batch.coordinatorEpoch ?? -1;
  const offset = batch.baseOffset;
  const base = log.producers.get(batch.producerId) ?? emptyEntry(batch.producerId);
  const txnFirstOffset = base.currentTxnFirstOffset;
  const producers = new Map(log.producers);
  producers.set(batch.producerId, {
    ...base,
    // a marker with a bumped epoch (fencing, or protocol v2) moves the producer to that epoch
    producerEpoch: batch.producerEpoch,
    batches: batch.producerEpoch === base.producerEpoch ? base.batches : [],
    currentTxnFirstOffset: null,
    coordinatorEpoch,
    // ProducerStateEntry.update(epoch, coordinatorEpoch, the marker record's timestamp)
    lastTimestamp: maxTimestamp(batch),
  });
  let next = clearVerification({ ...log, producers }, batch.producerId, batch);
  if (batch.controlType === 'ABORT' && txnFirstOffset !== null) {
    const lso = stableOffsetAfterTxn(next, batch.producerId, offset);
    next = {
      ...next,
      abortedTxns: next.abortedTxns.append({
        producerId: batch.producerId,
        firstOffset: txnFirstOffset,
        lastOffset: offset,
        lastStableOffset: lso,
      }),
    };
  }
  // ProducerStateManager.completeTxn: the finished transaction stays unstable until the HW passes
  // its marker (at once on a log with one replica, whose HW is already past it)
  if (txnFirstOffset !== null && offset >= next.highWatermark) {
    const done: UnreplicatedTxn = { producerId: batch.producerId, firstOffset: txnFirstOffset, lastOffset: offset };
    next = withUnreplicatedTxns(next, [...(next.unreplicatedTxns ?? []), done]);
  }
  return next;
}

/** What a data batch does to its producer's state, without any check (a follower's append, a replay). */
export function applyDataBatch(log: PartitionLog, batch: RecordBatch): PartitionLog {
  if (batch.producerId === NO_PRODUCER_ID) return log;
  const meta: BatchMetadata = {
    firstSeq: batch.baseSequence,
    lastSeq: batch.lastSequence,
    firstOffset: batch.baseOffset,
    lastOffset: batch.lastOffset,
  };
  const producers = new Map(log.producers);
  producers.set(
    batch.producerId,
    recordBatchInEntry(
      log.producers.get(batch.producerId),
      batch.producerId,
      batch.producerEpoch,
      meta,
      batch.isTransactional,
      maxTimestamp(batch),
    ),
  );
  return { ...log, producers };
}

/**
 * First offset of any open transaction on this partition, or of a finished one whose marker is not
 * yet below the high watermark (ProducerStateManager.firstUnstableOffset), or null.
 */
export function firstUnstableOffset(log: PartitionLog): number | null {
  let min: number | null = null;
  for (const e of log.producers.values())
    if (e.currentTxnFirstOffset !== null && (min === null || e.currentTxnFirstOffset < min)) min = e.currentTxnFirstOffset;
  for (const t of log.unreplicatedTxns ?? []) if (min === null || t.firstOffset < min) min = t.firstOffset;
  return min;
}

/**
 * Last Stable Offset: min(first offset of any open transaction, high watermark). Exclusive: a
 * read_committed consumer reads offsets strictly below it.
 */
export function lastStableOffset(log: PartitionLog): number {
  const fuo = firstUnstableOffset(log);
  return fuo === null ? log.highWatermark : Math.min(fuo, log.highWatermark);
}

/** Index of the batch that contains `offset`, or of the first batch after it. */
export function batchIndexAtOrAfter(log: PartitionLog, offset: number): number {
  return log.batches.indexAtOrAfter(offset);
}

export type IsolationLevel = 'read_uncommitted' | 'read_committed';

export interface FetchResult {
  readonly batches: readonly RecordBatch[];
  /** For read_committed: aborted transactions overlapping the returned range (FetchResponse.abortedTransactions). */
  readonly abortedTransactions: readonly AbortedTxn[];
  readonly highWatermark: number;
  readonly lastStableOffset: number;
  readonly logStartOffset: number;
  readonly error: KafkaError | null;
}

/**
 * What the leader returns to a Fetch at `fetchOffset`: whole batches up to the high watermark
 * (read_uncommitted) or the LSO (read_committed), at most `maxRecords` records' worth of batches.
 */
export function fetchFrom(log: PartitionLog, fetchOffset: number, isolation: IsolationLevel, maxRecords: number): FetchResult {
  const lso = lastStableOffset(log);
  const upper = isolation === 'read_committed' ? lso : log.highWatermark;
  if (fetchOffset < log.logStartOffset || fetchOffset > log.logEndOffset) return fetchResult(log, lso, [], [], 'OFFSET_OUT_OF_RANGE');
  const out: RecordBatch[] = [];
  let count = 0;
  for (let i = batchIndexAtOrAfter(log, fetchOffset); i < log.batches.length; i++) {
    if (log.batches.lastOffsetAt(i) >= upper) break;
    const b = log.batches.at(i) as RecordBatch;
    out.push(b);
    count += b.records.length;
    if (count >= maxRecords) break;
  }
  const last = out[out.length - 1];
  const aborted = isolation === 'read_committed' && last ? abortedTxnsOverlapping(log.abortedTxns, fetchOffset, last.lastOffset + 1) : [];
  return fetchResult(log, lso, out, aborted, null);
}

/** Spelled out, not spread from a common part: a spread plus new keys makes a hidden class per result in V8. */
function fetchResult(
  log: PartitionLog,
  lso: number,
  batches: readonly RecordBatch[],
  abortedTransactions: readonly AbortedTxn[],
  error: KafkaError | null,
): FetchResult {
  return {
    highWatermark: log.highWatermark,
    lastStableOffset: lso,
    logStartOffset: log.logStartOffset,
    batches,
    abortedTransactions,
    error,
  };
}

/**
 * The same number, as a small integer when it is one. Virtual times and sequences arrive from
 * float arithmetic as integral heap numbers; a field of a stored batch or record that ever holds
 * one is boxed (16 bytes a value) for every object of that shape, for the whole run.
 */
function small(x: number): number {
  const i = x | 0;
  return i === x && i !== 0 ? i : x;
}

/** The keys a producer's record has, in the order it has them (`origin` only for an application's send()). */
const RECORD_KEYS = ['key', 'value', 'headers', 'timestamp', 'origin'] as const;

/**
 * `{ ...r, offset }` with the same keys in the same order. Not written as a spread: V8 (Node 20)
 * gives every object made by a spread plus a key the source lacks a hidden class of its own
 * (~700 bytes per record in a 10k-record log, and megamorphic reads of every record). A record
 * with a producer's usual keys is one literal (its fields in the object, no property array: ~40
 * bytes less a record); any other is copied into a fresh literal and then given the key.
 */
function withOffset(r: ProducedRecord, offset: number): LogRecord {
  let n = 0;
  for (const k in r) if (k !== RECORD_KEYS[n++]) return copiedWithOffset(r, offset);
  if (n === 5)
    return {
      key: r.key,
      value: r.value,
      headers: sharedHeaders(r.headers),
      timestamp: small(r.timestamp),
      origin: r.origin,
      offset,
    } as LogRecord;
  if (n === 4) return { key: r.key, value: r.value, headers: sharedHeaders(r.headers), timestamp: small(r.timestamp), offset } as LogRecord;
  return copiedWithOffset(r, offset);
}

function copiedWithOffset(r: ProducedRecord, offset: number): LogRecord {
  const out: ProducedRecord & { offset?: number } = Object.assign({}, r);
  out.offset = offset;
  return out as LogRecord;
}

/** The offsets a read of the log from its start would show (records of surviving batches). */
export function recordCount(log: PartitionLog): number {
  let n = 0;
  for (const b of log.batches) n += b.records.length;
  return n;
}
