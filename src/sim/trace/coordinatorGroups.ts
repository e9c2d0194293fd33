/**
 * The consumer groups as their coordinators hold them: the fixed `group-coordinator`'s, or — with a
 * replicated `__consumer_offsets` — each `broker-N.group-coordinator`'s (the groups of the partitions
 * its broker leads; a resigned or crashed coordinator keeps none). For views and checks.
 */
import type { ConsumerGroup } from '../coordinator/classicGroup';
import type { OffsetsHostedState } from '../coordinator/offsetsHosted';
import type { ActorId } from '../kernel/envelope';
import { coordinatorPartitionFor } from '../producer/partitioner';

const isGroupCoordinator = (id: ActorId) => id === 'group-coordinator' || id.endsWith('.group-coordinator');

export function coordinatorGroups(actors: Iterable<readonly [ActorId, unknown]>): Record<string, ConsumerGroup> {
  const out: Record<string, ConsumerGroup> = {};
  for (const [id, snap] of actors) {
    if (!isGroupCoordinator(id)) continue;
    const groups = (snap as { context?: { groups?: Record<string, ConsumerGroup> } } | undefined)?.context?.groups ?? {};
    for (const [gid, g] of Object.entries(groups)) out[gid] = g;
  }
  return out;
}

type CoordinatorSnapshot = { context?: { hosted?: OffsetsHostedState; meta?: { consumerOffsetsPartitions: number } } } | undefined;

/**
 * Whether a coordinator holds the group's committed offsets now, so that an OffsetFetch would be
 * answered from them: the fixed `group-coordinator` (the caller checks its process is up), or a hosted
 * one that leads the group's `__consumer_offsets` partition and has loaded it. Kafka answers nothing
 * otherwise (KafkaApis.getCoordinator: COORDINATOR_NOT_AVAILABLE while the partition has no leader;
 * CoordinatorRuntime.withActiveContextOrThrow: NOT_COORDINATOR / COORDINATOR_LOAD_IN_PROGRESS), and
 * "no group here" then does not mean "no offsets committed": they wait in the partition's log.
 */
export function groupOffsetsHeld(actors: Iterable<readonly [ActorId, unknown]>, groupId: string): boolean {
  return groupCoordinatorOf(actors, groupId) !== null;
}

/**
 * The coordinator that holds the group now (groupOffsetsHeld's rule): `group-coordinator`, or the
 * `broker-N.group-coordinator` that leads the group's `__consumer_offsets` partition and has loaded
 * it; null when none does. What FindCoordinator(GROUP) would name.
 */
export function groupCoordinatorOf(actors: Iterable<readonly [ActorId, unknown]>, groupId: string): ActorId | null {
  for (const [id, snap] of actors) {
    if (!isGroupCoordinator(id)) continue;
    const ctx = (snap as CoordinatorSnapshot)?.context;
    if (!ctx?.hosted) {
      if (id === 'group-coordinator') return id;
      continue;
    }
    const owned = ctx.meta && ctx.hosted.owned[coordinatorPartitionFor(groupId, ctx.meta.consumerOffsetsPartitions)];
    if (owned && owned.loading === null) return id;
  }
  return null;
}
