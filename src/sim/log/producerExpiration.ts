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
 */
import type { PartitionLog } from './partitionLog';
import { isProducerExpired } from './producerStateEntry';

/** The producers a check at `now` drops from the log, and the log without them. */
export function removeExpiredProducers(
  log: PartitionLog,
  now: number,
  expirationMs: number,
): { log: PartitionLog; expired: readonly { producerId: number; producerEpoch: number; lastTimestamp: number }[] } {
  const expired: { producerId: number; producerEpoch: number; lastTimestamp: number }[] = [];
  for (const e of log.producers.values())
    if (isProducerExpired(e, now, expirationMs))
      expired.push({ producerId: e.producerId, producerEpoch: e.producerEpoch, lastTimestamp: e.lastTimestamp });
  if (expired.length === 0) return { log, expired };
  const producers = new Map(log.producers);
  for (const e of expired) producers.delete(e.producerId);
  return { log: { ...log, producers }, expired };
}

/** The earliest instant at which some producer of the log could be expired (null: none can be now). */
export function earliestProducerExpiry(log: PartitionLog, expirationMs: number): number | null {
  let earliest: number | null = null;
  for (const e of log.producers.values()) {
    if (e.currentTxnFirstOffset !== null) continue; // its marker will touch it again
    const at = e.lastTimestamp + expirationMs;
    if (earliest === null || at < earliest) earliest = at;
  }
  return earliest;
}
