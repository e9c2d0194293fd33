/**
 * Replica fetching, both ends (Partition.fetchRecords/readRecords on the leader,
 * AbstractFetcherThread.truncateOnFetchResponse / getOffsetTruncationState and
 * ReplicaFetcherThread.processPartitionData on the follower). Pure functions.
 */
import type { ActorId } from '../kernel/envelope';
import { UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET } from '../log/leaderEpochCache';
import { batchIndexAtOrAfter, type PartitionLog } from '../log/partitionLog';
import type { RecordBatch } from '../log/recordBatch';
import {
  appendAsFollower,
  logEndOffsetForEpoch,
  type TruncationReload,
  truncateReloading,
  truncateTo,
  withHighWatermark,
} from '../log/replicaLog';
import type { KafkaError } from '../protocol/errors';

/** A follower's Fetch for one partition (FetchRequest with replicaId). */
export interface ReplicaFetchRequest {
  readonly topic: string;
  readonly partition: number;
  readonly replicaId: ActorId;
  /**
   * The follower's broker epoch, sent as Kafka's is. Kafka's leader does not add a follower whose
   * epoch differs from its metadata cache's to the ISR (Partition.isBrokerEpochIsrEligible); the
   * model's leader does not read it (docs/kafka-model.md, Replication: "Leader").
   */
  readonly brokerEpoch: number;
  readonly fetchOffset: number;
  /** The latest epoch in the follower's log, −1 for none. */
  readonly lastFetchedEpoch: number;
  readonly currentLeaderEpoch: number;
  readonly maxWaitMs: number;
  readonly maxRecords: number;
}

/** FetchResponse.EpochEndOffset: where the follower's log diverges from the leader's. */
export interface DivergingEpoch {
  readonly epoch: number;
  readonly endOffset: number;
}

export interface ReplicaFetchResponse {
  readonly topic: string;
  readonly partition: number;
  readonly error: KafkaError | 'NONE';
  readonly highWatermark: number;
  readonly logStartOffset: number;
  readonly batches: readonly RecordBatch[];
  readonly divergingEpoch: DivergingEpoch | null;
  readonly leaderEpoch: number;
}

/**
 * Partition.checkCurrentLeaderEpoch (via getLocalLog / localLogWithEpochOrThrow, before the leader
 * check): a Fetch's currentLeaderEpoch below this broker's epoch of the partition is
 * FENCED_LEADER_EPOCH, above it UNKNOWN_LEADER_EPOCH; equal or absent passes. `local` is the leader
 * epoch the broker holds for the partition, as leader or as follower.
 */
export function checkCurrentLeaderEpoch(
  local: number,
  remote: number | undefined,
): 'NONE' | 'FENCED_LEADER_EPOCH' | 'UNKNOWN_LEADER_EPOCH' {
  if (remote === undefined || remote === local) return 'NONE';
  return local > remote ? 'FENCED_LEADER_EPOCH' : 'UNKNOWN_LEADER_EPOCH';
}

/**
 * The leader reads for a follower (Partition.readRecords, FetchIsolation.LOG_END): a stale or future
 * currentLeaderEpoch is refused; a lastFetchedEpoch whose end here is older or shorter than the
 * follower's log answers DivergingEpoch with no records; otherwise batches from fetchOffset up to
 * the leader's LEO.
 */
