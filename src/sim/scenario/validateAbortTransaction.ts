/**
 * The checks of an operator's transaction abort (`abortTransaction`, broker/operatorAbort.ts) that
 * the scenario alone can answer: the topic and the partition exist (startOffset ≥ 0 is the schema's).
 * Whether a transaction starts at that offset is the run's to show (the tool's own error).
 */
import { josa } from '../narration/language';
import type { FaultSpec, Scenario } from './schema';

type AbortTransactionSpec = Extract<FaultSpec, { type: 'abortTransaction' }>;
type Add = (path: string, message: string, ko: string) => void;

export function abortTransactionErrors(f: AbortTransactionSpec, path: string, topics: Scenario['topics'], add: Add): void {
  const topic = topics.find((t) => t.name === f.topic);
  if (!topic) {
    add(`${path}.topic`, `topic ${f.topic} is not defined under topics`, `토픽 ${josa(f.topic, '이/가')} topics에 정의돼 있지 않습니다`);
    return;
  }
  if (f.partition >= (topic.partitions ?? 1))
    add(
      `${path}.partition`,
      `topic ${f.topic} has ${topic.partitions ?? 1} partition(s): there is no partition ${f.partition}`,
      `토픽 ${f.topic}의 파티션은 ${topic.partitions ?? 1}개입니다. 파티션 ${josa(String(f.partition), '은/는')} 없습니다`,
    );
}
