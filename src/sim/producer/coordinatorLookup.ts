/**
 * Finding the transaction coordinator (TransactionManager.lookupCoordinator, FindCoordinatorHandler)
 * when `__transaction_state` is replicated and the coordinator lives on its partition's leader.
 * Without a known coordinator the producer sends FindCoordinator(key = transactional.id) to a broker
 * and then its pending request to the broker named; COORDINATOR_NOT_AVAILABLE or NOT_COORDINATOR
 * from the coordinator, or a lost request, make it look the coordinator up again.
 *
 * With one replica (the fixed coordinator process) none of this runs: the coordinator is known.
 */
import type { Out } from '../actors/out';
import { leastLoadedNode } from '../cluster/clientMetadata';
import { isUnavailable, nodeOf } from '../cluster/connectionStates';
import { CONSUMER_OFFSETS_TOPIC, TRANSACTION_STATE_TOPIC } from '../cluster/metadata';
import { hostedCoordinatorId } from '../coordinator/hostedTxnCoordinator.machine';
import type { ActorId } from '../kernel/envelope';
import type { KafkaError } from '../protocol/errors';
import type { CoordinatorRequest } from './producerContext';
import type { ProducerDraft } from './sender';

/** The coordinator lives on the leader of the transactional.id's __transaction_state partition. */
export function coordinatorOnLeader(d: ProducerDraft): boolean {
  return d.meta.topics[TRANSACTION_STATE_TOPIC]?.replicas !== undefined;
}

/**
 * The broker a FindCoordinator (or an idempotent producer's InitProducerId, which needs no
 * coordinator) goes to: Sender.maybeSendAndPollTransactionalRequest's `client.leastLoadedNode()`
 * (clientMetadata.ts `leastLoadedNode`: never a broker inside its reconnect backoff). Null: none.
 */
function lookupNode(d: ProducerDraft): ActorId | null {
  return leastLoadedNode(d.meta, d.connections);
}

/**
 * No node to send to ("No nodes available to send requests, will poll and retry"): the request is
 * re-enqueued (TransactionManager.retry) and the Sender polls for retry.backoff.ms before it tries again.
 */
function retryWithoutNode(d: ProducerDraft, out: Out): void {
  d.txnRetryArmed = true;
  out.timer('txnRetry', 'txnRetryBackoffExpired', d.config['retry.backoff.ms']);
}

/**
 * Sender.awaitNodeReady for a known coordinator: NetworkClientUtils.awaitReady throws at once when its
 * connection failed and is inside its reconnect backoff (`connectionFailed`), and the IOException
 * branch looks the coordinator up again (maybeFindCoordinatorAndRetry → lookupCoordinator forgets
 * it). A coordinator whose backoff has passed is tried: the model's request is the connection attempt.
 */
function unreachable(d: ProducerDraft, coordinator: ActorId | null | undefined): boolean {
  return !!coordinator && isUnavailable(d.connections, nodeOf(coordinator));
}

/**
 * Where a coordinator request goes, or null: the coordinator is not known (or not reachable: forgotten)
 * and a FindCoordinator was sent instead (the request is sent once it is answered) — or no node was
 * available, and the Sender tries again after retry.backoff.ms.
 */
export function coordinatorTarget(d: ProducerDraft, out: Out): ActorId | null {
  if (!d.transactional) {
    const node = lookupNode(d);
    if (node === null) retryWithoutNode(d, out);
    return node === null ? null : hostedCoordinatorId(node);
  }
  if (unreachable(d, d.txnCoordinator)) d.txnCoordinator = null;
  if (d.txnCoordinator) return d.txnCoordinator;
  findCoordinator(d, d.config['transactional.id'] as string, 'transaction', out);
  return null;
}

