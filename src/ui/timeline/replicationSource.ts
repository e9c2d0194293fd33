/**
 * Where the lanes learn which partitions are replicated: per lane key, the replication row and the
 * broker whose log the lane draws (the leader's; an offline partition's last one, as the engine's
 * partitionRows names it). Only runs with a KRaft controller (some partition with more than one
 * replica) pay for reading it: a run with one replica per partition gets an empty map at once, so
 * big RF=1 runs step as fast as before.
 */
import { keyOf, partitionRows, type ReplicationRow, type Truncations } from '../../sim/views';

type Actors = ReadonlyMap<string, { value: unknown; context: unknown }>;

export interface ReplicatedPartition {
  /** The process whose log is the lane's main records. */
  readonly logHolder: string;
  readonly replication: ReplicationRow;
}

/** `truncations`: what truncation cut from replicas so far (truncationsAt), drawn as struck-through cells. */
export type ReplicationSource = (actors: Actors, truncations?: Truncations) => ReadonlyMap<string, ReplicatedPartition>;

/** The KRaft controller's actor id: present only when some partition has more than one replica. */
export const CONTROLLER_ID = 'controller';

const NONE: ReadonlyMap<string, ReplicatedPartition> = new Map();

// the lanes, the actors panel and the details panel read the same view: read its rows once (the
// controller's snapshot too, in case a view's map is ever updated in place)
let last: {
  actors: Actors;
  controller: unknown;
  truncations: Truncations | undefined;
  out: ReadonlyMap<string, ReplicatedPartition>;
} | null = null;

/** The replicated partitions of a view, from the engine's partition rows (the leader's row first). */
export const replicationFromRows: ReplicationSource = (actors, truncations) => {
  if (!actors.has(CONTROLLER_ID)) return NONE;
  const controller = actors.get(CONTROLLER_ID);
  if (last && last.actors === actors && last.controller === controller && last.truncations === truncations) return last.out;
  const out = new Map<string, ReplicatedPartition>();
  last = { actors, controller, truncations, out };
  for (const row of partitionRows(actors, truncations)) {
    const r = row.replication;
    if (!r) continue;
    const key = keyOf(row);
    const had = out.get(key);
    if (!had || (had.logHolder !== r.leader && row.leader === r.leader)) out.set(key, { logHolder: row.leader, replication: r });
  }
  return out;
};
