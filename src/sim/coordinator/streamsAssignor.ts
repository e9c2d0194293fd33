/**
 * Kafka Streams' assignment under the COOPERATIVE protocol (StreamsPartitionAssignor.assign, its task
 * assignor, then addClientAssignments → populateActiveTaskAndPartitionsLists), for a group whose
 * members all sent their owned partitions in JoinGroup (classicGroup.ts).
 *
 * 1. A target, balanced and sticky: per sub-topology (in the model: per subscribed topic, each task
 *    one partition), every member is given ⌊n/c⌋ or ⌈n/c⌉ tasks; a member keeps the tasks it owns
 *    up to that share, and the tasks nobody keeps go, in partition order, to the member with the
 *    fewest (ties by member id). Kafka's HighAvailabilityTaskAssignor keeps a stateful task on a
 *    caught-up client and balances among the clients whose lag is within acceptable.recovery.lag
 *    (10000 records): the model's changelogs are far shorter, so every member counts as caught up.
 * 2. The two phases: a task the target gives to a member while ANOTHER member of this join still owns
 *    its partition is removed from the assignment ("Removing task … from … active assignment until
 *    it is safely revoked in followup rebalance"). Its owner's assignment no longer has it, so the
 *    owner's ConsumerCoordinator.onJoinComplete revokes it and requests a rejoin; in that follow-up
 *    rebalance nobody owns it and it goes to its new member.
 *
 * Simplified (said in docs/kafka-model.md): no standby or warm-up replicas, no probing rebalance,
 * no balance across sub-topologies or threads (one thread per instance); the member that was
 * withheld a task does not schedule the follow-up itself (Kafka encodes nextRebalanceTime 0 for it,
 * and its StreamThread calls enforceRebalance): the owner's rejoin starts the same rebalance.
 */
import type { ClusterMetadata } from '../cluster/metadata';
import type { TopicPartition } from '../protocol/messages';
import { byMemberId, topicsToAssign } from './memberOrder';

export interface StreamsMember {
  readonly memberId: string;
  readonly topics: readonly string[];
  readonly ownedPartitions: readonly TopicPartition[];
}

/** The balanced, sticky target: per topic, who runs each partition's task. */
export function stickyTarget(members: readonly StreamsMember[], meta: ClusterMetadata): Record<string, TopicPartition[]> {
  const out: Record<string, TopicPartition[]> = {};
  for (const m of members) out[m.memberId] = [];
  for (const { topic, partitions: n, subscribed } of topicsToAssign(members, meta)) {
    const c = subscribed.length;
    const base = Math.floor(n / c);
    let extra = n % c;
    const count: Record<string, number> = Object.fromEntries(subscribed.map((m) => [m.memberId, 0]));
    const taken = new Set<number>();
    const give = (m: StreamsMember, p: number) => {
      (out[m.memberId] as TopicPartition[]).push({ topic, partition: p });
      count[m.memberId] = (count[m.memberId] ?? 0) + 1;
      taken.add(p);
    };
    // each member keeps what it owns, up to its share (one more while the remainder lasts)
    for (const m of subscribed) {
      const owned = m.ownedPartitions
        .filter((tp) => tp.topic === topic && tp.partition < n)
        .map((tp) => tp.partition)
        .sort((a, b) => a - b);
      for (const p of owned) {
        if (taken.has(p)) continue;
        const have = count[m.memberId] ?? 0;
        if (have < base) give(m, p);
        else if (have === base && extra > 0) {
          extra -= 1;
          give(m, p);
        }
      }
    }
    // the rest to the member with the fewest, within its share
    for (let p = 0; p < n; p++) {
      if (taken.has(p)) continue;
      const open = subscribed.filter((m) => (count[m.memberId] ?? 0) < base || ((count[m.memberId] ?? 0) === base && extra > 0));
      const m = [...open].sort((a, b) => (count[a.memberId] ?? 0) - (count[b.memberId] ?? 0) || byMemberId(a, b))[0];
      if (!m) break;
      if ((count[m.memberId] ?? 0) === base) extra -= 1;
      give(m, p);
    }
  }
  return out;
}

const key = (tp: TopicPartition) => `${tp.topic}-${tp.partition}`;

/**
 * StreamsPartitionAssignor.assign under COOPERATIVE: the sticky target, less every task whose
 * partition another member still owns (populateActiveTaskAndPartitionsLists) — given in the
 * follow-up rebalance, once its owner has revoked it.
 */
export function streamsAssign(members: readonly StreamsMember[], meta: ClusterMetadata): Record<string, TopicPartition[]> {
  const target = stickyTarget(members, meta);
  const ownerOf = new Map<string, string>();
  for (const m of members) for (const tp of m.ownedPartitions) ownerOf.set(key(tp), m.memberId);
  return Object.fromEntries(
    Object.entries(target).map(([memberId, tps]) => [
      memberId,
      tps
        .filter((tp) => {
          const owner = ownerOf.get(key(tp));
          return owner === undefined || owner === memberId;
        })
        .sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition)),
    ]),
  );
}

/** The tasks held back this round: given by the target to one member, still owned by another. */
export function withheldTasks(members: readonly StreamsMember[], meta: ClusterMetadata): TopicPartition[] {
  const target = stickyTarget(members, meta);
  const assigned = streamsAssign(members, meta);
  return Object.entries(target).flatMap(([memberId, tps]) =>
    tps.filter((tp) => !(assigned[memberId] ?? []).some((a) => key(a) === key(tp))),
  );
}
