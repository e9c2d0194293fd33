/**
 * What a broker's AddPartitionsToTxnManager sends and hands back, whoever asked for the
 * verification — a Produce's partition leader (produceRequest.ts) or the group coordinator this
 * broker hosts, for a TxnOffsetCommit (coordinatorVerification.ts): the v4+ request to each
 * transaction coordinator with transactions waiting and none in flight, and a group coordinator's
 * answer, in-process.
 */
import type { Out } from '../actors/out';
import { BROKER_REQUEST_TIMEOUT_MS } from '../config/clusterConfig';
import type { ActorId } from '../kernel/envelope';
import type { KafkaError } from '../protocol/errors';
import type { BrokerContext } from './broker.machine';
import { hostsTxnCoordinator, txnCoordinatorFor } from './txnStateHost';
import { requestPayload, takeRequests, type VerificationCaller } from './verificationQueue';

/**
 * AddPartitionsToTxnManager.generateRequests: one AddPartitionsToTxn (v4+) to each coordinator
 * with transactions waiting and none in flight, carrying all of them.
 */
export function sendWaiting(ctx: BrokerContext, out: Out): BrokerContext {
  const taken = takeRequests(ctx.verificationQueue);
  if (taken.requests.length === 0) return ctx;
  for (const r of taken.requests) out.send(r.node, 'AddPartitionsToTxn', requestPayload(r), { timeoutMs: BROKER_REQUEST_TIMEOUT_MS });
  return { ...ctx, verificationQueue: taken.queue };
}

/**
 * The transaction coordinator a transactional.id is verified with (AddPartitionsToTxnManager
 * .getTransactionCoordinator; null: its partition has no live leader).
 */
export function verificationCoordinator(ctx: BrokerContext, transactionalId: string): ActorId | null {
  // a hosted coordinator: the leader of the transactional.id's __transaction_state partition
  return hostsTxnCoordinator(ctx) ? txnCoordinatorFor(ctx, transactionalId) : ctx.transactionCoordinator;
}

/** A group coordinator's verification is answered: the raw error goes back (it maps it, handleOperationException). */
export function answerCaller(caller: VerificationCaller, error: KafkaError, out: Out): void {
  out.call(caller.actor, 'txnOffsetCommitVerified', { id: caller.id, error });
}
