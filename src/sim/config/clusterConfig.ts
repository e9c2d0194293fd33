/**
 * Cluster (broker) settings a scenario may change. Kafka's names where Kafka has the setting; the
 * internal topics get a few partitions instead of Kafka's 50 so that they can be drawn.
 */
import { josa } from '../narration/language';
import { type ConfigKey, type ConfigProblem, type ConfigValue, kafkaProblem, parseConfigValue } from './configSpec';

/**
 * The brokers' own request.timeout.ms (KafkaConfig default 30000): how long a broker waits for the
 * answer to a request it sends — the leader's verification with the transaction coordinator
 * (AddPartitionsToTxnManager) and the coordinator's markers (TransactionMarkerChannelManager).
 */
export const BROKER_REQUEST_TIMEOUT_MS = 30000;

export const CLUSTER_CONFIG: readonly ConfigKey[] = [
  {
    name: 'brokers',
    type: 'int',
    default: 1,
    simulatorOnly: true,
    limit: { min: 1, max: 9, unit: 'brokers', unitKo: '개' },
    doc: 'Number of brokers; partitions are led round-robin.',
    simulation: 'a topic has one replica per partition unless it sets replicationFactor',
  },
  {
    name: 'min.insync.replicas',
    type: 'int',
    default: 1,
    min: 1,
    doc: "The brokers' default for topics that do not set min.insync.replicas: acks=all needs this many in-sync replicas.",
  },
  {
    name: 'replica.lag.time.max.ms',
    type: 'long',
    default: 30000,
    // ReplicationConfigs defines it without a validator; the simulator's ISR check needs at least 1 ms
    limit: { min: 1, unit: 'ms', unitKo: 'ms' },
    doc: 'A follower that has not caught up to the leader within this long leaves the ISR (checked every half of it).',
  },
  {
    name: 'replica.fetch.wait.max.ms',
    type: 'int',
    default: 500,
    // ReplicationConfigs defines it without a validator; a negative wait is not something the simulator runs
    limit: { min: 0, unit: 'ms', unitKo: 'ms' },
    doc: "How long a leader holds a follower's empty Fetch; must not exceed replica.lag.time.max.ms.",
  },
  {
    name: 'broker.heartbeat.interval.ms',
    type: 'int',
    default: 2000,
    // KRaftConfigs defines it without a validator (null)
    limit: { min: 1, unit: 'ms', unitKo: 'ms' },
    doc: 'How often a broker heartbeats to the KRaft controller.',
  },
  {
    name: 'broker.session.timeout.ms',
    type: 'int',
    default: 9000,
    // KRaftConfigs defines it without a validator (null)
    limit: { min: 1, unit: 'ms', unitKo: 'ms' },
    doc: 'The controller fences a broker it has not heard from for this long and moves its leaderships.',
  },
  {
    name: 'auto.leader.rebalance.enable',
    type: 'boolean',
    default: true,
    doc: "While a partition's leader is not its preferred replica (the first of its replicas), the controller checks every leader.imbalance.check.interval.seconds and moves the leadership back if the preferred replica is in the ISR, unfenced and not shutting down.",
  },
  {
    name: 'leader.imbalance.check.interval.seconds',
    type: 'long',
    default: 300,
    min: 1,
    doc: 'How long after a leader left its preferred replica the controller checks to move it back (auto.leader.rebalance.enable); while partitions stay imbalanced, it checks again every this many seconds.',
  },
  {
    name: 'transaction.version',
    type: 'enum',
    default: 2,
    // a feature level (kafka-features), not a ConfigDef key
    simulatorOnly: true,
    values: [1, 2],
    doc: 'Transaction protocol: 1 (AddPartitionsToTxn from the client) or 2 (KIP-890: the broker adds partitions, every EndTxn bumps the epoch). Kafka 4.x defaults to 2.',
  },
  {
    name: 'transaction.partition.verification.enable',
    type: 'boolean',
    default: true,
    doc: 'Before the first transactional write to a partition, the leader asks the coordinator whether the partition is in the transaction (KIP-890 part 1).',
  },
  {
    name: 'transaction.state.log.num.partitions',
    type: 'int',
    default: 3,
    // TransactionLogConfig: atLeast(1); the upper bound is the simulator's (the partitions are drawn)
    min: 1,
    limit: { max: 10, unit: 'partitions', unitKo: '개' },
    doc: 'Partitions of __transaction_state.',
    simulation: 'Kafka defaults to 50',
  },
  {
    name: 'transaction.state.log.replication.factor',
    type: 'int',
    default: 3,
    // TransactionLogConfig: Type SHORT, atLeast(1); the upper bound is the simulator's (9 brokers at most)
    javaType: 'SHORT',
    min: 1,
    limit: { max: 9, unit: 'replicas', unitKo: '개' },
    doc: 'Replicas of each __transaction_state partition; the transaction coordinator for a transactional.id is the leader of its partition.',
    simulation: 'unset: one replica and a fixed coordinator process; set: replicated over the brokers, the coordinator on the leader',
  },
  {
    name: 'transaction.state.log.min.isr',
    type: 'int',
    default: 2,
    // TransactionLogConfig: atLeast(1); the upper bound is the simulator's
    min: 1,
    limit: { max: 9, unit: 'replicas', unitKo: '개' },
    doc: "min.insync.replicas of __transaction_state: the coordinator's writes (acks=-1) need this many in-sync replicas.",
    simulation: 'used only when transaction.state.log.replication.factor is set',
  },
  {
    name: 'offsets.topic.num.partitions',
    type: 'int',
    default: 3,
    // GroupCoordinatorConfig: atLeast(1); the upper bound is the simulator's (the partitions are drawn)
    min: 1,
    limit: { max: 10, unit: 'partitions', unitKo: '개' },
    doc: 'Partitions of __consumer_offsets.',
    simulation: 'Kafka defaults to 50',
  },
  {
    name: 'offsets.topic.replication.factor',
    type: 'int',
    default: 3,
    // GroupCoordinatorConfig: Type SHORT, atLeast(1); the upper bound is the simulator's
    javaType: 'SHORT',
    min: 1,
    limit: { max: 9, unit: 'replicas', unitKo: '개' },
    doc: "Replicas of each __consumer_offsets partition; a group's coordinator is the leader of its partition. The topic has no min ISR of its own: the brokers' min.insync.replicas applies.",
    simulation: 'unset: one replica and a fixed coordinator process; set: replicated over the brokers, the coordinator on the leader',
  },
  {
    name: 'transaction.abort.timed.out.transaction.cleanup.interval.ms',
    type: 'int',
    default: 10000,
    min: 1,
    doc: 'How often the coordinator looks for transactions past transaction.timeout.ms.',
  },
  {
    name: 'transaction.max.timeout.ms',
    type: 'int',
    default: 900000,
    min: 1,
    doc: 'Largest transaction.timeout.ms a producer may ask for.',
  },
  {
    name: 'transactional.id.expiration.ms',
    type: 'int',
    default: 604800000,
    min: 1,
    doc: "How long the transaction coordinator keeps a transactional.id with no transaction open (Empty, CompleteCommit, CompleteAbort) after its last update: then it writes a tombstone to __transaction_state and forgets the id. The producer's next AddPartitionsToTxn, AddOffsetsToTxn, EndTxn or verified Produce is refused INVALID_PRODUCER_ID_MAPPING, a fatal error in Kafka 4.x: that producer can only be closed, and a new one's InitProducerId gets a new producer id.",
  },
  {
    name: 'transaction.remove.expired.transaction.cleanup.interval.ms',
    type: 'int',
    default: 3600000,
    min: 1,
    doc: 'How often the coordinator looks for transactional ids past transactional.id.expiration.ms.',
  },
  {
    name: 'producer.id.expiration.ms',
    type: 'int',
    default: 86400000,
    min: 1,
    doc: "How long a partition remembers an idle producer: a producer with no transaction open whose last batch's timestamp is this old is dropped from the partition's producer state, its epoch and sequences with it. A retry that arrives after that is appended again. Kafka's advice: no lower than the producers' delivery.timeout.ms.",
  },
  {
    name: 'producer.id.expiration.check.interval.ms',
    type: 'int',
    default: 600000,
    min: 1,
    doc: 'How often each partition looks for producers past producer.id.expiration.ms (an internal Kafka setting).',
  },
  {
    name: 'group.initial.rebalance.delay.ms',
    type: 'int',
    default: 3000,
    // GroupCoordinatorConfig defines it without a validator; a negative delay is not something the simulator runs
    limit: { min: 0, unit: 'ms', unitKo: 'ms' },
    doc: 'A new group waits this long for more members before the first rebalance.',
  },
];

