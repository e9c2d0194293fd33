/**
 * A partition as its leader holds it (kafka.cluster.Partition on the leader): the committed ISR and
 * an AlterPartition in flight (maximal ISR), each follower's fetch state, the high watermark rule
 * with strict min ISR, ISR expand and shrink, and what an acks=all produce waits for. Pure
 * functions; the broker (src/sim/broker) calls them and sends what they decide.
 */
import type { ActorId } from '../kernel/envelope';
import type { PartitionLog } from '../log/partitionLog';
import { withHighWatermark } from '../log/replicaLog';
import type { KafkaError } from '../protocol/errors';
import { isCaughtUp, type ReplicaState, resetReplicaState, updateFetchState } from './replicaState';

export interface LeaderPartition {
  readonly topic: string;
  readonly partition: number;
  readonly leader: ActorId;
  readonly leaderEpoch: number;
  readonly partitionEpoch: number;
  /** Assignment order, the leader included. */
  readonly replicas: readonly ActorId[];
  /** The committed ISR (the controller's). */
  readonly isr: readonly ActorId[];
  /** The ISR an AlterPartition in flight proposes (PendingExpandIsr / PendingShrinkIsr); null: none. */
  readonly proposedIsr: readonly ActorId[] | null;
  /** Every follower's fetch state, by broker. */
  readonly followers: Readonly<Record<ActorId, ReplicaState>>;
  /** The topic's min.insync.replicas. */
  readonly minInsyncReplicas: number;
  /** The offset this leader's epoch started at (UnifiedLog.maybeAssignEpochStartOffset: its LEO then). */
  readonly leaderEpochStartOffset: number;
}

/** Partition.makeLeader: the follower states reset, the epoch starting at the log end offset. */
export function becomeLeader(
  change: {
    topic: string;
    partition: number;
    leader: ActorId;
    leaderEpoch: number;
    partitionEpoch: number;
    replicas: readonly ActorId[];
    isr: readonly ActorId[];
  },
  minInsyncReplicas: number,
  logEndOffset: number,
  now: number,
): LeaderPartition {
  const followers: Record<ActorId, ReplicaState> = {};
  for (const r of change.replicas) if (r !== change.leader) followers[r] = resetReplicaState(r, change.isr.includes(r), now);
  return {
    topic: change.topic,
    partition: change.partition,
    leader: change.leader,
    leaderEpoch: change.leaderEpoch,
    partitionEpoch: change.partitionEpoch,
    replicas: change.replicas,
    isr: change.isr,
    proposedIsr: null,
    followers,
    minInsyncReplicas,
    leaderEpochStartOffset: logEndOffset,
  };
}

/** Partition.effectiveMinIsr (3.7+): min(min.insync.replicas, number of replicas). */
export function effectiveMinIsr(p: Pick<LeaderPartition, 'minInsyncReplicas' | 'replicas'>): number {
  return Math.min(p.minInsyncReplicas, p.replicas.length);
}

/** The maximal ISR: the committed one plus a replica an AlterPartition in flight adds (a pending shrink keeps the old ISR, KIP-497). */
export function maximalIsr(p: LeaderPartition): readonly ActorId[] {
  if (!p.proposedIsr) return p.isr;
  return [...p.isr, ...p.proposedIsr.filter((r) => !p.isr.includes(r))];
}

/** Who may join the ISR or count for the HW outside it: a live, unfenced broker (the controller's view, as the leader's metadata has it). */
export type IsrEligible = (broker: ActorId) => boolean;

/**
 * Partition.maybeIncrementLeaderHW: nothing moves while the committed ISR is below the effective
 * min ISR (strict min ISR, KAFKA-15583); otherwise the new HW is the smallest LEO among the leader,
 * the maximal ISR, and the followers outside it that are caught up and ISR-eligible. Forward only.
 */
export function maybeIncrementLeaderHW(
  p: LeaderPartition,
  log: PartitionLog,
  now: number,
  replicaLagTimeMaxMs: number,
  eligible: IsrEligible,
): PartitionLog {
  if (p.isr.length < effectiveMinIsr(p)) return log;
  const maximal = maximalIsr(p);
  let candidate = log.logEndOffset;
  for (const f of Object.values(p.followers)) {
    const counts = maximal.includes(f.broker) || (eligible(f.broker) && isCaughtUp(f, log.logEndOffset, now, replicaLagTimeMaxMs));
    if (counts) candidate = Math.min(candidate, f.logEndOffset);
  }
  return candidate > log.highWatermark ? withHighWatermark(log, candidate) : log;
}

