/**
 * Transaction verification state on a partition leader (KIP-890 part 1; Kafka's
 * VerificationStateEntry and VerificationGuard in ProducerStateManager).
 *
 * Before the first transactional write of a producer epoch to a partition, the leader records a
 * verification entry — a unique guard, the lowest sequence it has seen, and the epoch — then asks
 * the coordinator. Only a produce carrying the entry's current guard may start the transaction, and
 * while the entry exists no batch with a first sequence above its lowest sequence is appended: a
 * later batch must not overtake an earlier one whose verification is still outstanding. The entry
 * is cleared by the first transactional append (data or marker) of that producer, or dropped by the
 * producer expiration check once it is `producer.id.expiration.ms` old (counted from its creation;
 * ProducerStateManager.removeExpiredProducers: "entries that are lingering as unverified").
 */

/** Kafka's VerificationGuard.SENTINEL: never verifies. */
export const NO_VERIFICATION_GUARD = 0;

export interface VerificationStateEntry {
  readonly guard: number;
  readonly lowestSequence: number;
  readonly epoch: number;
  /** When the entry was created (VerificationStateEntry.timestamp); a later update keeps it. */
  readonly timestamp: number;
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
