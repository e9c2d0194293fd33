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

/** TopicDescription.printDescription's line. */
function topicLine(d: TopicDescription): string {
  return `Topic: ${d.topic}\tPartitionCount: ${d.partitions.length}\tReplicationFactor: ${d.replicationFactor}\tConfigs: ${d.configs.join(',')}`;
}

/** PartitionDescription.printDescription's line. */
function partitionLine(topic: string, p: PartitionDescription): string {
  return `\tTopic: ${topic}\tPartition: ${p.partition}\tLeader: ${p.leader ?? 'none'}\tReplicas: ${p.replicas.join(',')}\tIsr: ${p.isr.join(',')}\tElr: \tLastKnownElr: `;
}

/** TopicDescription.printDescription, then PartitionDescription.printDescription for each partition. */
export function describeTopicText(r: DescribeTopicResult): string {
  if (r.kind === 'missing') return missingText(r.topic);
  const d = r.description;
  return [topicLine(d), ...d.partitions.map((p) => partitionLine(d.topic, p))].join('\n');
}

const missingText = (topic: string) => `Error while executing topic command : Topic '${topic}' does not exist as expected`;

/** TopicCommand's partition reports (`--under-replicated-partitions` …): each prints only the partitions it finds. */
export type TopicReport = 'under-replicated-partitions' | 'unavailable-partitions' | 'under-min-isr-partitions' | 'at-min-isr-partitions';

export const TOPIC_REPORTS: readonly TopicReport[] = [
  'under-replicated-partitions',
  'unavailable-partitions',
  'under-min-isr-partitions',
  'at-min-isr-partitions',
];

export interface DescribeTopicsOptions {
  /** `--topic`: a regular expression a name must match whole (TopicFilter.IncludeList); every topic when absent. */
  readonly topic?: string;
  /** `--exclude-internal`: leave out __consumer_offsets and __transaction_state. */
  readonly excludeInternal?: boolean;
  readonly reports?: readonly TopicReport[];
}

export type DescribeTopicsResult =
  | { readonly kind: 'missing'; readonly topic: string }
  | { readonly kind: 'invalid-pattern'; readonly topic: string }
  | {
      readonly kind: 'described';
      /** Each topic (in name order) with its line, when printed, and the partitions printed. */
      readonly topics: readonly {
        readonly description: TopicDescription;
        readonly printTopic: boolean;
        readonly partitions: readonly PartitionDescription[];
      }[];
    };

const INTERNAL_TOPICS: ReadonlySet<string> = new Set([CONSUMER_OFFSETS_TOPIC, TRANSACTION_STATE_TOPIC]);

/** The topic's min.insync.replicas (PartitionDescription.minIsrCount): its own, its creation config, the broker's, or 1. */
function minIsrOf(scenario: Pick<Scenario, 'topics' | 'cluster'>, topic: string): number {
  const own = internalTopicConfigs(scenario, topic) ?? scenario.topics.find((t) => t.name === topic)?.config ?? {};
  return Number(own['min.insync.replicas'] ?? scenario.cluster?.['min.insync.replicas'] ?? 1);
}

/**
 * The brokers `describeCluster` lists: the controller's registered, unfenced ones
 * (KRaftMetadataCache.getAliveBrokerNodes); a leader the controller does not register (every broker
 * in a cluster without a controller, the model's one-replica coordinators) while its process runs.
 */
function liveBrokers(view: SimView): ReadonlySet<string> {
  const registered =
    (view.actors.get(CONTROLLER_ID)?.context as { brokers?: Readonly<Record<string, { fenced: boolean }>> } | undefined)?.brokers ?? {};
  const live = new Set(Object.entries(registered).flatMap(([id, b]) => (b.fenced ? [] : [brokerId(id)])));
  for (const { head } of partitionHeads(view.actors))
    if (!(processOf(head.leader) in registered) && !view.processes.get(processOf(head.leader))?.down) live.add(brokerId(head.leader));
  return live;
}

/**
 * `kafka-topics.sh --describe [--topic <regex>] [--exclude-internal] [--under-replicated-partitions]
 * [--unavailable-partitions] [--under-min-isr-partitions] [--at-min-isr-partitions]` at the step
 * `view` shows (TopicCommand.describeTopic with DescribeOptions): the topics in name order; with a
 * report, no topic line (describeConfigs is off) and only the partitions some report finds —
 * under-replicated: fewer in the ISR than replicas; unavailable: no leader, or a leader not among the
 * live brokers; under min ISR: no leader, or an ISR smaller than min.insync.replicas; at min ISR: an
 * ISR exactly that size.
 */
export function describeTopicsAt(
  view: SimView,
  scenario: Pick<Scenario, 'topics' | 'cluster'>,
  options: DescribeTopicsOptions = {},
): DescribeTopicsResult {
  let include: RegExp | null = null;
  if (options.topic !== undefined) {
    try {
      include = new RegExp(`^(?:${options.topic})$`);
    } catch {
      return { kind: 'invalid-pattern', topic: options.topic };
    }
  }
  const names = [...new Set(partitionHeads(view.actors).map(({ head }) => head.topic))]
    // TopicFilter.IncludeList.isTopicAllowed: the pattern matches, and not an internal topic left out
    .filter((t) => (include === null || include.test(t)) && !(options.excludeInternal && INTERNAL_TOPICS.has(t)))
    .sort();
  // ensureTopicExists: a --topic that names nothing is an error
  if (options.topic !== undefined && names.length === 0) return { kind: 'missing', topic: options.topic };
  const reports = new Set(options.reports ?? []);
  const live = reports.has('unavailable-partitions') ? liveBrokers(view) : new Set<string>();
  const topics = names.flatMap((name) => {
    const r = describeTopicAt(view, scenario, name);
    if (r.kind !== 'described') return [];
    const d = r.description;
    const minIsr = minIsrOf(scenario, name);
    const found = (p: PartitionDescription): boolean =>
      (reports.has('under-replicated-partitions') && p.replicas.length - p.isr.length > 0) ||
      (reports.has('unavailable-partitions') && (p.leader === null || !live.has(p.leader))) ||
      (reports.has('under-min-isr-partitions') && (p.leader === null || p.isr.length < minIsr)) ||
      (reports.has('at-min-isr-partitions') && p.isr.length === minIsr);
    return [{ description: d, printTopic: reports.size === 0, partitions: reports.size === 0 ? d.partitions : d.partitions.filter(found) }];
  });
  return { kind: 'described', topics };
}

export function describeTopicsText(r: DescribeTopicsResult): string {
  if (r.kind === 'missing') return missingText(r.topic);
  if (r.kind === 'invalid-pattern') return `Error while executing topic command : Illegal regular expression '${r.topic}'`;
  return r.topics
    .flatMap((t) => [
      ...(t.printTopic ? [topicLine(t.description)] : []),
      ...t.partitions.map((p) => partitionLine(t.description.topic, p)),
    ])
    .join('\n');
}
