/**
 * The consumer groups as their coordinators hold them: the fixed `group-coordinator`'s, or — with a
 * replicated `__consumer_offsets` — each `broker-N.group-coordinator`'s (the groups of the partitions
 * its broker leads; a resigned or crashed coordinator keeps none). For views and checks.
 */
import type { ConsumerGroup } from '../coordinator/classicGroup';
import type { ActorId } from '../kernel/envelope';

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
