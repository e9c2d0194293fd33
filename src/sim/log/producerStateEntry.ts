/**
 * The broker's memory of one producer on one partition (Kafka's ProducerStateEntry), and the
 * checks a produce request must pass (ProducerAppendInfo, UnifiedLog.analyzeAndValidateProducerState).
 *
 * This is the whole of "idempotence" on the broker side: producerId + epoch + sequence numbers of
 * the last five batches. Keys, headers and values play no part.
 */
import type { KafkaError } from '../protocol/errors';
import { NO_PRODUCER_EPOCH, NO_SEQUENCE } from './recordBatch';
import type { VerificationStateEntry } from './verificationState';

/** Kafka keeps metadata of this many recent batches per producer (ProducerStateEntry.NUM_BATCHES_TO_RETAIN). */
export const NUM_BATCHES_TO_RETAIN = 5;

export interface BatchMetadata {
  readonly firstSeq: number;
  readonly lastSeq: number;
  readonly firstOffset: number;
  readonly lastOffset: number;
}

export interface ProducerStateEntry {
  readonly producerId: number;
  readonly producerEpoch: number;
  /** Oldest first, at most NUM_BATCHES_TO_RETAIN. */
  readonly batches: readonly BatchMetadata[];
  /** First offset of this producer's open transaction on this partition, if one is open. */
  readonly currentTxnFirstOffset: number | null;
  readonly coordinatorEpoch: number;
  /**
   * The largest timestamp of the producer's last batch or marker on this partition (Kafka's
   * ProducerStateEntry.lastTimestamp: a data batch's maxTimestamp — the records' CreateTime, set at
   * send() — or a marker's timestamp). `producer.id.expiration.ms` counts from it.
   */
  readonly lastTimestamp: number;
}

/** RecordBatch.NO_TIMESTAMP: an entry no batch has touched yet. */
export const NO_TIMESTAMP = -1;

export function emptyEntry(producerId: number): ProducerStateEntry {
  return {
    producerId,
    producerEpoch: NO_PRODUCER_EPOCH,
    batches: [],
    currentTxnFirstOffset: null,
    coordinatorEpoch: -1,
    lastTimestamp: NO_TIMESTAMP,
  };
}

export function lastSeq(entry: ProducerStateEntry): number {
  return entry.batches.length ? (entry.batches[entry.batches.length - 1] as BatchMetadata).lastSeq : NO_SEQUENCE;
}

/** A retried batch already in the log: same epoch and exactly the same sequence range as a cached batch. */
export function findDuplicateBatch(
  entry: ProducerStateEntry | undefined,
  producerEpoch: number,
  baseSequence: number,
  lastSequence: number,
): BatchMetadata | null {
  if (!entry || entry.producerEpoch !== producerEpoch) return null;
  for (const b of entry.batches) if (b.firstSeq === baseSequence && b.lastSeq === lastSequence) return b;
  return null;
}

function inSequence(last: number, next: number): boolean {
  return next === last + 1 || (next === 0 && last === 2147483647);
}

export type SequenceCheck =
  | { ok: true }
  | { ok: false; error: Extract<KafkaError, 'INVALID_PRODUCER_EPOCH' | 'OUT_OF_ORDER_SEQUENCE_NUMBER'>; reason: string };

/**
 * The checks of ProducerAppendInfo (checkProducerEpoch, then checkSequence), in Kafka's order: a lower
 * epoch is fenced; while a transaction verification is outstanding, no batch may start above the
 * lowest sequence it has seen; a new epoch must start at sequence 0; the same epoch must continue
 * exactly where the last batch ended — at 0 when the entry holds no batch of that epoch (after a
 * marker that bumped the epoch, protocol v2). Only a producer the broker knows nothing of (stored
 * epoch −1) may start anywhere.
 */
export function checkProducerBatch(
  entry: ProducerStateEntry | undefined,
  producerEpoch: number,
  baseSequence: number,
  verification?: VerificationStateEntry,
): SequenceCheck {
  const current = entry ?? null;
  const storedEpoch = current ? current.producerEpoch : NO_PRODUCER_EPOCH;
  if (producerEpoch < storedEpoch)
    return {
      ok: false,
      error: 'INVALID_PRODUCER_EPOCH',
      reason: `epoch ${producerEpoch} is older than the current epoch ${storedEpoch}`,
    };
  if (verification && baseSequence > verification.lowestSequence)
    return {
      ok: false,
      error: 'OUT_OF_ORDER_SEQUENCE_NUMBER',
      reason: `sequence ${baseSequence} is above ${verification.lowestSequence}, the earliest sequence seen while verifying the transaction`,
    };
  if (producerEpoch !== storedEpoch) {
    if (baseSequence !== 0 && storedEpoch !== NO_PRODUCER_EPOCH)
      return {
        ok: false,
        error: 'OUT_OF_ORDER_SEQUENCE_NUMBER',
        reason: `a new epoch ${producerEpoch} must start at sequence 0, not ${baseSequence}`,
      };
    return { ok: true };
  }
  // same epoch: continue at last+1 (from NO_SEQUENCE, that is 0); a stored epoch of −1 accepts anything
  const last = current ? lastSeq(current) : NO_SEQUENCE;
  if (storedEpoch === NO_PRODUCER_EPOCH || inSequence(last, baseSequence)) return { ok: true };
  return {
    ok: false,
    error: 'OUT_OF_ORDER_SEQUENCE_NUMBER',
    reason: `expected sequence ${last + 1}, got ${baseSequence}`,
  };
}

/** The entry after appending a data batch. A new epoch clears the cached batches. */
export function recordBatchInEntry(
  entry: ProducerStateEntry | undefined,
  producerId: number,
  producerEpoch: number,
  meta: BatchMetadata,
  isTransactional: boolean,
  /** The batch's maxTimestamp (ProducerStateEntry.addBatch keeps it as lastTimestamp). */
  timestamp: number,
): ProducerStateEntry {
  const base = entry ?? emptyEntry(producerId);
  const sameEpoch = base.producerEpoch === producerEpoch;
  const kept = sameEpoch ? base.batches : [];
  const batches = kept.length >= NUM_BATCHES_TO_RETAIN ? [...kept.slice(1), meta] : [...kept, meta];
  return {
    producerId,
    producerEpoch,
    batches,
    currentTxnFirstOffset: isTransactional ? (base.currentTxnFirstOffset ?? meta.firstOffset) : base.currentTxnFirstOffset,
    coordinatorEpoch: base.coordinatorEpoch,
    lastTimestamp: timestamp,
  };
}

/**
 * ProducerStateManager.isProducerExpired: no transaction open on the partition, and idle for at
 * least `producer.id.expiration.ms` since its last batch's timestamp.
 */
export function isProducerExpired(entry: ProducerStateEntry, now: number, expirationMs: number): boolean {
  return entry.currentTxnFirstOffset === null && now - entry.lastTimestamp >= expirationMs;
}
