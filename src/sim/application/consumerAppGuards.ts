/** The consumer application's decisions, as XState guards of (context, event). */
import { type GroupMetadata, replyOf } from './applicationLoop';
import type { ConsumerAppContext, Ev } from './consumerAppContext';
import type { PlanStep } from './consumerAppPlan';
import { timedOutRetriable } from './producerTimeouts';

/**
 * The errors after which a transactional producer is fenced: the instance closes. The codes come
 * from a call's own request; ProducerFencedException from a call refused once the producer is fenced.
 * INVALID_TXN_STATE is not one: commitTransaction throws InvalidTxnStateException, a KafkaException
 * the canonical catch block answers with abortTransaction() — which succeeds when a Produce was
 * refused so (the transaction's ABORTABLE_ERROR) and throws when the coordinator refused it
 * (FATAL_ERROR), so such an instance closes at the abort. Nor is INVALID_PRODUCER_EPOCH (a Produce
 * refused so while the commit waited): InvalidProducerEpochException is not among the javadoc loop's
 * unrecoverable exceptions, and its abort succeeds when only the coordinator's timeout fenced the
 * epoch under protocol v2 (a retry) — PRODUCER_FENCED when another instance did.
 */
const FENCED = new Set(['PRODUCER_FENCED', 'ProducerFencedException']);
export const isFenced = (error: string | null | undefined) => FENCED.has(error ?? '');

/**
 * The fatal errors that mean the producer was fenced: a newer epoch of its transactional.id exists —
 * a newer instance's InitProducerId, or the coordinator's own epoch fence when it aborted the
 * transaction (PRODUCER_FENCED; INVALID_PRODUCER_EPOCH, which Kafka's client makes PRODUCER_FENCED;
 * INVALID_TXN_STATE, the protocol 2 EndTxn of an epoch the coordinator had already moved past).
 * Not INVALID_PRODUCER_ID_MAPPING (its transactional.id expired, KAFKA-18019), nor an
 * IllegalStateException (an invalid transition poisoned it), nor INVALID_TRANSACTION_TIMEOUT.
 */
const FENCING = new Set([...FENCED, 'INVALID_PRODUCER_EPOCH', 'InvalidProducerEpochException', 'INVALID_TXN_STATE']);

/** A failed call's reply: whether the error that made the producer fatal (the refusal's cause, else its error) was a fence. */
export const fatalByFencing = (r: { readonly error?: string | null; readonly cause?: string | null }) =>
  FENCING.has(r.cause ?? r.error ?? '');

// groupMetadata: the getter whose answer sendOffsetsToTransaction carries, read as the commit starts
const COMMIT_KINDS = new Set<PlanStep['kind']>(['commitSync', 'groupMetadata', 'sendOffsets', 'commitTransaction']);

type Args = { context: ConsumerAppContext; event: Ev };

/**
 * A batched transaction is open and consumer.groupMetadata() names another generation than the one
 * it began in: a rebalance completed inside a poll() since — every poll(), whether or not it returned
 * records — and, eager, it ran onPartitionsRevoked on the transaction's partitions first.
 */
export function revokedSinceBegin(
  c: Pick<ConsumerAppContext, 'commitIntervalMs' | 'txnOpen' | 'txnGeneration'>,
  group: GroupMetadata | null | undefined,
): boolean {
  return c.commitIntervalMs !== null && c.txnOpen && (group?.generationId ?? null) !== c.txnGeneration;
}

/** The loop's decisions, as guards of (context, event). */
export const consumerAppGuards = {
  transactional: ({ context }: Args) => context.producer !== null && context.mode === 'exactly-once',
  /** The reply ends the application: initTransactions failed, the producer is fenced, or it cannot abort. */
  fatalReply: ({ event }: Args) => {
    const r = replyOf(event);
    // a call that timed out is called again (producerTimeouts.ts)
    if (!r || r.ok || timedOutRetriable(r)) return false;
    return (
      r.call === 'initTransactions' ||
      r.call === 'abortTransaction' ||
      // poll() threw (InvalidSessionTimeoutException: the group refused the member): the application dies
      r.call === 'poll' ||
      // commitSync() threw FencedInstanceIdException (another instance took this group.instance.id):
      // not the CommitFailedException the loop catches, so the application dies
      (r.call === 'commitSync' && r.error === 'FencedInstanceIdException') ||
      (r.call === 'commitTransaction' && isFenced(r.error))
    );
  },
  /**
   * The reply makes the application abort its transaction: a failed sendOffsetsToTransaction or
   * commitTransaction, or revoked partitions — seen in a poll() answer, records or none (one held for
   * after a commit is looked at then), or in groupMetadata() read as a commit starts after a poll()
   * that returned nothing.
   */
  abortsTransaction: ({ context, event }: Args) => {
    const r = replyOf(event);
    if (!r) return false;
    if (!r.ok && (r.call === 'sendOffsetsToTransaction' || (r.call === 'commitTransaction' && !timedOutRetriable(r)))) return true;
    if (r.call === 'groupMetadata')
      return context.plan[context.step]?.kind === 'groupMetadata' && revokedSinceBegin(context, r.groupMetadata);
    // a poll() answer that comes while a batched transaction commits waits for the commit (heldPoll)
    const held = context.plan.length > 0 && context.commitIntervalMs !== null;
    return r.call === 'poll' && !held && revokedSinceBegin(context, r.groupMetadata);
  },
  seekedToCommitted: ({ event }: Args) => replyOf(event)?.call === 'seekToCommitted',
  initialized: ({ event }: Args) => replyOf(event)?.call === 'initTransactions' && replyOf(event)?.ok === true,
  planHasSteps: ({ context }: Args) => context.plan.length > 0,
  planEmpty: ({ context }: Args) => context.plan.length === 0,
  atCommitStep: ({ context }: Args) => {
    const s = context.plan[context.step];
    return s !== undefined && COMMIT_KINDS.has(s.kind);
  },
  pastCommitStep: ({ context }: Args) => {
    const s = context.plan[context.step];
    return s === undefined || !COMMIT_KINDS.has(s.kind);
  },
};