/** Keys whose absence keeps today's one-replica internal topics (the scenario must set them to replicate them). */
const UNSET_MEANS_ONE_REPLICA = [
  'transaction.state.log.replication.factor',
  'transaction.state.log.min.isr',
  'offsets.topic.replication.factor',
] as const;

/**
 * The checks of the internal topics' settings against the cluster: Kafka creates the topic only
 * when enough brokers are alive (INVALID_REPLICATION_FACTOR, StripedReplicaPlacer's message), and a
 * min ISR above the replication factor would refuse every coordinator write (NOT_ENOUGH_REPLICAS).
 */
export function transactionStateLogProblems(c: Readonly<Record<string, ConfigValue>>): ConfigProblem[] {
  const rf = c['transaction.state.log.replication.factor'];
  const minIsr = c['transaction.state.log.min.isr'];
  const brokers = c.brokers as number;
  const out: ConfigProblem[] = [];
  if (typeof rf === 'number' && rf > brokers)
    out.push({
      key: 'transaction.state.log.replication.factor',
      message: `INVALID_REPLICATION_FACTOR: The target replication factor of ${rf} cannot be reached because only ${brokers} broker(s) are registered.`,
      ko: `__transaction_state의 복제 계수 ${rf}에 비해 브로커가 ${brokers}개뿐이라 토픽을 만들 수 없습니다.`,
      quote: `INVALID_REPLICATION_FACTOR: The target replication factor of ${rf} cannot be reached because only ${brokers} broker(s) are registered.`,
    });
  if (typeof minIsr === 'number' && minIsr > (typeof rf === 'number' ? rf : 1))
    out.push({
      key: 'transaction.state.log.min.isr',
      ko: `__transaction_state의 복제본 수보다 큰 transaction.state.log.min.isr(${minIsr}) 때문에 트랜잭션 코디네이터의 모든 쓰기가 NOT_ENOUGH_REPLICAS로 실패합니다.`,
      message: `transaction.state.log.min.isr=${minIsr} is more than the ${typeof rf === 'number' ? `transaction.state.log.replication.factor of ${rf}` : 'one replica __transaction_state has when transaction.state.log.replication.factor is not set'}: every write of the transaction coordinator would fail with NOT_ENOUGH_REPLICAS.`,
    });
  const offsetsRf = c['offsets.topic.replication.factor'];
  if (typeof offsetsRf === 'number' && offsetsRf > brokers)
    out.push({
      key: 'offsets.topic.replication.factor',
      message: `INVALID_REPLICATION_FACTOR: The target replication factor of ${offsetsRf} cannot be reached because only ${brokers} broker(s) are registered.`,
      ko: `__consumer_offsets의 복제 계수 ${offsetsRf}에 비해 브로커가 ${brokers}개뿐이라 토픽을 만들 수 없습니다.`,
      quote: `INVALID_REPLICATION_FACTOR: The target replication factor of ${offsetsRf} cannot be reached because only ${brokers} broker(s) are registered.`,
    });
  return out;
}

