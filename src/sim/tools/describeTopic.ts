/**
 * What `kafka-topics.sh --describe --topic T` would print at a step (TopicCommand.describeTopic,
 * Kafka 4.0): a line for the topic — PartitionCount, ReplicationFactor (the first partition's replica
 * count) and Configs, the topic's configs that are not defaults (`ConfigEntry.isDefault()`: a value set
 * on the topic, or a broker's static value of a synonym such as min.insync.replicas) — then a line per
 * partition in partition order: Leader (`none` when the partition has none), Replicas in assignment
 * order (the preferred leader first), Isr, and the KIP-966 Elr and LastKnownElr (empty: eligible
 * leader replicas are off by default in 4.x and not modelled).
 *
 * The partitions are read from the KRaft controller's registrations, which every broker's metadata
 * cache follows (DescribeTopicPartitions is answered from one). In a cluster of one-replica topics the
 * model has no controller: each partition is its broker's, alone in its ISR.
 *
 * The internal topics carry the configs their coordinators create them with.
 *
 * Simplified: read at one instant from the controller's state (Kafka: the answering broker's cache,
 * which trails it by a metadata fetch); no TopicId column (the model gives topics no id; Kafka prints
 * the topic's UUID, and leaves the column out only for the zero UUID); Configs in name order.
 */
import { CONSUMER_OFFSETS_TOPIC, TRANSACTION_STATE_TOPIC } from '../cluster/metadata';
import { CONTROLLER_ID } from '../controller/controller.machine';
import { processOf } from '../kernel/faults';
import type { PartitionRegistration } from '../replication/election';
import type { Scenario } from '../scenario/schema';
import { partitionHeads } from '../trace/logView';
import type { SimView } from '../trace/trace';

/** The topic configs a broker-level (static) value also sets in the model's cluster config: its synonyms. */
const BROKER_SYNONYMS = ['min.insync.replicas'] as const;

export interface PartitionDescription {
  readonly partition: number;
  /** The broker id, or null: no leader ("none"). */
  readonly leader: string | null;
  readonly replicas: readonly string[];
  readonly isr: readonly string[];
}

export interface TopicDescription {
  readonly topic: string;
  readonly replicationFactor: number;
  /** name=value, the configs that are not defaults. */
  readonly configs: readonly string[];
  readonly partitions: readonly PartitionDescription[];
}

export type DescribeTopicResult =
  | { readonly kind: 'missing'; readonly topic: string }
  | { readonly kind: 'described'; readonly description: TopicDescription };

/** "broker-2" → "2". */
const brokerId = (actor: string) => processOf(actor).replace(/^broker-/, '');

/**
 * The internal topics' configs, set when they are created (TransactionStateManager.transactionTopicConfigs;
 * GroupCoordinatorService.groupMetadataTopicConfigs): transaction.state.log.min.isr (default 2) and the
 * segment sizes (transaction.state.log.segment.bytes, offsets.topic.segment.bytes: 104857600).
 */
function internalTopicConfigs(scenario: Pick<Scenario, 'cluster'>, topic: string): Record<string, unknown> | null {
  if (topic === TRANSACTION_STATE_TOPIC)
    return {
      'unclean.leader.election.enable': false,
      'compression.type': 'uncompressed',
      'cleanup.policy': 'compact',
      'min.insync.replicas': scenario.cluster?.['transaction.state.log.min.isr'] ?? 2,
      'segment.bytes': 104857600,
    };
  if (topic === CONSUMER_OFFSETS_TOPIC) return { 'cleanup.policy': 'compact', 'compression.type': 'producer', 'segment.bytes': 104857600 };
  return null;
}

/** The configs of `topic` whose source is not DEFAULT_CONFIG, as name=value in name order. */
export function nonDefaultConfigs(scenario: Pick<Scenario, 'topics' | 'cluster'>, topic: string): string[] {
  const own = internalTopicConfigs(scenario, topic) ?? scenario.topics.find((t) => t.name === topic)?.config ?? {};
  const entries = new Map<string, unknown>(Object.entries(own));
  for (const key of BROKER_SYNONYMS) {
    const value = scenario.cluster?.[key];
    if (value !== undefined && !entries.has(key)) entries.set(key, value);
  }
  return [...entries.keys()].sort().map((k) => `${k}=${String(entries.get(k))}`);
}

/** `kafka-topics.sh --describe --topic <topic>` at the step `view` shows. */
export function describeTopicAt(view: SimView, scenario: Pick<Scenario, 'topics' | 'cluster'>, topic: string): DescribeTopicResult {
  const registrations = (
    view.actors.get(CONTROLLER_ID)?.context as { partitions?: Readonly<Record<string, PartitionRegistration>> } | undefined
  )?.partitions;
  const heads = partitionHeads(view.actors).filter(({ head }) => head.topic === topic);
  if (heads.length === 0) return { kind: 'missing', topic };
  const partitions = heads
    .map(({ head }): PartitionDescription => {
      const reg = registrations?.[`${topic}-${head.partition}`];
      if (reg)
        return {
          partition: head.partition,
          leader: reg.leader === null ? null : brokerId(reg.leader),
          replicas: reg.replicas.map(brokerId),
          isr: reg.isr.map(brokerId),
        };
      const broker = brokerId(head.leader);
      return { partition: head.partition, leader: broker, replicas: [broker], isr: [broker] };
    })
    .sort((a, b) => a.partition - b.partition);
  return {
    kind: 'described',
    description: { topic, replicationFactor: partitions[0]?.replicas.length ?? 0, configs: nonDefaultConfigs(scenario, topic), partitions },
  };
}

/** TopicDescription.printDescription, then PartitionDescription.printDescription for each partition. */
export function describeTopicText(r: DescribeTopicResult): string {
  if (r.kind === 'missing') return `Error while executing topic command : Topic '${r.topic}' does not exist as expected`;
  const d = r.description;
  const head = `Topic: ${d.topic}\tPartitionCount: ${d.partitions.length}\tReplicationFactor: ${d.replicationFactor}\tConfigs: ${d.configs.join(',')}`;
  const rows = d.partitions.map(
    (p) =>
      `\tTopic: ${d.topic}\tPartition: ${p.partition}\tLeader: ${p.leader ?? 'none'}\tReplicas: ${p.replicas.join(',')}\tIsr: ${p.isr.join(',')}\tElr: \tLastKnownElr: `,
  );
  return [head, ...rows].join('\n');
}
