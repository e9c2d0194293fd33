/**
 * A broker's side of the transaction coordinator it hosts when `__transaction_state` is replicated
 * (transaction.state.log.replication.factor > 1): the coordinator's writes appended to the leader
 * replica with acks=-1 (ReplicaManager.appendRecords from TransactionStateManager, an in-process
 * call, not a Produce), the coordinator told when this broker starts or stops leading a
 * `__transaction_state` partition (TransactionCoordinator.onElection / onResignation), and
 * FindCoordinator answered from the metadata cache (KafkaApis.getCoordinator).
 */
import type { Out, PendingRequest } from '../actors/out';
import { TRANSACTION_STATE_TOPIC, TXN_COORDINATOR_ID } from '../cluster/metadata';
import { hostedCoordinatorId } from '../coordinator/hostedTxnCoordinator.machine';
import type { ActorId } from '../kernel/envelope';
import { appendProducerBatch, type PartitionLog } from '../log/partitionLog';
import { coordinatorPartitionFor } from '../producer/partitioner';
import type { KafkaError } from '../protocol/errors';
import { parseTopicPartition, topicPartitionKey } from '../protocol/topicPartition';
import { notEnoughReplicasBeforeAppend } from '../replication/leaderPartition';
import type { BrokerContext } from './broker.machine';
import { afterLeaderUpdate, type BrokerReplication, delayProduce, wakeReplicaFetches } from './replication';

type Ctx = BrokerContext & { readonly replication: BrokerReplication };

/** This broker hosts a transaction coordinator: __transaction_state is a replicated topic of the cluster. */
export function hostsTxnCoordinator(ctx: BrokerContext): boolean {
  return ctx.meta.topics[TRANSACTION_STATE_TOPIC]?.replicas !== undefined;
}

export interface AppendTxnStateArgs {
  readonly writeId: number;
  readonly partition: number;
  readonly key: string;
  /** null: an expired transactional.id's tombstone. */
  readonly value: string | null;
  readonly timeoutMs: number;
}

/**
 * The coordinator's write: refused NOT_LEADER_OR_FOLLOWER when this broker does not lead the
 * partition, NOT_ENOUGH_REPLICAS when the ISR is below the partition's min ISR
 * (transaction.state.log.min.isr) — nothing appended; otherwise appended and held as a delayed
 * produce until the HW passes it (or NOT_ENOUGH_REPLICAS_AFTER_APPEND, REQUEST_TIMED_OUT,
 * NOT_LEADER_OR_FOLLOWER), answered by the in-process call `txnStateAppended`.
 */
export function onAppendTxnState(ctx: BrokerContext, from: ActorId, args: AppendTxnStateArgs, now: number, out: Out): BrokerContext {
  const answer = (error: KafkaError | string) => {
    out.call(from, 'txnStateAppended', { writeId: args.writeId, error });
    return ctx;
  };
  const key = topicPartitionKey(TRANSACTION_STATE_TOPIC, args.partition);
  const leader = ctx.replication?.leading[key];
  const log = ctx.partitions[key];
  if (!ctx.replication || !leader || !log) return answer('NOT_LEADER_OR_FOLLOWER');
  if (notEnoughReplicasBeforeAppend(leader, -1) !== null) return answer('NOT_ENOUGH_REPLICAS');
  const { log: next, outcome } = appendProducerBatch(
    log,
    {
      producerId: -1,
      producerEpoch: -1,
      baseSequence: -1,
      isTransactional: false,
      records: [{ key: args.key, value: args.value, headers: {}, timestamp: now }],
    },
    now,
  );
  if (outcome.kind === 'rejected') return answer(outcome.error);
  let c: Ctx = { ...(ctx as Ctx), partitions: { ...ctx.partitions, [key]: next } };
  const request: PendingRequest = { from, envelopeId: -1, correlationId: -1 };
  c = delayProduce(c, request, TRANSACTION_STATE_TOPIC, args.partition, outcome.baseOffset, outcome.lastOffset, args.timeoutMs, out, {
    coordinator: from,
    writeId: args.writeId,
  });
  return afterLeaderUpdate(wakeReplicaFetches(c, key, out), key, now, out);
}

/**
 * The records of a replica of a __transaction_state partition, to its log end offset (what a load
 * reads), tombstones (a null value: an expired transactional.id) included.
 */
export function txnStateRecords(log: PartitionLog): { key: string; value: string | null }[] {
  const out: { key: string; value: string | null }[] = [];
  for (const b of log.batches) if (!b.isControl) for (const r of b.records) if (r.key !== null) out.push({ key: r.key, value: r.value });
  return out;
}

/**
 * After the controller's records changed this broker's leaderships: the hosted coordinator starts
 * (onElection, with the new leader epoch as its coordinator epoch and this replica's records) or
 * stops (onResignation) for each __transaction_state partition whose leadership here changed.
 */
