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
import { lookupIndexOf } from '../cluster/clientMetadata';
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
 * The broker a FindCoordinator (or an idempotent producer's InitProducerId) goes to: Kafka's
 * leastLoadedNode; the model takes the brokers in turn, starting from the first and moving on after
 * a request to one was lost.
 */
function lookupNode(d: ProducerDraft): ActorId {
  const brokers = d.meta.brokers;
  return brokers[(d.txnLookupNode ?? 0) % brokers.length] as ActorId;
}

/**
 * Where a coordinator request goes, or null: the coordinator is not known and a FindCoordinator was
 * sent instead (the request is sent once it is answered).
 */
export function coordinatorTarget(d: ProducerDraft, out: Out): ActorId | null {
  if (!d.transactional) return hostedCoordinatorId(lookupNode(d));
  if (d.txnCoordinator) return d.txnCoordinator;
  findCoordinator(d, d.config['transactional.id'] as string, 'transaction', out);
  return null;
}

/** FindCoordinator to a broker, as the coordinator request in flight (`group`: key type GROUP). */
function findCoordinator(d: ProducerDraft, key: string, keyType: 'transaction' | 'group', out: Out): void {
  const correlationId = d.nextCorrelationId;
  d.nextCorrelationId += 1;
  out.send(lookupNode(d), 'FindCoordinator', { correlationId, key, keyType }, { timeoutMs: d.config['request.timeout.ms'] });
  // Sender.maybeFindCoordinatorAndRetry: the request that needed the coordinator is re-enqueued as a
  // retry (TransactionManager.retry → setRetry), so it waits retry.backoff.ms after the answer
  d.retryAfterLookup = true;
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
  if (coordinator) d.txnLookupNode = lookupIndexOf(d.meta, coordinator, d.txnLookupNode);
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
 * A coordinator request or FindCoordinator was lost (the broker is unreachable): look up again, through
 * the next broker. True when a coordinator request (not a FindCoordinator) was lost and its
 * coordinator forgotten: TxnRequestHandler.onComplete's disconnect branch (`lookupCoordinator`, then
 * `reenqueue`) sends the FindCoordinator at once; a lost FindCoordinator is only re-enqueued, and so
 * goes again after retry.backoff.ms.
 */
export function onLookupRequestLost(d: ProducerDraft, req?: CoordinatorRequest): boolean {
  if (isGroupRequest(req)) {
    if (!groupCoordinatorOnLeader(d)) return false;
    d.groupCoordinator = null;
    d.txnLookupNode = (d.txnLookupNode ?? 0) + 1;
    return req?.rpc !== 'FindCoordinator';
  }
  if (!coordinatorOnLeader(d)) return false;
  d.txnCoordinator = null;
  d.txnLookupNode = (d.txnLookupNode ?? 0) + 1;
  return req?.rpc !== 'FindCoordinator';
}