export interface ClusterConfig {
  readonly brokers: number;
  readonly 'transaction.version': 1 | 2;
  readonly 'transaction.partition.verification.enable': boolean;
  readonly 'transaction.state.log.num.partitions': number;
  readonly 'offsets.topic.num.partitions': number;
  /** null when the scenario does not set it: one replica and the fixed coordinator process (docs/kafka-model.md). */
  readonly 'transaction.state.log.replication.factor': number | null;
  readonly 'transaction.state.log.min.isr': number | null;
  /** null when the scenario does not set it: one replica and the fixed group coordinator process. */
  readonly 'offsets.topic.replication.factor': number | null;
  readonly 'transaction.abort.timed.out.transaction.cleanup.interval.ms': number;
  readonly 'transaction.max.timeout.ms': number;
  readonly 'transactional.id.expiration.ms': number;
  readonly 'transaction.remove.expired.transaction.cleanup.interval.ms': number;
  readonly 'group.initial.rebalance.delay.ms': number;
  readonly 'producer.id.expiration.ms': number;
  readonly 'producer.id.expiration.check.interval.ms': number;
  readonly 'min.insync.replicas': number;
  readonly 'replica.lag.time.max.ms': number;
  readonly 'replica.fetch.wait.max.ms': number;
  readonly 'broker.heartbeat.interval.ms': number;
  readonly 'broker.session.timeout.ms': number;
  readonly 'auto.leader.rebalance.enable': boolean;
  readonly 'leader.imbalance.check.interval.seconds': number;
}

