/**
 * How a replicated partition reads in the page (issue [replication]): its replicas in assignment
 * order with each one's log end offset and own high watermark, the leader, the leader epoch, the
 * ISR, and the records truncation cut from a replica. A partition with one replica has no
 * replication row: the lanes draw it as before.
 */
import type { ActorId } from '../kernel/envelope';
import type { RecordRow } from './logView';

export interface ReplicaRow {
  readonly broker: ActorId;
  readonly role: 'leader' | 'follower';
  /** The broker is up (not crashed). A down replica keeps its log on disk. */
  readonly online: boolean;
  readonly inIsr: boolean;
  readonly logEndOffset: number;
  /** This replica's own high watermark (a follower learns the leader's one fetch later). */
  readonly highWatermark: number;
}

/** Records a replica cut from its log when it followed a new leader (UnifiedLog.truncateTo). */
export interface TruncationRow {
  readonly broker: ActorId;
  /** Offsets [fromOffset, toOffset) were removed. */
  readonly fromOffset: number;
  readonly toOffset: number;
  /** The leader epoch the replica truncated to follow. */
  readonly leaderEpoch: number;
  /** Virtual time of the truncation. */
  readonly at: number;
  readonly records: readonly RecordRow[];
}

export interface ReplicationRow {
  /** null: no leader (offline partition, LEADER_NOT_AVAILABLE). */
  readonly leader: ActorId | null;
  readonly leaderEpoch: number;
  readonly isr: readonly ActorId[];
  /** min(min.insync.replicas, replication factor): what acks=all and the high watermark wait for. */
  readonly effectiveMinIsr: number;
  readonly uncleanLeaderElection: boolean;
  readonly replicas: readonly ReplicaRow[];
  readonly truncations: readonly TruncationRow[];
}
