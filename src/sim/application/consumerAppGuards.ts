/** The consumer application's decisions, as XState guards of (context, event). */
import { replyOf } from './applicationLoop';
import type { ConsumerAppContext, Ev } from './consumerAppContext';
import type { PlanStep } from './consumerAppPlan';

/**
 * The errors after which a transactional producer is fenced: the instance closes. The codes come
 * from a call's own request; ProducerFencedException from a call refused once the producer is fenced.
 */
const FENCED = new Set(['PRODUCER_FENCED', 'INVALID_PRODUCER_EPOCH', 'INVALID_TXN_STATE', 'ProducerFencedException']);
export const isFenced = (error: string | null | undefined) => FENCED.has(error ?? '');

const COMMIT_KINDS = new Set<PlanStep['kind']>(['commitSync', 'sendOffsets', 'commitTransaction']);

type Args = { context: ConsumerAppContext; event: Ev };

/** The loop's decisions, as guards of (context, event). */
export const consumerAppGuards = {
  transactional: ({ context }: Args) => context.producer !== null && context.mode === 'exactly-once',
  /** The reply ends the application: initTransactions failed, the producer is fenced, or it cannot abort. */
  fatalReply: ({ event }: Args) => {
    const r = replyOf(event);
    if (!r || r.ok) return false;
    return (
      r.call === 'initTransactions' ||
      r.call === 'abortTransaction' ||
      // poll() threw (InvalidSessionTimeoutException: the group refused the member): the application dies
      r.call === 'poll' ||
      (r.call === 'commitTransaction' && isFenced(r.error))
    );
  },
  /** The reply makes the application abort its transaction: a failed sendOffsetsToTransaction or commitTransaction, or revoked partitions. */
  abortsTransaction: ({ context, event }: Args) => {
    const r = replyOf(event);
    if (!r) return false;
    if (!r.ok && (r.call === 'sendOffsetsToTransaction' || r.call === 'commitTransaction')) return true;
    // onPartitionsRevoked ran inside this poll(): the batched transaction's partitions are gone
    const batched = context.commitIntervalMs !== null;
    const held = context.plan.length > 0 && batched;
    const generation = r.groupMetadata?.generationId ?? null;
    return r.call === 'poll' && !held && (r.records ?? []).length > 0 && batched && context.txnOpen && generation !== context.txnGeneration;
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