/** FindCoordinator to the least loaded broker, as the coordinator request in flight (`group`: key type GROUP). */
function findCoordinator(d: ProducerDraft, key: string, keyType: 'transaction' | 'group', out: Out): void {
  // Sender.maybeFindCoordinatorAndRetry: the request that needed the coordinator is re-enqueued as a
  // retry (TransactionManager.retry → setRetry), so it waits retry.backoff.ms after the answer
  d.retryAfterLookup = true;
  const node = lookupNode(d);
  if (node === null) {
    retryWithoutNode(d, out);
    return;
  }
  const correlationId = d.nextCorrelationId;
  d.nextCorrelationId += 1;
  out.send(node, 'FindCoordinator', { correlationId, key, keyType }, { timeoutMs: d.config['request.timeout.ms'] });
  d.coordinatorRequest = {
    rpc: 'FindCoordinator',
    correlationId,
    attempts: (d.coordinatorRequest?.attempts ?? 0) + 1,
    ...(keyType === 'group' ? { group: true as const } : {}),
  };
}

/** The group coordinator lives on the leader of the group's __consumer_offsets partition. */
export function groupCoordinatorOnLeader(d: ProducerDraft): boolean {
  return d.meta.topics[CONSUMER_OFFSETS_TOPIC]?.replicas !== undefined;
}

/**
 * Where a TxnOffsetCommit goes (TransactionManager.TxnOffsetCommitHandler's coordinator, key type
 * GROUP): the fixed group coordinator, the one FindCoordinator named, or null — a FindCoordinator
 * (key = the group id) was sent instead.
 */
export function groupCoordinatorTarget(d: ProducerDraft, groupId: string, out: Out): ActorId | null {
  if (!groupCoordinatorOnLeader(d)) return d.meta.groupCoordinator;
  if (unreachable(d, d.groupCoordinator)) d.groupCoordinator = null;
  if (d.groupCoordinator) return d.groupCoordinator;
  findCoordinator(d, groupId, 'group', out);
  return null;
}

/** FindCoordinator answered: the coordinator is known (an error is retried like the other coordinator errors). */
export function onFindCoordinatorAnswer(d: ProducerDraft, coordinator: ActorId | null, req?: CoordinatorRequest): void {
  if (req?.group) {
    d.groupCoordinator = coordinator;
    return;
  }
  d.txnCoordinator = coordinator;
}

/**
 * TransactionManager's handlers: COORDINATOR_NOT_AVAILABLE and NOT_COORDINATOR mean lookupCoordinator,
 * then the request again. True when the coordinator was forgotten (one on a partition leader): the
 * FindCoordinator goes at once, the request retry.backoff.ms after its answer.
 */
export function forgetCoordinatorOn(d: ProducerDraft, error: KafkaError, req?: CoordinatorRequest): boolean {
  if (error !== 'COORDINATOR_NOT_AVAILABLE' && error !== 'NOT_COORDINATOR') return false;
  if (req?.rpc === 'FindCoordinator') return false;
  if (isGroupRequest(req)) {
    if (!groupCoordinatorOnLeader(d)) return false;
    d.groupCoordinator = null;
    return true;
  }
  if (!coordinatorOnLeader(d)) return false;
  d.txnCoordinator = null;
  return true;
}

/** A request for the group coordinator: TxnOffsetCommit, or FindCoordinator(GROUP). */
const isGroupRequest = (req: CoordinatorRequest | undefined) => req?.rpc === 'TxnOffsetCommit' || req?.group === true;

/**
 * A coordinator request or FindCoordinator was lost (the broker is unreachable): look up again (the
 * least loaded node then, which the lost request's broker, now in its reconnect backoff, is not). True when a coordinator request (not a FindCoordinator) was lost and its
 * coordinator forgotten: TxnRequestHandler.onComplete's disconnect branch (`lookupCoordinator`, then
 * `reenqueue`) sends the FindCoordinator at once; a lost FindCoordinator is only re-enqueued, and so
 * goes again after retry.backoff.ms.
 */
export function onLookupRequestLost(d: ProducerDraft, req?: CoordinatorRequest): boolean {
  if (isGroupRequest(req)) {
    if (!groupCoordinatorOnLeader(d)) return false;
    d.groupCoordinator = null;
    return req?.rpc !== 'FindCoordinator';
  }
  if (!coordinatorOnLeader(d)) return false;
  d.txnCoordinator = null;
  return req?.rpc !== 'FindCoordinator';
}