export function readForFollower(log: PartitionLog, leaderEpoch: number, f: ReplicaFetchRequest): ReplicaFetchResponse {
  const base = {
    topic: f.topic,
    partition: f.partition,
    highWatermark: log.highWatermark,
    logStartOffset: log.logStartOffset,
    leaderEpoch,
  };
  const fail = (error: KafkaError): ReplicaFetchResponse => ({ ...base, error, batches: [], divergingEpoch: null });
  const epochError = checkCurrentLeaderEpoch(leaderEpoch, f.currentLeaderEpoch);
  if (epochError !== 'NONE') return fail(epochError);
  if (f.lastFetchedEpoch !== UNDEFINED_EPOCH) {
    const end = logEndOffsetForEpoch(log, f.lastFetchedEpoch);
    if (end.endOffset === UNDEFINED_EPOCH_OFFSET || end.epoch === UNDEFINED_EPOCH) return fail('OFFSET_OUT_OF_RANGE');
    if (end.epoch < f.lastFetchedEpoch || end.endOffset < f.fetchOffset)
      return { ...base, error: 'NONE', batches: [], divergingEpoch: { epoch: end.epoch, endOffset: end.endOffset } };
  }
  if (f.fetchOffset < log.logStartOffset || f.fetchOffset > log.logEndOffset) return fail('OFFSET_OUT_OF_RANGE');
  const batches: RecordBatch[] = [];
  let count = 0;
  for (let i = batchIndexAtOrAfter(log, f.fetchOffset); i < log.batches.length && count < f.maxRecords; i++) {
    const b = log.batches.at(i) as RecordBatch;
    batches.push(b);
    count += b.records.length;
  }
  return { ...base, error: 'NONE', batches, divergingEpoch: null };
}

/**
 * AbstractFetcherThread.getOffsetTruncationState: where a follower truncates on a DivergingEpoch.
 * If it knows the leader's epoch, to min(leader's end offset, its own end of that epoch, its LEO),
 * done; if not, to the end of its largest lower epoch, and it fetches again to learn more.
 */
export function truncationOffset(log: PartitionLog, diverging: DivergingEpoch): { offset: number; completed: boolean } {
  const leo = log.logEndOffset;
  if (diverging.endOffset === UNDEFINED_EPOCH_OFFSET) return { offset: Math.min(log.highWatermark, leo), completed: true };
  if (diverging.epoch === UNDEFINED_EPOCH) return { offset: Math.min(diverging.endOffset, leo), completed: true };
  const own = logEndOffsetForEpoch(log, diverging.epoch);
  if (own.endOffset === UNDEFINED_EPOCH_OFFSET) return { offset: Math.min(diverging.endOffset, leo), completed: true };
  if (own.epoch !== diverging.epoch) return { offset: Math.min(own.endOffset, leo), completed: false };
  return { offset: Math.min(diverging.endOffset, own.endOffset, leo), completed: true };
}

/** What a follower's log became from one fetch answer, and the records a truncation cut. */
export interface FollowerFetchOutcome {
  readonly log: PartitionLog;
  /** Batches removed by truncation (empty when none). */
  readonly truncated: readonly RecordBatch[];
  readonly truncatedFrom: number | null;
  /** What the truncation's producer state reload forgot (absent when nothing was cut). */
  readonly reload?: TruncationReload;
}

/** When the follower handles the answer, and its broker's producer.id.expiration.ms (a truncation reloads the producer state). */
export interface ReloadClock {
  readonly now: number;
  readonly expirationMs: number;
}

/**
 * The follower processes the leader's answer: on a DivergingEpoch it truncates (UnifiedLog.truncateTo);
 * otherwise it appends the batches as they are (appendAsFollower) and sets its HW to min(the
 * leader's HW, its own LEO) (ReplicaFetcherThread.processPartitionData).
 */
export function applyReplicaFetchResponse(
  log: PartitionLog,
  r: ReplicaFetchResponse,
  clock: ReloadClock = { now: 0, expirationMs: Number.POSITIVE_INFINITY },
): FollowerFetchOutcome {
  if (r.error !== 'NONE') return { log, truncated: [], truncatedFrom: null };
  if (r.divergingEpoch) {
    const { offset } = truncationOffset(log, r.divergingEpoch);
    // at or past the LEO nothing is cut, but the epoch cache may be (truncateTo)
    if (offset >= log.logEndOffset) return { log: truncateTo(log, offset), truncated: [], truncatedFrom: null };
    const removed: RecordBatch[] = [];
    for (const b of log.batches) if (b.lastOffset >= offset) removed.push(b);
    const cut = truncateReloading(log, offset, clock.now, clock.expirationMs);
    return { log: cut.log, truncated: removed, truncatedFrom: offset, ...(cut.reload ? { reload: cut.reload } : {}) };
  }
  const appended = appendAsFollower(log, r.batches);
  return { log: withHighWatermark(appended, Math.min(r.highWatermark, appended.logEndOffset)), truncated: [], truncatedFrom: null };
}