/**
 * The leader's side of a follower's Fetch (Partition.updateFollowerFetchState): the follower's
 * state from its fetch offset, compared with the leader's LEO before the read.
 */
export function updateFollowerFetchState(
  p: LeaderPartition,
  follower: ActorId,
  fetchOffset: number,
  leaderLogEndOffset: number,
  now: number,
): LeaderPartition {
  const r = p.followers[follower];
  if (!r) return p;
  return { ...p, followers: { ...p.followers, [follower]: updateFetchState(r, fetchOffset, leaderLogEndOffset, now) } };
}

/**
 * Partition.maybeExpandIsr → the ISR to propose, or null: no AlterPartition in flight, the follower
 * outside the ISR, ISR-eligible, and in sync — its LEO ≥ the leader's HW and ≥ the start of this
 * leader epoch.
 */
export function isrToExpand(p: LeaderPartition, log: PartitionLog, follower: ActorId, eligible: IsrEligible): ActorId[] | null {
  if (p.proposedIsr || p.isr.includes(follower) || !eligible(follower)) return null;
  const r = p.followers[follower];
  if (!r || r.logEndOffset < log.highWatermark || r.logEndOffset < p.leaderEpochStartOffset) return null;
  return [...p.isr, follower];
}

/**
 * Partition.maybeShrinkIsr (every replica.lag.time.max.ms / 2) → the ISR to propose, or null: every
 * ISR follower not caught up within replica.lag.time.max.ms leaves; nothing while an
 * AlterPartition is in flight.
 */
export function isrToShrink(p: LeaderPartition, log: PartitionLog, now: number, replicaLagTimeMaxMs: number): ActorId[] | null {
  if (p.proposedIsr) return null;
  const out = p.isr.filter((b) => {
    const r = p.followers[b];
    return b !== p.leader && r !== undefined && !isCaughtUp(r, log.logEndOffset, now, replicaLagTimeMaxMs);
  });
  return out.length ? p.isr.filter((b) => !out.includes(b)) : null;
}

/** The leader sent an AlterPartition proposing `isr`. */
export function proposeIsr(p: LeaderPartition, isr: readonly ActorId[]): LeaderPartition {
  return { ...p, proposedIsr: isr };
}

/**
 * The controller's AlterPartitionResponse: NONE commits its ISR and partition epoch; INELIGIBLE_REPLICA
 * reverts to the committed state; a stale epoch (FENCED_LEADER_EPOCH,
 * INVALID_UPDATE_VERSION) leaves the proposal pending until new metadata replaces the state.
 */
export function onAlterPartitionResponse(
  p: LeaderPartition,
  r: { error: KafkaError; leaderEpoch: number; partitionEpoch: number; isr: readonly ActorId[] },
): LeaderPartition {
  if (r.error === 'NONE') {
    if (r.leaderEpoch !== p.leaderEpoch || r.partitionEpoch <= p.partitionEpoch) return { ...p, proposedIsr: null };
    return { ...p, isr: r.isr, partitionEpoch: r.partitionEpoch, proposedIsr: null };
  }
  if (r.error === 'INELIGIBLE_REPLICA') return { ...p, proposedIsr: null };
  return p;
}

/**
 * Partition.appendRecordsToLeader's check before an acks=all append: the committed ISR below the
 * effective min ISR → NOT_ENOUGH_REPLICAS with Kafka's message; null: go on.
 */
export function notEnoughReplicasBeforeAppend(p: LeaderPartition, acks: number): string | null {
  const min = effectiveMinIsr(p);
  if (acks !== -1 || p.isr.length >= min) return null;
  return `The size of the current ISR [${p.isr.join(', ')}] is insufficient to satisfy the min.isr requirement of ${min} for partition ${p.topic}-${p.partition}`;
}

/**
 * Partition.checkEnoughReplicasReachOffset (DelayedProduce.tryComplete): NOT_LEADER_OR_FOLLOWER when
 * no longer the leader; when the HW has reached `requiredOffset`, NONE if the maximal ISR still
 * meets the effective min ISR, else NOT_ENOUGH_REPLICAS_AFTER_APPEND; null: keep waiting.
 */
export function checkEnoughReplicasReachOffset(
  p: LeaderPartition | null,
  log: PartitionLog,
  requiredOffset: number,
): KafkaError | 'NONE' | null {
  if (!p) return 'NOT_LEADER_OR_FOLLOWER';
  if (log.highWatermark < requiredOffset) return null;
  return maximalIsr(p).length >= effectiveMinIsr(p) ? 'NONE' : 'NOT_ENOUGH_REPLICAS_AFTER_APPEND';
}
