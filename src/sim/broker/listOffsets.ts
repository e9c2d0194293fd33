/**
 * ListOffsets from a consumer: KafkaApis.handleListOffsetRequest answers every partition the
 * request names, each on its own (ReplicaManager.fetchOffset → Partition.fetchOffsetForTimestamp),
 * with its own error, in one response.
 */
import { type Out, pendingRequest } from '../actors/out';
import type { RpcEvent } from '../kernel/effects';
import { lastStableOffset } from '../log/partitionLog';
import type { ListOffsetsPartition, ListOffsetsPartitionResponse, ListOffsetsRequest } from '../protocol/messages';
import { keyOf } from '../protocol/topicPartition';
import type { BrokerContext } from './broker.machine';
import { leadsOrUnreplicated } from './replication';

/** The broker's handler: every partition answered at once (nothing is held). */
export function onListOffsets(ctx: BrokerContext, ev: RpcEvent<ListOffsetsRequest>, out: Out): BrokerContext {
  const req = ev.payload;
  const partitions = req.partitions.map((p) => listOffsetFor(ctx, p, req.isolationLevel));
  out.reply(pendingRequest(ev), 'ListOffsetsResponse', { partitions });
  return ctx;
}

/**
 * One partition's answer: earliest (−2) is the log start offset; latest (−1) the high watermark, or
 * the LSO for read_committed. A broker that does not lead it: NOT_LEADER_OR_FOLLOWER.
 */
export function listOffsetFor(ctx: BrokerContext, p: ListOffsetsPartition, isolationLevel: string): ListOffsetsPartitionResponse {
  const held = ctx.partitions[keyOf(p)];
  const log = leadsOrUnreplicated(ctx, held) ? held : undefined;
  // Partition.fetchOffsetForTimestamp: a new leader whose HW has not yet reached the start of its
  // epoch does not know the latest offset yet (its HW may be below what the old leader had
  // exposed): OFFSET_NOT_AVAILABLE, retriable, for a consumer's latest
  const epochStart = ctx.replication?.leading[keyOf(p)]?.leaderEpochStartOffset;
  const notYet = log !== undefined && p.timestamp === -1 && epochStart !== undefined && epochStart > log.highWatermark;
  const offset =
    !log || notYet
      ? -1
      : p.timestamp === -2
        ? log.logStartOffset
        : isolationLevel === 'read_committed'
          ? lastStableOffset(log)
          : log.highWatermark;
  return {
    topic: p.topic,
    partition: p.partition,
    error: !log ? 'NOT_LEADER_OR_FOLLOWER' : notYet ? 'OFFSET_NOT_AVAILABLE' : 'NONE',
    offset,
  };
}
