/**
 * Transaction verification state on a partition leader (KIP-890 part 1; Kafka's
 * VerificationStateEntry and VerificationGuard in ProducerStateManager).
 *
 * Before the first transactional write of a producer epoch to a partition, the leader records a
 * verification entry — a unique guard, the lowest sequence it has seen, and the epoch — then asks
 * the coordinator. Only a produce carrying the entry's current guard may start the transaction, and
 * while the entry exists no batch with a first sequence above its lowest sequence is appended: a
 * later batch must not overtake an earlier one whose verification is still outstanding. The entry
 * is cleared by the first transactional append (data or marker) of that producer — except, under
 * transaction protocol v2, a marker of the entry's own epoch: the previous transaction's marker,
 * which carries the bumped epoch the next transaction is verifying (UnifiedLog.updateProducers,
 * KAFKA-18654) — or dropped by the producer expiration check once it is `producer.id.expiration.ms`
 * old (counted from its creation; ProducerStateManager.removeExpiredProducers: "entries that are
 * lingering as unverified").
 */

/** Kafka's VerificationGuard.SENTINEL: never verifies. */
export const NO_VERIFICATION_GUARD = 0;

export interface VerificationStateEntry {
  readonly guard: number;
  readonly lowestSequence: number;
  readonly epoch: number;
  /** When the entry was created (VerificationStateEntry.timestamp); a later update keeps it. */
  readonly timestamp: number;
  /** Started by a protocol v2 produce (VerificationStateEntry.supportsEpochBump: the request adds the partition). */
  readonly supportsEpochBump?: true;
}

/**
 * UnifiedLog.updateProducers after a transactional append of `batch`: the producer's verification
 * ends, unless it is a protocol v2 one and the batch is a marker of its epoch ("the only case we
 * should not remove the verification guard is if the marker was a control marker, we are using TV2
 * and the epochs match"): that marker completes the previous transaction with the epoch bump the
 * next transaction's verification already carries, so the guard its produce holds must survive it.
 */
export function endsVerification(entry: VerificationStateEntry | undefined, batch: { isControl: boolean; producerEpoch: number }): boolean {
  if (entry === undefined) return false;
  return !(entry.supportsEpochBump === true && batch.isControl && batch.producerEpoch === entry.epoch);
}

/**
 * VerificationStateEntry.maybeUpdateLowestSequenceAndEpoch: a lower sequence of the same epoch lowers
 * the bound; a higher epoch replaces both (its sequences restart).
 */
export function maybeUpdateLowestSequenceAndEpoch(e: VerificationStateEntry, sequence: number, epoch: number): VerificationStateEntry {
  if (epoch === e.epoch && sequence < e.lowestSequence) return { ...e, lowestSequence: sequence };
  if (epoch > e.epoch) return { ...e, epoch, lowestSequence: sequence };
  return e;
}

/** VerificationGuard.verify: the request's guard is the entry's current one (the sentinel never verifies). */
export function guardVerifies(entry: VerificationStateEntry | undefined, requestGuard: number): boolean {
  return entry !== undefined && requestGuard !== NO_VERIFICATION_GUARD && entry.guard === requestGuard;
}
