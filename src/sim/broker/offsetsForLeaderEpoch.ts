/**
 * OffsetsForLeaderEpoch from a consumer validating its positions (KIP-320): KafkaApis.
 * handleOffsetForLeaderEpochRequest → ReplicaManager.lastOffsetForLeaderEpoch →
 * Partition.lastOffsetForLeaderEpoch(currentLeaderEpoch, leaderEpoch, fetchOnlyFromLeader = true).
 */
import { type Out, pendingRequest } from '../actors/out';
import type { RpcEvent } from '../kernel/effects';
import { logEndOffsetForEpoch } from '../log/replicaLog';
import type { EpochEndOffset, OffsetForLeaderPartition, OffsetsForLeaderEpochRequest } from '../protocol/messages';
import { keyOf } from '../protocol/topicPartition';
import type { BrokerContext } from './broker.machine';
import { fetchEpochError, leadsOrUnreplicated } from './replication';

/** The broker's handler: every partition answered at once (nothing is held). */
export function onOffsetsForLeaderEpoch(ctx: BrokerContext, ev: RpcEvent<OffsetsForLeaderEpochRequest>, out: Out): BrokerContext {
  const partitions = ev.payload.partitions.map((p) => epochEndOffset(ctx, p));
  out.reply(pendingRequest(ev), 'OffsetsForLeaderEpochResponse', { partitions });
  return ctx;
}

/**
 * One partition's answer. Partition.getLocalLog checks the currentLeaderEpoch first (FENCED_LEADER_EPOCH
 * / UNKNOWN_LEADER_EPOCH), then that this broker leads (NOT_LEADER_OR_FOLLOWER); the leader answers
 * UnifiedLog.endOffsetForEpoch from its leader epoch cache: the largest epoch ≤ the one asked for and
 * the start of the next epoch (the LEO for the latest), or no epoch and offset (−1, −1, error NONE)
 * when it knows no such epoch. A log the model keeps without an epoch cache (an unreplicated
 * partition: its leader never moves, and Kafka's cache would hold one epoch) ends the epoch asked for at its LEO.
 */
export function epochEndOffset(ctx: BrokerContext, p: OffsetForLeaderPartition): EpochEndOffset {
  const base = { topic: p.topic, partition: p.partition };
  const log = ctx.partitions[keyOf(p)];
  if (!log) return { ...base, error: 'UNKNOWN_TOPIC_OR_PARTITION', leaderEpoch: -1, endOffset: -1 };
  const epochError = fetchEpochError(ctx, log, p.currentLeaderEpoch);
  if (epochError !== 'NONE') return { ...base, error: epochError, leaderEpoch: -1, endOffset: -1 };
  if (!leadsOrUnreplicated(ctx, log)) return { ...base, error: 'NOT_LEADER_OR_FOLLOWER', leaderEpoch: -1, endOffset: -1 };
  if (log.epochs === undefined) return { ...base, error: 'NONE', leaderEpoch: p.leaderEpoch, endOffset: log.logEndOffset };
  const found = logEndOffsetForEpoch(log, p.leaderEpoch);
  return { ...base, error: 'NONE', leaderEpoch: found.epoch, endOffset: found.endOffset };
}
