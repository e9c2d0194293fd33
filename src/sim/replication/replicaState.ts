/**
 * What a leader knows of one follower replica (kafka.cluster.Replica): its log end offset as its
 * last Fetch said, and when it was last caught up. Pure functions.
 */
import type { ActorId } from '../kernel/envelope';

export interface ReplicaState {
  readonly broker: ActorId;
  /** The follower's LEO as its last Fetch said (its fetchOffset); −1 while unknown. */
  readonly logEndOffset: number;
  /** Last time the follower was caught up to the leader's LEO (Replica.lastCaughtUpTimeMs). */
  readonly lastCaughtUpTimeMs: number;
  /** The leader's LEO and the time at the follower's previous Fetch. */
  readonly lastFetchLeaderLogEndOffset: number;
  readonly lastFetchTimeMs: number;
}

/**
 * Kafka's 0 for "never caught up": its clock is the wall clock, far past 0, while virtual time starts
 * at 0, where 0 would read as "caught up just now". A finite number, so snapshots stay plain JSON.
 */
export const NEVER_CAUGHT_UP = -Number.MAX_SAFE_INTEGER;

/**
 * Replica.resetReplicaState on becoming leader: the LEO is unknown (the model's leader never keeps
 * it across a leader change), lastCaughtUpTimeMs is now for an ISR member and never for the others.
 */
export function resetReplicaState(broker: ActorId, inIsr: boolean, now: number): ReplicaState {
  return {
    broker,
    logEndOffset: -1,
    lastCaughtUpTimeMs: inIsr ? now : NEVER_CAUGHT_UP,
    lastFetchLeaderLogEndOffset: -1,
    lastFetchTimeMs: NEVER_CAUGHT_UP,
  };
}

/**
 * Replica.updateFetchStateOrThrow: the follower's LEO := its fetch offset; lastCaughtUpTimeMs := now
 * if it reached the leader's LEO now, else the previous fetch's time if it reached the leader's LEO
 * as it was then, else unchanged.
 */
export function updateFetchState(r: ReplicaState, fetchOffset: number, leaderLogEndOffset: number, now: number): ReplicaState {
  const lastCaughtUpTimeMs =
    fetchOffset >= leaderLogEndOffset
      ? Math.max(r.lastCaughtUpTimeMs, now)
      : fetchOffset >= r.lastFetchLeaderLogEndOffset
        ? Math.max(r.lastCaughtUpTimeMs, r.lastFetchTimeMs)
        : r.lastCaughtUpTimeMs;
  return {
    broker: r.broker,
    logEndOffset: fetchOffset,
    lastCaughtUpTimeMs,
    lastFetchLeaderLogEndOffset: leaderLogEndOffset,
    lastFetchTimeMs: now,
  };
}

/** Replica.isCaughtUp: at the leader's LEO, or caught up within replica.lag.time.max.ms. */
export function isCaughtUp(r: ReplicaState, leaderLogEndOffset: number, now: number, replicaLagTimeMaxMs: number): boolean {
  return r.logEndOffset === leaderLogEndOffset || now - r.lastCaughtUpTimeMs <= replicaLagTimeMaxMs;
}
