/**
 * The iteration order of a java.util.HashMap, where a Kafka tool prints what a HashMap holds in its
 * order: ClassicGroup keeps its members in `HashMap<String, ClassicGroupMember>`, so DescribeGroups
 * lists them (and kafka-consumer-groups.sh prints them) in their member ids' hash order.
 */
import type { ConsumerGroup, GroupMember } from '../coordinator/classicGroup';
import { javaStringHashCode } from '../producer/partitioner';

/** java.lang.String.hashCode. */
export function javaStringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

/**
 * The iteration order of a java.util.HashMap holding these keys, inserted in this order: by bucket
 * (`(h ^ (h >>> 16)) & (capacity − 1)`, HashMap.hash), then by insertion within a bucket (a resize
 * keeps that order). The capacity is the smallest power of two from 16 that holds the keys at load
 * factor 0.75 — a map that once held more keeps its larger table, which this cannot know.
 */
export function javaHashMapOrder<T>(items: readonly T[], key: (t: T) => string): T[] {
  let capacity = 16;
  while (items.length > capacity * 0.75) capacity *= 2;
  const bucket = (t: T) => {
    const h = javaStringHashCode(key(t));
    return (h ^ (h >>> 16)) & (capacity - 1);
  };
  return items
    .map((t, i) => ({ t, i, b: bucket(t) }))
    .sort((a, b) => a.b - b.b || a.i - b.i)
    .map((x) => x.t);
}

/** ClassicGroup.allMembers(), in its HashMap's order. */
export function membersInDescribeOrder(g: ConsumerGroup): GroupMember[] {
  return javaHashMapOrder(Object.values(g.members), (m) => m.memberId);
}
