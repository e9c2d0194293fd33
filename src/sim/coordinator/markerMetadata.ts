/**
 * Where the one-replica `txn-coordinator` process sends markers when a data partition's leader moves.
 * In Kafka the coordinator is a module of a broker and reads each marker's destination from that
 * broker's metadata cache (TransactionMarkerChannelManager → metadataCache.getPartitionLeaderEndpoint),
 * which the controller's records keep current. Both kinds of coordinator here are told every leader
 * move by a broker as it applies the controller's record (broker/txnStateHost.ts
 * coordinatorLeaderUpdates → markerChannel.onPartitionLeader). The stand-alone process, once
 * restarted, has missed the moves told while it was down (`leadersMissed`): then *it asks a broker*
 * (a Metadata request: the model's stand-in for the restarted broker catching up on the metadata
 * log) when a marker of a replicated partition is refused NOT_LEADER_OR_FOLLOWER or lost, takes every
 * leader with a newer epoch from the answer, and sends the waiting markers there
 * (markerChannel.onLeaderLookupAnswered).
 */
import type { Out } from '../actors/out';
import { applyCurrentLeader } from '../cluster/clientMetadata';
import type { DisconnectedEvent, RpcEvent } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import type { MetadataResponse } from '../protocol/replicationMessages';
import { parseTopicPartition } from '../protocol/topicPartition';
import type { TxnCoordinatorContext, TxnDraft } from './txnCoordinatorContext';

/** The marker errors after which the leader is looked up again (TransactionMarkerRequestCompletionHandler). */
export const LEADER_MOVED_ERRORS: ReadonlySet<string> = new Set(['NOT_LEADER_OR_FOLLOWER', 'UNKNOWN_TOPIC_OR_PARTITION']);

/** Some of these partitions are of a replicated topic (their leader can move). */
function anyReplicated(d: TxnDraft, partitions: readonly string[]): boolean {
  return partitions.some((p) => d.meta.topics[parseTopicPartition(p).topic]?.replicas !== undefined);
}

/**
 * Asks a broker other than `failed` for the leaders of these partitions' topics, unless this
 * coordinator's cache has every move (hosted, or never restarted: the brokers tell it), none of them
 * is replicated, or a request is in flight.
 */
export function askLeaders(d: TxnDraft, partitions: readonly string[], failed: ActorId | null, out: Out): void {
  if (d.hosted || !d.leadersMissed || d.leaderLookup?.inFlight !== undefined || !anyReplicated(d, partitions)) return;
  const brokers = d.meta.brokers.filter((b) => b !== failed);
  if (brokers.length === 0) return;
  const turn = d.leaderLookup?.turn ?? 0;
  const to = brokers[turn % brokers.length] as ActorId;
  const correlationId = d.nextCorrelationId;
  d.nextCorrelationId += 1;
  const topics = [...new Set(partitions.map((p) => parseTopicPartition(p).topic))].sort();
  out.send(to, 'Metadata', { correlationId, topics }, { timeoutMs: d.config.requestTimeoutMs });
  d.leaderLookup = { turn: turn + 1, inFlight: correlationId };
}

/** The answer to the lookup in flight: every leader with a newer epoch taken (null: not that lookup). */
export function takeLookupAnswer(ctx: TxnCoordinatorContext, ev: RpcEvent<MetadataResponse & { correlationId: number }>): TxnDraft | null {
  if (ctx.leaderLookup?.inFlight !== ev.payload.correlationId) return null;
  let meta = ctx.meta;
  for (const t of ev.payload.topics)
    for (const p of t.partitions)
      if (p.leader !== null)
        meta = applyCurrentLeader(meta, { topic: t.name, partition: p.partition }, { leaderId: p.leader, leaderEpoch: p.leaderEpoch }).meta;
  return { ...ctx, meta, leaderLookup: { turn: ctx.leaderLookup.turn } };
}

/** The lookup went unanswered: the next refused or lost marker asks again (another broker). */
export const onLeaderLookupLost = (ctx: TxnCoordinatorContext, ev: DisconnectedEvent): TxnCoordinatorContext => {
  const lookup = ctx.leaderLookup;
  if (!lookup || lookup.inFlight !== (ev.payload as { correlationId?: number }).correlationId) return ctx;
  return { ...ctx, leaderLookup: { turn: lookup.turn } };
};