export function coordinatorHandoffs(before: BrokerContext, after: BrokerContext, out: Out): void {
  if (!hostsTxnCoordinator(after)) return;
  const coordinator = hostedCoordinatorId(after.id);
  for (const c of leadershipChanges(before, after, TRANSACTION_STATE_TOPIC)) {
    if (c.elected !== null) {
      const log = after.partitions[topicPartitionKey(TRANSACTION_STATE_TOPIC, c.partition)];
      out.call(coordinator, 'becomeCoordinator', {
        partition: c.partition,
        coordinatorEpoch: c.elected,
        records: log ? txnStateRecords(log) : [],
      });
    } else out.call(coordinator, 'resignCoordinator', { partition: c.partition });
  }
}

/**
 * The partitions of `topic` whose leadership on this broker changed with the controller's records:
 * led under a new leader epoch (`elected`: the epoch, onElection) or no longer led (`elected` null,
 * onResignation), in partition order.
 */
export function leadershipChanges(
  before: BrokerContext,
  after: BrokerContext,
  topic: string,
): { partition: number; elected: number | null }[] {
  const was = before.replication?.leading ?? {};
  const is = after.replication?.leading ?? {};
  const keys = [...new Set([...Object.keys(was), ...Object.keys(is)])].filter((k) => parseTopicPartition(k).topic === topic);
  const changes: { partition: number; elected: number | null }[] = [];
  for (const key of keys.sort()) {
    const then = was[key];
    const now = is[key];
    const partition = parseTopicPartition(key).partition;
    if (now && (!then || then.leaderEpoch !== now.leaderEpoch)) changes.push({ partition, elected: now.leaderEpoch });
    else if (then && !now) changes.push({ partition, elected: null });
  }
  return changes;
}

/**
 * After the controller's records moved the leader of a partition: the hosted coordinator's metadata
 * learns the new leader, as TransactionMarkerChannelManager reads each marker's destination from the
 * broker's metadata cache (getPartitionLeaderEndpoint) — so markers sent again after a
 * NOT_LEADER_OR_FOLLOWER or a lost request go to the new leader, not the old one. A partition left
 * without a leader (the controller fenced its leader and no ISR member is alive) is told as leader
 * null: getPartitionLeaderEndpoint answers Node.noNode, and its markers wait in
 * markersQueueForUnknownBroker instead of going to the old leader.
 *
 * The one-replica `txn-coordinator` process (internal topics unreplicated) stands for a coordinator
 * on a broker whose metadata cache the controller's records reach as they reach every broker: it is
 * told by the broker the record makes the leader, as that broker applies it (the same moment a
 * hosted coordinator's broker would learn it), and by every broker that applies a record leaving the
 * partition without a leader (the coordinator takes only a newer leader epoch, so the repeats are
 * no-ops).
 */
export function coordinatorLeaderUpdates(before: BrokerContext, after: BrokerContext, out: Out): void {
  const hosted = hostsTxnCoordinator(after);
  if (!hosted && after.meta.transactionCoordinator !== TXN_COORDINATOR_ID) return;
  const was = before.replication?.registrations ?? {};
  const is = after.replication?.registrations ?? {};
  for (const key of Object.keys(is).sort()) {
    const now = is[key];
    const then = was[key];
    // a partition left without a leader is told too (its markers wait: Node.noNode)
    if (!now || now.topic === TRANSACTION_STATE_TOPIC) continue;
    if (then && then.leaderEpoch === now.leaderEpoch) continue;
    // the one-replica coordinator's broker cache: told by the new leader (by every broker when none leads)
    if (!hosted && now.leader !== after.id && now.leader !== null) continue;
    out.call(hosted ? hostedCoordinatorId(after.id) : TXN_COORDINATOR_ID, 'partitionLeader', {
      topic: now.topic,
      partition: now.partition,
      leaderId: now.leader,
      leaderEpoch: now.leaderEpoch,
    });
  }
}

/** The coordinator of a transactional.id as this broker's metadata cache knows it (null: the partition has no leader). */
export function txnCoordinatorFor(ctx: BrokerContext, transactionalId: string): ActorId | null {
  const p = coordinatorPartitionFor(transactionalId, ctx.meta.transactionStatePartitions);
  const reg = ctx.replication?.registrations[topicPartitionKey(TRANSACTION_STATE_TOPIC, p)];
  const leader = reg?.leader ?? null;
  if (leader === null || ctx.replication?.fencedBrokers.includes(leader)) return null;
  return hostedCoordinatorId(leader);
}

/**
 * FindCoordinator, KafkaApis.getCoordinator: the leader of the key's __transaction_state partition
 * (key type TRANSACTION) or __consumer_offsets partition (GROUP: `group`, looked up by the caller,
 * offsetsHost.groupCoordinatorFor) if it has one, else COORDINATOR_NOT_AVAILABLE. The answer does
 * not say whether that coordinator has finished loading.
 */
export function onFindCoordinator(
  ctx: BrokerContext,
  request: PendingRequest,
  key: string,
  out: Out,
  group?: ActorId | null,
): BrokerContext {
  const coordinator = group === undefined ? txnCoordinatorFor(ctx, key) : group;
  out.reply(request, 'FindCoordinatorResponse', {
    error: coordinator ? 'NONE' : 'COORDINATOR_NOT_AVAILABLE',
    key,
    nodeId: coordinator ? coordinator.slice(0, coordinator.indexOf('.')) : null,
    coordinator,
  });
  return ctx;
}
