/**
 * `producer.id.expiration.ms`: how long a partition remembers an idle producer (Kafka's
 * ProducerStateManager.removeExpiredProducers, run by UnifiedLog's "PeriodicProducerExpirationCheck"
 * every `producer.id.expiration.check.interval.ms`).
 *
 * An entry with no transaction open on the partition whose last batch's timestamp is at least
 * `producer.id.expiration.ms` old is dropped. What idempotence forgets with it: the producer's
 * epoch and its last five batches' sequences. A batch of that producer that arrives afterwards —
 * a retry of a batch already in the log included — meets no state, and a producer the broker knows
 * nothing of may start at any sequence (ProducerAppendInfo.checkSequence): the retry is appended again.
 *
 * The same run drops the transaction verification entries (`log/verificationState.ts`) created at
 * least `producer.id.expiration.ms` ago, whether or not their verification is still outstanding: a
 * verified produce that arrives afterwards carries a guard nothing matches and is refused
 * INVALID_TXN_STATE, as one whose entry a transactional append cleared.
 */
import type { PartitionLog } from './partitionLog';
import { isProducerExpired } from './producerStateEntry';

export interface ExpiredProducer {
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly lastTimestamp: number;
}

/** A verification entry the check dropped: whose, of which epoch, and when it was created. */
export interface ExpiredVerification {
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly createdAt: number;
}

/** What a check at `now` drops from the log (producers, then verification entries), and the log without them. */
export function removeExpiredProducers(
  log: PartitionLog,
  now: number,
  expirationMs: number,
): { log: PartitionLog; expired: readonly ExpiredProducer[]; verifications: readonly ExpiredVerification[] } {
  const expired: ExpiredProducer[] = [];
  for (const e of log.producers.values())
    if (isProducerExpired(e, now, expirationMs))
      expired.push({ producerId: e.producerId, producerEpoch: e.producerEpoch, lastTimestamp: e.lastTimestamp });
  const verifications: ExpiredVerification[] = [];
  for (const [producerId, v] of log.verificationStates)
    if (now - v.timestamp >= expirationMs) verifications.push({ producerId, producerEpoch: v.epoch, createdAt: v.timestamp });
  if (expired.length === 0 && verifications.length === 0) return { log, expired, verifications };
  let next = log;
  if (expired.length > 0) {
    const producers = new Map(log.producers);
    for (const e of expired) producers.delete(e.producerId);
    next = { ...next, producers };
  }
  if (verifications.length > 0) {
    const verificationStates = new Map(log.verificationStates);
    for (const v of verifications) verificationStates.delete(v.producerId);
    next = { ...next, verificationStates };
  }
  return { log: next, expired, verifications };
}

/**
 * The earliest instant at which the check could drop something from the log — an idle producer or a
 * verification entry (null: nothing can ever be dropped as the log stands).
 */
export function earliestProducerExpiry(log: PartitionLog, expirationMs: number): number | null {
  let earliest: number | null = null;
  for (const e of log.producers.values()) {
    if (e.currentTxnFirstOffset !== null) continue; // its marker will touch it again
    const at = e.lastTimestamp + expirationMs;
    if (earliest === null || at < earliest) earliest = at;
  }
  for (const v of log.verificationStates.values()) {
    const at = v.timestamp + expirationMs;
    if (earliest === null || at < earliest) earliest = at;
  }
  return earliest;
}
