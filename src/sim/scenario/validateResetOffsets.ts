/**
 * The checks of an operator's offset reset (`resetOffsets`, coordinator/offsetReset.ts) that the
 * scenario alone can answer: the group is one of its consumers' (or a Streams application's), the
 * topic and partition exist, exactly one of --to-… or --shift-by is given, and the group coordinator
 * is the model's own (a replicated `__consumer_offsets` is not modelled for a reset).
 */
import type { ClusterConfig } from '../config/clusterConfig';
import type { ConsumerConfig } from '../config/consumerConfig';
import type { StreamsConfig } from '../config/streamsConfig';
import { josa } from '../narration/language';
import type { FaultSpec, Scenario } from './schema';

type ResetOffsetsSpec = Extract<FaultSpec, { type: 'resetOffsets' }>;
type Add = (path: string, message: string, ko: string) => void;

/** A scenario's clients and their resolved configurations: what its consumer groups are read from. */
export interface GroupSources {
  readonly clients: Scenario['clients'];
  readonly consumers: Readonly<Record<string, ConsumerConfig>>;
  readonly streams: Readonly<Record<string, StreamsConfig>>;
}

export interface ResetOffsetsContext extends GroupSources {
  readonly topics: Scenario['topics'];
  readonly cluster: ClusterConfig;
}

/**
 * Each consumer group of a scenario (a consumer's group.id, a Streams application's application.id)
 * and the topics its members read, groups and topics in name order: what an offset reset can name.
 */
export function consumerGroupTopics(src: GroupSources): { readonly group: string; readonly topics: readonly string[] }[] {
  const topicsOf = new Map<string, Set<string>>();
  const add = (group: string | null | undefined, topics: readonly string[]) => {
    if (!group) return;
    const set = topicsOf.get(group) ?? new Set<string>();
    for (const t of topics) set.add(t);
    topicsOf.set(group, set);
  };
  for (const c of src.clients) {
    if (c.type === 'consumer') add(src.consumers[c.id]?.['group.id'], c.topics);
    else if (c.type === 'streams') add(src.streams[c.id]?.['application.id'], [c.inputTopic]);
  }
  return [...topicsOf].sort(([a], [b]) => a.localeCompare(b)).map(([group, topics]) => ({ group, topics: [...topics].sort() }));
}

export function resetOffsetsErrors(f: ResetOffsetsSpec, path: string, ctx: ResetOffsetsContext, add: Add): void {
  const groups = consumerGroupTopics(ctx).map((g) => g.group);
  if (!groups.includes(f.group))
    add(
      `${path}.group`,
      `no consumer of this scenario is in group ${f.group}${groups.length ? ` (its groups: ${groups.join(', ')})` : ''}`,
      `이 시나리오에는 그룹 ${f.group}에 속한 컨슈머가 없습니다${groups.length ? `(그룹: ${groups.join(', ')})` : ''}`,
    );
  const topic = ctx.topics.find((t) => t.name === f.topic);
  if (!topic)
    add(`${path}.topic`, `topic ${f.topic} is not defined under topics`, `토픽 ${josa(f.topic, '이/가')} topics에 정의돼 있지 않습니다`);
  else if (f.partition !== undefined && f.partition >= (topic.partitions ?? 1))
    add(
      `${path}.partition`,
      `topic ${f.topic} has ${topic.partitions ?? 1} partition(s): there is no partition ${f.partition}`,
      `토픽 ${f.topic}의 파티션은 ${topic.partitions ?? 1}개입니다. 파티션 ${josa(String(f.partition), '은/는')} 없습니다`,
    );
  if ((f.to === undefined) === (f.shiftBy === undefined))
    add(
      path,
      'give either to ("earliest", "latest" or an offset) or shiftBy, as the tool takes one of --to-earliest, --to-latest, --to-offset and --shift-by',
      'to("earliest", "latest" 또는 offset)와 shiftBy 중 하나만 적으세요. 도구도 --to-earliest, --to-latest, --to-offset, --shift-by 중 하나를 받습니다',
    );
  if ((ctx.cluster['offsets.topic.replication.factor'] ?? 1) > 1)
    add(
      `${path}`,
      'an offset reset is modelled with the single group coordinator only: set offsets.topic.replication.factor to 1 (or leave it out)',
      'offset 리셋은 단일 그룹 코디네이터에서만 모델링됩니다. offsets.topic.replication.factor를 1로 두거나 생략하세요',
    );
}
