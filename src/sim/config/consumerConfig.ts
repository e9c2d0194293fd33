/** Consumer configuration: Kafka 4.x defaults (ConsumerConfig) for the keys the simulator models. */
import {
  type ConfigKey,
  type ConfigProblem,
  type ConfigValue,
  kafkaProblem,
  METADATA_MAX_AGE_MS,
  parseConfigValue,
  RECONNECT_BACKOFF_MAX_MS,
  RECONNECT_BACKOFF_MS,
  reconnectBackoffMax,
  unknownKey,
} from './configSpec';

export const CONSUMER_CONFIG: readonly ConfigKey[] = [
  {
    name: 'group.id',
    type: 'nullable-string',
    default: null,
    doc: 'The consumer group; without one the consumer reads assigned partitions and cannot commit.',
  },
  {
    name: 'group.instance.id',
    type: 'nullable-string',
    default: null,
    // ConsumerConfig: new ConfigDef.NonEmptyString()
    nonEmpty: true,
    doc: 'Makes the consumer a static member (KIP-345). A restart within session.timeout.ms rejoins under the same id without a rebalance and gets the old partitions back — but reads from the committed offsets, so records processed and not committed are processed again. close() sends no LeaveGroup: the member stays until session.timeout.ms passes. Two live consumers with the same id: the newer one takes over, and the older one is fenced (FENCED_INSTANCE_ID) and fails.',
    simulation: 'plain consumers only; a Kafka Streams client refuses it',
  },
  {
    name: 'isolation.level',
    type: 'enum',
    default: 'read_uncommitted',
    // ConsumerConfig: in(IsolationLevel.READ_COMMITTED.toString(), IsolationLevel.READ_UNCOMMITTED.toString())
    values: ['read_committed', 'read_uncommitted'],
    doc: 'read_committed reads up to the Last Stable Offset and skips aborted transactions.',
  },
  {
    name: 'enable.auto.commit',
    type: 'boolean',
    default: true,
    doc: 'Commit the consumed positions from poll() every auto.commit.interval.ms.',
  },
  { name: 'auto.commit.interval.ms', type: 'int', default: 5000, min: 0, doc: 'How often poll() auto-commits.' },
  {
    name: 'auto.offset.reset',
    type: 'enum',
    default: 'latest',
    // ConsumerConfig: in(Utils.enumOptions(OffsetResetStrategy.class)): LATEST, EARLIEST, NONE in declaration order
    values: ['latest', 'earliest', 'none'],
    doc: 'Where to start when the group has no committed offset (or the position is out of range). none: poll() throws NoOffsetForPartitionException (OffsetOutOfRangeException) instead.',
  },
  {
    name: 'session.timeout.ms',
    type: 'int',
    default: 45000,
    // ConsumerConfig defines it without a validator: the brokers refuse it at JoinGroup (INVALID_SESSION_TIMEOUT)
    doc: 'A member that sends no heartbeat for this long is removed and the group rebalances. The brokers accept 6000–1800000 (group.min.session.timeout.ms, group.max.session.timeout.ms): outside it JoinGroup fails with INVALID_SESSION_TIMEOUT and poll() throws.',
  },
  {
    name: 'heartbeat.interval.ms',
    type: 'int',
    default: 3000,
    // ConsumerConfig defines it without a validator; the simulator's timers need at least 1 ms
    limit: { min: 1, unit: 'ms', unitKo: 'ms' },
    doc: 'How often the member heartbeats to the group coordinator. After a failed heartbeat (lost, or the coordinator unavailable) the next one goes out after retry.backoff.ms instead, doubling to retry.backoff.max.ms.',
  },
  { name: 'max.poll.records', type: 'int', default: 500, min: 1, doc: 'Upper bound on the records one poll() returns.' },
  {
    name: 'max.poll.interval.ms',
    type: 'int',
    default: 300000,
    min: 1,
    doc: 'The longest time between calls to poll(): a member that does not poll again within it leaves the group (its next commitSync throws CommitFailedException, its next poll() rejoins). Also the rebalance timeout: how long the group waits for this member to rejoin or sync, and how long it may commit before rejoining.',
    simulation: 'timed from when poll() returns; the member leaves at the expiry, not at the heartbeat thread’s next wake-up',
  },
  { name: 'fetch.max.wait.ms', type: 'int', default: 500, min: 0, doc: 'How long the broker holds a fetch that has no data.' },
  { name: 'request.timeout.ms', type: 'int', default: 30000, min: 0, doc: 'How long the client waits for a response.' },
  { name: 'retry.backoff.ms', type: 'long', default: 100, min: 0, doc: 'Wait before retrying a failed request.' },
  {
    name: 'retry.backoff.max.ms',
    type: 'long',
    default: 1000,
    min: 0,
    doc: 'Upper bound on the wait between retries of a commit, an OffsetFetch or a failed heartbeat; the wait doubles from retry.backoff.ms.',
    simulation: 'no jitter',
  },
  RECONNECT_BACKOFF_MS,
  RECONNECT_BACKOFF_MAX_MS,
  METADATA_MAX_AGE_MS,
];

