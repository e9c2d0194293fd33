/**
 * What the group's assignors (range, Streams' sticky) share: members in member id order, and per
 * subscribed topic (in name order) its partition count and the members subscribed to it.
 */
import type { ClusterMetadata } from '../cluster/metadata';

export const byMemberId = (a: { memberId: string }, b: { memberId: string }) =>
  a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0;

export interface TopicToAssign<M> {
  readonly topic: string;
  readonly partitions: number;
  /** In member id order; never empty. */
  readonly subscribed: readonly M[];
}

export function topicsToAssign<M extends { memberId: string; topics: readonly string[] }>(
  members: readonly M[],
  meta: ClusterMetadata,
): TopicToAssign<M>[] {
  const topics = [...new Set(members.flatMap((m) => m.topics))].sort();
  return topics.flatMap((topic) => {
    const subscribed = members.filter((m) => m.topics.includes(topic)).sort(byMemberId);
    return subscribed.length === 0 ? [] : [{ topic, partitions: meta.topics[topic]?.partitions ?? 0, subscribed }];
  });
}
