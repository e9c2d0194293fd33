/**
 * The verification of a TxnOffsetCommit the group coordinator this broker hosts asks for
 * (CoordinatorPartitionWriter.maybeStartTransactionVerification →
 * ReplicaManager.maybeSendPartitionToTransactionCoordinator): the broker's own
 * AddPartitionsToTxnManager verifies the `__consumer_offsets` partition with the transaction
 * coordinator, in the same queue as its Produce verifications — one AddPartitionsToTxn in flight
 * per coordinator, the rest waiting and sent together in the next. The answer goes back to the
 * group coordinator in-process (`txnOffsetCommitVerified`).
 */
import type { Out } from '../actors/out';
import type { ActorId } from '../kernel/envelope';
import { hasOngoingTransaction } from '../log/partitionLog';
import type { TopicPartition } from '../protocol/messages';
import { keyOf } from '../protocol/topicPartition';
import type { BrokerContext } from './broker.machine';
import { answerFromQueue } from './produceRequest';
import { leadsOrUnreplicated } from './replication';
import { enqueueVerification } from './verificationQueue';
import { answerCaller, sendWaiting, verificationCoordinator } from './verificationRequests';

export interface VerifyTxnOffsetCommitArgs {
  /** The group coordinator's id for this verification (its answer carries it back). */
  readonly id: number;
  readonly transactionalId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  /** The group's `__consumer_offsets` partition. */
  readonly partition: TopicPartition;
  /** Protocol v1: verify only; v2: the coordinator adds the partition (TxnOffsetCommit v5, `addPartition`). */
  readonly verifyOnly: boolean;
}

/**
 * ReplicaManager.maybeSendPartitionsToTransactionCoordinator for the one partition: not led here →
 * NOT_LEADER_OR_FOLLOWER (Partition.maybeStartTransactionVerification); an ongoing transaction of
 * this producer epoch in the partition needs no verification (a SENTINEL guard: answered NONE at
 * once); no live leader of the transactional.id's __transaction_state partition →
 * COORDINATOR_NOT_AVAILABLE (AddPartitionsToTxnManager); else it joins the queue for that coordinator.
 */
export function onVerifyTxnOffsetCommit(
  ctx: BrokerContext,
  from: ActorId,
  args: VerifyTxnOffsetCommitArgs,
  now: number,
  out: Out,
): BrokerContext {
  const caller = { actor: from, id: args.id };
  const answer = (error: Parameters<typeof answerCaller>[1]) => {
    answerCaller(caller, error, out);
    return ctx;
  };
  const log = ctx.partitions[keyOf(args.partition)];
  if (!log || !leadsOrUnreplicated(ctx, log)) return answer('NOT_LEADER_OR_FOLLOWER');
  if (hasOngoingTransaction(log, args.producerId, args.producerEpoch)) return answer('NONE');
  const coordinator = verificationCoordinator(ctx, args.transactionalId);
  if (coordinator === null) return answer('COORDINATOR_NOT_AVAILABLE');
  const verification = ctx.nextCorrelationId;
  const queued = enqueueVerification(ctx.verificationQueue, coordinator, {
    transactionalId: args.transactionalId,
    producerId: args.producerId,
    producerEpoch: args.producerEpoch,
    verifyOnly: args.verifyOnly,
    partitions: [args.partition],
    verification,
    answerTo: caller,
  });
  const c: BrokerContext = { ...ctx, nextCorrelationId: verification + 1, verificationQueue: queued.queue };
  return sendWaiting(answerFromQueue(c, queued.answered, now, out), out);
}
