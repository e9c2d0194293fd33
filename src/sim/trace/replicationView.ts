/**
 * How a replicated partition reads in the page (issue [replication]): its replicas in assignment
 * order with each one's log end offset and own high watermark, the leader, the leader epoch, the
 * ISR, and the records truncation cut from a replica. A partition with one replica has no
 * replication row: the lanes draw it as before.
 */
import type { BrokerContext } from '../broker/broker.machine';
import type { ControllerContext } from '../controller/controller.machine';
import type { ActorId } from '../kernel/envelope';
import { topicPartitionKey } from '../protocol/topicPartition';
import { effectiveMinIsr } from '../replication/leaderPartition';
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
  /** The trace step of the truncation. */
  readonly step: number;
  /** The replica's high watermark before the cut: the records below it had been committed. */
  readonly highWatermark: number;
  /**
   * Why the leader it followed did not have them: 'unclean-election' (an out-of-sync replica was
   * elected, unclean.leader.election.enable=true: committed records can go), 'leader-change' (a
   * leader from the ISR, which lacks only records above the old high watermark).
   */
  readonly cause: 'unclean-election' | 'leader-change';
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

type Snapshots = ReadonlyMap<ActorId, { value: unknown; context: unknown }>;

function controllerOf(actors: Snapshots): ControllerContext | null {
  return (actors.get('controller')?.context as ControllerContext | undefined) ?? null;
}

/**
 * Which broker's copy is a replicated partition's main log: the broker that leads it; with no leader,
 * the last leader (without ELR the ISR keeps its last member, the leader that failed), else the first
 * replica.
 */
export function mainReplicas(actors: Snapshots): Map<string, ActorId> {
  const out = new Map<string, ActorId>();
  const controller = controllerOf(actors);
  if (!controller) return out;
  for (const [key, reg] of Object.entries(controller.partitions)) {
    let main: ActorId | undefined;
    for (const b of reg.replicas) {
      const ctx = actors.get(b)?.context as BrokerContext | undefined;
      if (ctx?.replication?.leading[key]) main = b;
    }
    out.set(key, main ?? reg.leader ?? reg.isr[0] ?? reg.replicas[0] ?? '');
  }
  return out;
}

/** Truncations per "topic-partition" (the trace's truncated facts: ./truncationJournal). */
export type Truncations = ReadonlyMap<string, readonly TruncationRow[]>;

const NO_TRUNCATIONS: Truncations = new Map();

/**
 * A replicated partition as the page draws it, from the controller's record and each replica's log;
 * the records truncation cut come from `truncations` (a snapshot does not keep them).
 */
export function replicationRow(
  actors: Snapshots,
  topic: string,
  partition: number,
  truncations: Truncations = NO_TRUNCATIONS,
): ReplicationRow | null {
  const controller = controllerOf(actors);
  const key = topicPartitionKey(topic, partition);
  const reg = controller?.partitions[key];
  if (!controller || !reg) return null;
  const replicas: ReplicaRow[] = reg.replicas.map((b) => {
    const snap = actors.get(b);
    const log = (snap?.context as BrokerContext | undefined)?.partitions[key];
    return {
      broker: b,
      role: reg.leader === b ? 'leader' : 'follower',
      online: snap?.value !== 'down',
      inIsr: reg.isr.includes(b),
      logEndOffset: log?.logEndOffset ?? 0,
      highWatermark: log?.highWatermark ?? 0,
    };
  });
  const leaderCtx = reg.leader ? (actors.get(reg.leader)?.context as BrokerContext | undefined) : undefined;
  const minIsr = leaderCtx?.replication?.settings.minInsyncReplicas[topic] ?? 1;
  return {
    leader: reg.leader,
    leaderEpoch: reg.leaderEpoch,
    isr: reg.isr,
    effectiveMinIsr: effectiveMinIsr({ minInsyncReplicas: minIsr, replicas: reg.replicas }),
    uncleanLeaderElection: controller.unclean[topic] ?? false,
    replicas,
    truncations: truncations.get(key) ?? [],
  };
}