export function resolveClusterConfig(user: Readonly<Record<string, ConfigValue>>): { config: ClusterConfig; errors: ConfigProblem[] } {
  const errors: ConfigProblem[] = [];
  const out: Record<string, ConfigValue> = {};
  for (const spec of CLUSTER_CONFIG) {
    const given = Object.hasOwn(user, spec.name);
    const v = given ? (user[spec.name] as ConfigValue) : spec.default;
    // the brokers read their settings as text (server.properties): a number is its text; transaction.version may be 2 or "2"
    const parsed = given ? parseConfigValue(spec, v, 'properties') : ({ ok: true, value: v } as const);
    if (!parsed.ok) errors.push(parsed.problem);
    out[spec.name] = parsed.ok ? parsed.value : spec.default;
  }
  // unset, __transaction_state keeps the simulator's one replica (not Kafka's default of 3)
  for (const key of UNSET_MEANS_ONE_REPLICA) if (!Object.hasOwn(user, key)) out[key] = null;
  errors.push(...transactionStateLogProblems(out));
  // KafkaConfig: "replica.fetch.wait.max.ms should always be less than or equal to replica.lag.time.max.ms"
  if ((out['replica.fetch.wait.max.ms'] as number) > (out['replica.lag.time.max.ms'] as number))
    // KafkaConfig.validateValues: Scala's require, so an IllegalArgumentException whose text starts "requirement failed: "
    errors.push(
      kafkaProblem(
        'replica.fetch.wait.max.ms',
        'IllegalArgumentException: requirement failed: replica.fetch.wait.max.ms should always be less than or equal to replica.lag.time.max.ms to prevent frequent changes in ISR',
        'replica.fetch.wait.max.ms는 replica.lag.time.max.ms 이하여야 합니다. 브로커가 시작하지 않습니다.',
      ),
    );
  for (const key of Object.keys(user))
    if (!CLUSTER_CONFIG.some((k) => k.name === key))
      errors.push({
        key,
        message: `${key} is not a cluster setting the simulator knows`,
        ko: `이 시뮬레이터는 클러스터 설정 ${josa(key, '을/를')} 알지 못합니다.`,
      });
  return { config: out as unknown as ClusterConfig, errors };
}
