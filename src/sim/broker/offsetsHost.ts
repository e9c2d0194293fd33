/**
 * A broker's side of the group coordinator it hosts when `__consumer_offsets` is replicated
 * (offsets.topic.replication.factor > 1): the coordinator's writes appended to the leader replica
 * (CoordinatorPartitionWriter.append: ReplicaManager.appendRecords with requiredAcks = 1 — so no
 * min ISR check before the append — answered once the HW passes them, or after
 * offsets.commit.timeout.ms), the coordinator told when this broker starts or stops leading a
 * `__consumer_offsets` partition (GroupCoordinatorService.onElection / onResignation) and when a
 * transaction marker was written to one, and FindCoordinator(GROUP) answered from the metadata cache.
 */
import type { Out } from '../actors/out';
import { CONSUMER_OFFSETS_TOPIC } from '../cluster/metadata';
import { hostedGroupCoordinatorId } from '../coordinator/hostedGroupCoordinator.machine';
import type { OffsetsBatch } from '../coordinator/offsetsHosted';
import type { ActorId } from '../kernel/envelope';
import { appendProducerBatch, type PartitionLog } from '../log/partitionLog';
import type { ProducedBatch } from '../log/recordBatch';
import { coordinatorPartitionFor } from '../producer/partitioner';
import type { KafkaError } from '../protocol/errors';
import { topicPartitionKey } from '../protocol/topicPartition';
import type { BrokerContext } from './broker.machine';
import { afterLeaderUpdate, type BrokerReplication, delayProduce, wakeReplicaFetches } from './replication';
import { leadershipChanges } from './txnStateHost';

type Ctx = BrokerContext & { readonly replication: BrokerReplication };

/** This broker hosts a group coordinator: __consumer_offsets is a replicated topic of the cluster. */
export function hostsGroupCoordinator(ctx: Pick<BrokerContext, 'meta'>): boolean {
  return ctx.meta.topics[CONSUMER_OFFSETS_TOPIC]?.replicas !== undefined;
}

export interface AppendConsumerOffsetsArgs {
  readonly writeId: number;
  readonly partition: number;
  readonly batches: readonly ProducedBatch[];
  readonly timeoutMs: number;
}

/**
 * The group coordinator's write: refused NOT_LEADER_OR_FOLLOWER when this broker does not lead the
 * partition; otherwise appended (acks=1: whatever the ISR) and held until the HW passes it
 * (NONE), the leadership moves (NOT_LEADER_OR_FOLLOWER) or the timeout (REQUEST_TIMED_OUT; the
 * records stay in the log), answered by the in-process call `offsetsAppended`.
 */
export function onAppendConsumerOffsets(
  ctx: BrokerContext,
  from: ActorId,
  args: AppendConsumerOffsetsArgs,
  now: number,
  out: Out,
): BrokerContext {
  const answer = (error: KafkaError) => {
    out.call(from, 'offsetsAppended', { writeId: args.writeId, error });
    return ctx;
  };
  const key = topicPartitionKey(CONSUMER_OFFSETS_TOPIC, args.partition);
  let log = ctx.partitions[key];
  if (!ctx.replication?.leading[key] || !log) return answer('NOT_LEADER_OR_FOLLOWER');
  let first = -1;
  let last = -1;
  for (const batch of args.batches) {
    const r = appendProducerBatch(log, batch, now);
    if (r.outcome.kind === 'rejected') return answer(r.outcome.error);
    log = r.log;
    if (first < 0) first = r.outcome.baseOffset;
    last = r.outcome.lastOffset;
  }
  let c: Ctx = { ...(ctx as Ctx), partitions: { ...ctx.partitions, [key]: log } };
  c = delayProduce(
    c,
    { from, envelopeId: -1, correlationId: -1 },
    CONSUMER_OFFSETS_TOPIC,
    args.partition,
    first,
    last,
    args.timeoutMs,
    out,
    {
      coordinator: from,
      writeId: args.writeId,
      answer: 'offsetsAppended',
    },
  );
  return afterLeaderUpdate(wakeReplicaFetches(c, key, out), key, now, out);
}

/** The batches of a replica of a __consumer_offsets partition, to its log end offset (what a load reads). */
export function offsetsBatches(log: PartitionLog): OffsetsBatch[] {
  const out: OffsetsBatch[] = [];
  for (const b of log.batches)
    out.push({
      producerId: b.producerId,
      transactional: b.isTransactional,
      control: b.isControl ? b.controlType : null,
      records: b.isControl ? [] : b.records.flatMap((r) => (r.key !== null && r.value !== null ? [{ key: r.key, value: r.value }] : [])),
    });
  return out;
}

/**
 * After the controller's records changed this broker's leaderships: the hosted group coordinator
 * loads (onElection, the leader epoch as coordinator epoch, this replica's batches) or unloads
 * (onResignation) each __consumer_offsets partition whose leadership here changed. (Where its
 * TxnOffsetCommits are verified the broker decides: coordinatorVerification.ts.)
 */
export function groupCoordinatorHandoffs(before: BrokerContext, after: BrokerContext, out: Out): void {
  if (!hostsGroupCoordinator(after)) return;
  const coordinator = hostedGroupCoordinatorId(after.id);
  for (const c of leadershipChanges(before, after, CONSUMER_OFFSETS_TOPIC)) {
    if (c.elected !== null) {
      const log = after.partitions[topicPartitionKey(CONSUMER_OFFSETS_TOPIC, c.partition)];
      out.call(coordinator, 'becomeGroupCoordinator', {
        partition: c.partition,
        coordinatorEpoch: c.elected,
        batches: log ? offsetsBatches(log) : [],
      });
    } else out.call(coordinator, 'resignGroupCoordinator', { partition: c.partition });
  }
}

/** A marker this broker appended to a __consumer_offsets partition: its group coordinator applies it to the pending offsets. */
export function tellMarkerWritten(
  ctx: BrokerContext,
  tp: { topic: string; partition: number },
  marker: { producerId: number; result: 'COMMIT' | 'ABORT' },
  out: Out,
): void {
  if (tp.topic !== CONSUMER_OFFSETS_TOPIC || !hostsGroupCoordinator(ctx)) return;
  out.call(hostedGroupCoordinatorId(ctx.id), 'offsetsMarkerWritten', { partition: tp.partition, ...marker });
}

/** The group coordinator of a group as this broker's metadata cache knows it (null: the partition has no live leader). */
export function groupCoordinatorFor(ctx: BrokerContext, groupId: string): ActorId | null {
  const p = coordinatorPartitionFor(groupId, ctx.meta.consumerOffsetsPartitions);
  const leader = ctx.replication?.registrations[topicPartitionKey(CONSUMER_OFFSETS_TOPIC, p)]?.leader ?? null;
  if (leader === null || ctx.replication?.fencedBrokers.includes(leader)) return null;
  return hostedGroupCoordinatorId(leader);
}