export interface ConsumerConfig {
  readonly 'group.id': string | null;
  readonly 'group.instance.id': string | null;
  readonly 'isolation.level': 'read_uncommitted' | 'read_committed';
  readonly 'enable.auto.commit': boolean;
  readonly 'auto.commit.interval.ms': number;
  readonly 'auto.offset.reset': 'earliest' | 'latest' | 'none';
  readonly 'session.timeout.ms': number;
  readonly 'heartbeat.interval.ms': number;
  readonly 'max.poll.records': number;
  readonly 'max.poll.interval.ms': number;
  readonly 'fetch.max.wait.ms': number;
  readonly 'request.timeout.ms': number;
  readonly 'retry.backoff.ms': number;
  readonly 'retry.backoff.max.ms': number;
  readonly 'reconnect.backoff.ms': number;
  readonly 'reconnect.backoff.max.ms': number;
  readonly 'metadata.max.age.ms': number;
}

export function resolveConsumerConfig(user: Readonly<Record<string, ConfigValue>>): { config: ConsumerConfig; errors: ConfigProblem[] } {
  const errors: ConfigProblem[] = [];
  const out: Record<string, ConfigValue> = {};
  for (const spec of CONSUMER_CONFIG) {
    if (!Object.hasOwn(user, spec.name)) {
      out[spec.name] = spec.default;
      continue;
    }
    const v = user[spec.name] as ConfigValue;
    const parsed = parseConfigValue(spec, v);
    if (!parsed.ok) errors.push(parsed.problem);
    out[spec.name] = parsed.ok ? parsed.value : spec.default;
  }
  for (const key of Object.keys(user)) if (!CONSUMER_CONFIG.some((k) => k.name === key)) errors.push(unknownKey(key, 'consumer', '컨슈머'));
  // CommonClientConfigs.postProcessReconnectBackoffConfigs (Kafka logs a WARN)
  out['reconnect.backoff.max.ms'] = reconnectBackoffMax(
    user,
    out['reconnect.backoff.ms'] as number,
    out['reconnect.backoff.max.ms'] as number,
  ).max;
  if ((out['heartbeat.interval.ms'] as number) >= (out['session.timeout.ms'] as number))
    // Heartbeat's constructor (consumer/internals/Heartbeat.java): an IllegalArgumentException, not a ConfigException
    errors.push(
      kafkaProblem(
        'heartbeat.interval.ms',
        'IllegalArgumentException: Heartbeat must be set lower than the session timeout',
        'heartbeat.interval.ms는 session.timeout.ms보다 작아야 합니다.',
      ),
    );
  return { config: out as unknown as ConsumerConfig, errors };
}
