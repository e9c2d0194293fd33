/**
 * Which brokers hold each partition's replicas (issue [replication]). Kafka's StripedReplicaPlacer
 * starts from a random broker and each partition one further on; the model keeps today's leaders
 * instead: partition p of the topic at index ti has replicas brokers (ti + p + j) mod n for
 * j < replicationFactor (or the `leaders` override followed by the next brokers), the first being the
 * preferred leader. An explicit `replicas` list wins.
 */

import { josa } from '../narration/language';
import type { TopicSpec } from './schema';

export interface AssignmentProblem {
  readonly path: string;
  readonly en: string;
  readonly ko: string;
}

/** The replication factor a topic asks for: replicationFactor, else the length of its first replica list, else 1. */
export function replicationFactorOf(t: TopicSpec): number {
  return t.replicationFactor ?? t.replicas?.[0]?.length ?? 1;
}

/** Broker indexes per partition, preferred leader first. */
export function replicaAssignment(t: TopicSpec, topicIndex: number, brokers: number): number[][] {
  const n = t.partitions ?? 1;
  const rf = replicationFactorOf(t);
  return Array.from({ length: n }, (_, p) => {
    const given = t.replicas?.[p];
    if (given) return [...given];
    const first = t.leaders?.[p] ?? (topicIndex + p) % brokers;
    return Array.from({ length: rf }, (_, j) => (first + j) % brokers);
  });
}

/** The checks Kafka's CreateTopics makes of a replication factor and an assignment (ReplicationControlManager). */
export function assignmentProblems(t: TopicSpec, i: number, brokers: number): AssignmentProblem[] {
  const out: AssignmentProblem[] = [];
  const rf = replicationFactorOf(t);
  const partitions = t.partitions ?? 1;
  if (rf > brokers)
    out.push({
      path: `topics[${i}].replicationFactor`,
      // InvalidReplicationFactorException (INVALID_REPLICATION_FACTOR), StripedReplicaPlacer's message
      en: `INVALID_REPLICATION_FACTOR: The target replication factor of ${rf} cannot be reached because only ${brokers} broker(s) are registered.`,
      ko: `INVALID_REPLICATION_FACTOR: 브로커가 ${brokers}개뿐이라 복제 계수 ${josa(String(rf), '을/를')} 맞출 수 없습니다.`,
    });
  if (t.replicas) {
    if (t.replicas.length !== partitions)
      out.push({
        path: `topics[${i}].replicas`,
        en: `must list one replica list per partition (${partitions})`,
        ko: `파티션마다 레플리카 목록을 하나씩 적어야 합니다(파티션 ${partitions}개)`,
      });
    t.replicas.forEach((list, p) => {
      const path = `topics[${i}].replicas[${p}]`;
      if (list.length !== rf)
        out.push({
          path,
          en: `INVALID_REPLICATION_FACTOR: every partition needs ${rf} replicas, not ${list.length}`,
          ko: `INVALID_REPLICATION_FACTOR: 파티션마다 레플리카가 ${rf}개여야 합니다(지금 ${list.length}개)`,
        });
      if (new Set(list).size !== list.length)
        out.push({
          path,
          en: 'a broker holds at most one replica of a partition',
          ko: '한 브로커는 한 파티션의 레플리카를 하나만 가집니다',
        });
      for (const b of list)
        if (b >= brokers)
          out.push({
            path,
            en: `broker ${b} does not exist (the cluster has ${brokers})`,
            ko: `브로커 ${josa(String(b), '은/는')} 없습니다(클러스터의 브로커는 ${brokers}개)`,
          });
      const leader = t.leaders?.[p];
      if (leader !== undefined && leader !== list[0])
        out.push({
          path: `topics[${i}].leaders[${p}]`,
          en: 'the leader must be the first replica of the partition',
          ko: '리더는 파티션의 첫 번째 레플리카여야 합니다',
        });
    });
  }
  return out;
}
