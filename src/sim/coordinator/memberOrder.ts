/**
 * What the group's assignors (range, Streams' sticky) share: members in the assignor's order, and
 * per subscribed topic (in name order) its partition count and the members subscribed to it.
 */
import type { ClusterMetadata } from '../cluster/metadata';

export const byMemberId = (a: { memberId: string }, b: { memberId: string }) =>
  a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0;

/**
 * AbstractPartitionAssignor.MemberInfo.compareTo, the range assignor's member order: static members
 * first, by group.instance.id (so a restarted instance, whatever its new member id, keeps its place),
 * then the others by member id.
 */
export const byMemberInfo = (a: { memberId: string; groupInstanceId?: string }, b: { memberId: string; groupInstanceId?: string }) => {
  if (a.groupInstanceId !== undefined && b.groupInstanceId !== undefined)
    return a.groupInstanceId < b.groupInstanceId ? -1 : a.groupInstanceId > b.groupInstanceId ? 1 : 0;
  if (a.groupInstanceId !== undefined) return -1;
  if (b.groupInstanceId !== undefined) return 1;
  return byMemberId(a, b);
};

export interface TopicToAssign<M> {
  readonly topic: string;
  readonly partitions: number;
  /** In the assignor's member order (byMemberInfo: member id order for dynamic members); never empty. */
  readonly subscribed: readonly M[];
}

export function topicsToAssign<M extends { memberId: string; groupInstanceId?: string; topics: readonly string[] }>(
  members: readonly M[],
  meta: ClusterMetadata,
): TopicToAssign<M>[] {
  const topics = [...new Set(members.flatMap((m) => m.topics))].sort();
  return topics.flatMap((topic) => {
    const subscribed = members.filter((m) => m.topics.includes(topic)).sort(byMemberInfo);
    return subscribed.length === 0 ? [] : [{ topic, partitions: meta.topics[topic]?.partitions ?? 0, subscribed }];
  });
}
