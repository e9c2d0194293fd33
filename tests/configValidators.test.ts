/**
 * Configuration errors in Kafka's own words. Each expected string is built from the Java source of
 * the apache/kafka snapshot (trunk, October 2024):
 * - clients/src/main/java/org/apache/kafka/common/config/ConfigException.java: the constructor
 *   "Invalid value " + value + " for configuration " + name + (message == null ? "" : ": " + message)
 * - clients/src/main/java/org/apache/kafka/common/config/ConfigDef.java: parseType, Range.ensureValid,
 *   ValidString.ensureValid, ValidList.ensureValid, NonEmptyString.ensureValid
 * - clients/src/main/java/org/apache/kafka/clients/producer/ProducerConfig.java:
 *   postProcessAndValidateIdempotenceConfigs; KafkaProducer.java: configureDeliveryTimeout
 * - clients/src/main/java/org/apache/kafka/clients/consumer/internals/Heartbeat.java (its constructor)
 * - core/src/main/scala/kafka/server/KafkaConfig.scala: validateValues' require
 * and each key's definition in ProducerConfig, ConsumerConfig, StreamsConfig, LogConfig,
 * TransactionLogConfig, GroupCoordinatorConfig, ReplicationConfigs and KRaftConfigs.
 * Where the bound is the simulator's own, the message says so and quotes nothing.
 */
import { describe, expect, it } from 'vitest';
import { CLUSTER_CONFIG, resolveClusterConfig } from '../src/sim/config/clusterConfig';
import { type ConfigKey, type ConfigSource, checkConfigValue, parseConfigValue } from '../src/sim/config/configSpec';
import { CONSUMER_CONFIG, resolveConsumerConfig } from '../src/sim/config/consumerConfig';
import { PRODUCER_CONFIG, resolveProducerConfig } from '../src/sim/config/producerConfig';
import { resolveStreamsConfig, STREAMS_CONFIG } from '../src/sim/config/streamsConfig';
import { resolveTopicConfig, TOPIC_CONFIG } from '../src/sim/config/topicConfig';

const key = (table: readonly ConfigKey[], name: string): ConfigKey => {
  const k = table.find((x) => x.name === name);
  if (!k) throw new Error(name);
  return k;
};
/** ConfigException(name, value, message).getMessage(), as the simulator labels it. */
const invalid = (value: string, name: string, message: string) =>
  `ConfigException: Invalid value ${value} for configuration ${name}: ${message}`;
const problem = (spec: ConfigKey, value: unknown, from: ConfigSource = 'map') => {
  const r = parseConfigValue(spec, value, from);
  if (r.ok) throw new Error(`${spec.name}=${JSON.stringify(value)} was accepted`);
  return r.problem;
};

describe('ConfigDef.Range (atLeast, between)', () => {
  it('refuses below atLeast with "Value must be at least", and quotes it in Korean', () => {
    // ProducerConfig: define(RETRIES_CONFIG, Type.INT, Integer.MAX_VALUE, between(0, Integer.MAX_VALUE), …)
    const p = problem(key(PRODUCER_CONFIG, 'retries'), -5);
    expect(p.message).toBe(invalid('-5', 'retries', 'Value must be at least 0'));
    expect(p.quote).toBe(p.message);
    expect(p.ko).toBe('retries의 값이 Kafka가 받는 최솟값 0보다 작습니다.');
    // ConsumerConfig: define(MAX_POLL_RECORDS_CONFIG, Type.INT, …, atLeast(1), …)
    expect(checkConfigValue(key(CONSUMER_CONFIG, 'max.poll.records'), 0)).toBe(
      invalid('0', 'max.poll.records', 'Value must be at least 1'),
    );
    // LogConfig: define(SEGMENT_BYTES_CONFIG, INT, …, atLeast(LegacyRecord.RECORD_OVERHEAD_V0), …): 14
    expect(checkConfigValue(key(TOPIC_CONFIG, 'segment.bytes'), 13, 'properties')).toBe(
      invalid('13', 'segment.bytes', 'Value must be at least 14'),
    );
  });
  it('refuses null with "Value must be non-null"', () => {
    expect(checkConfigValue(key(PRODUCER_CONFIG, 'linger.ms'), null)).toBe(invalid('null', 'linger.ms', 'Value must be non-null'));
  });
  it('keys Kafka defines without a validator take any value of their type', () => {
    // ProducerConfig: define(TRANSACTION_TIMEOUT_CONFIG, Type.INT, 60000, Importance.LOW, …): the coordinator checks it
    expect(parseConfigValue(key(PRODUCER_CONFIG, 'transaction.timeout.ms'), -1)).toEqual({ ok: true, value: -1 });
    // ConsumerConfig: define(SESSION_TIMEOUT_MS_CONFIG, Type.INT, 45000, Importance.HIGH, …): the brokers check it
    expect(parseConfigValue(key(CONSUMER_CONFIG, 'session.timeout.ms'), 0)).toEqual({ ok: true, value: 0 });
    expect(key(CONSUMER_CONFIG, 'session.timeout.ms').min).toBeUndefined();
  });
});

describe('ConfigDef.ValidString and ValidList', () => {
  it('ValidString.in lists the values in the order Kafka defines them', () => {
    // ProducerConfig: in("all", "-1", "0", "1")
    expect(checkConfigValue(key(PRODUCER_CONFIG, 'acks'), 'two')).toBe(invalid('two', 'acks', 'String must be one of: all, -1, 0, 1'));
    // ConsumerConfig: in(IsolationLevel.READ_COMMITTED.toString(), IsolationLevel.READ_UNCOMMITTED.toString()); case matters
    expect(checkConfigValue(key(CONSUMER_CONFIG, 'isolation.level'), 'READ_COMMITTED')).toBe(
      invalid('READ_COMMITTED', 'isolation.level', 'String must be one of: read_committed, read_uncommitted'),
    );
    // ConsumerConfig: in(Utils.enumOptions(OffsetResetStrategy.class)): LATEST, EARLIEST, NONE
    expect(checkConfigValue(key(CONSUMER_CONFIG, 'auto.offset.reset'), 'smallest')).toBe(
      invalid('smallest', 'auto.offset.reset', 'String must be one of: latest, earliest, none'),
    );
    // StreamsConfig: in(AT_LEAST_ONCE, EXACTLY_ONCE_V2)
    expect(checkConfigValue(key(STREAMS_CONFIG, 'processing.guarantee'), 'exactly_once')).toBe(
      invalid('exactly_once', 'processing.guarantee', 'String must be one of: at_least_once, exactly_once_v2'),
    );
  });
  it('parseType trims a STRING before the validator sees it', () => {
    expect(parseConfigValue(key(CONSUMER_CONFIG, 'isolation.level'), ' read_committed ')).toEqual({ ok: true, value: 'read_committed' });
  });
  it('ValidList.in checks each item of cleanup.policy, a LIST, and names the item', () => {
    // LogConfig: define(CLEANUP_POLICY_CONFIG, LIST, "delete", ValidList.in("compact", "delete"), …)
    const spec = key(TOPIC_CONFIG, 'cleanup.policy');
    expect(checkConfigValue(spec, 'compact,remove', 'properties')).toBe(
      invalid('remove', 'cleanup.policy', 'String must be one of: compact, delete'),
    );
    // both orders, with or without spaces, are Kafka's compact,delete
    expect(resolveTopicConfig({ 'cleanup.policy': 'delete, compact' })).toEqual({
      config: expect.objectContaining({ 'cleanup.policy': 'compact,delete' }),
      errors: [],
    });
    // an empty list passes ValidList; the simulator does not run a topic that is neither compacted nor deleted
    const empty = resolveTopicConfig({ 'cleanup.policy': '' }).errors;
    expect(empty).toHaveLength(1);
    expect(empty[0]?.message).toContain('This is the simulator’s limit, not Kafka’s.');
    expect(empty[0]?.quote).toBeUndefined();
  });
});

describe('ConfigDef.NonEmptyString', () => {
  it('refuses "" for transactional.id and group.instance.id (after trimming)', () => {
    expect(checkConfigValue(key(PRODUCER_CONFIG, 'transactional.id'), '')).toBe(
      invalid('', 'transactional.id', 'String must be non-empty'),
    );
    expect(checkConfigValue(key(CONSUMER_CONFIG, 'group.instance.id'), '  ')).toBe(
      invalid('', 'group.instance.id', 'String must be non-empty'),
    );
    // group.id has no validator in ConsumerConfig: refusing "" is the simulator's own rule, and says so
    const g = problem(key(CONSUMER_CONFIG, 'group.id'), '');
    expect(g.message).toBe('group.id cannot be an empty string in this simulator: leave the key out (or write null) for none');
    expect(g.quote).toBeUndefined();
  });
});

describe('ConfigDef.parseType for each JSON value (the JSON-to-Java mapping is the simulator’s)', () => {
  it('INT takes an Integer or text Integer.parseInt reads; anything else names its Java class', () => {
    const retries = key(PRODUCER_CONFIG, 'retries');
    expect(parseConfigValue(retries, ' 7 ')).toEqual({ ok: true, value: 7 });
    expect(checkConfigValue(retries, 'many')).toBe(invalid('many', 'retries', 'Not a number of type INT'));
    expect(checkConfigValue(retries, 1.5)).toBe(
      invalid('1.5', 'retries', 'Expected value to be a 32-bit integer, but it was a java.lang.Double'),
    );
    expect(checkConfigValue(retries, 2147483648)).toBe(
      invalid('2147483648', 'retries', 'Expected value to be a 32-bit integer, but it was a java.lang.Long'),
    );
    expect(checkConfigValue(retries, true)).toBe(
      invalid('true', 'retries', 'Expected value to be a 32-bit integer, but it was a java.lang.Boolean'),
    );
    expect(checkConfigValue(retries, [1, 'a'])).toBe(
      invalid('[1, a]', 'retries', 'Expected value to be a 32-bit integer, but it was a java.util.ArrayList'),
    );
    expect(checkConfigValue(retries, { a: 1 })).toBe(
      invalid('{a=1}', 'retries', 'Expected value to be a 32-bit integer, but it was a java.util.LinkedHashMap'),
    );
  });
  it('LONG takes an Integer or a Long; a Double prints as Java prints it', () => {
    const linger = key(PRODUCER_CONFIG, 'linger.ms');
    expect(parseConfigValue(linger, 4294967296)).toEqual({ ok: true, value: 4294967296 });
    expect(checkConfigValue(linger, 1e-7)).toBe(
      invalid('1.0E-7', 'linger.ms', 'Expected value to be a 64-bit integer (long), but it was a java.lang.Double'),
    );
    expect(checkConfigValue(linger, 2 ** 64)).toBe(
      invalid('18446744073709551616', 'linger.ms', 'Expected value to be a 64-bit integer (long), but it was a java.math.BigInteger'),
    );
  });
  it('BOOLEAN takes a Boolean or text true/false in any case; STRING takes only a String', () => {
    const idem = key(PRODUCER_CONFIG, 'enable.idempotence');
    expect(parseConfigValue(idem, ' TRUE ')).toEqual({ ok: true, value: true });
    expect(checkConfigValue(idem, 'yes')).toBe(invalid('yes', 'enable.idempotence', 'Expected value to be either true or false'));
    expect(checkConfigValue(idem, 1)).toBe(invalid('1', 'enable.idempotence', 'Expected value to be either true or false'));
    expect(checkConfigValue(key(CONSUMER_CONFIG, 'isolation.level'), 1)).toBe(
      invalid('1', 'isolation.level', 'Expected value to be a string, but it was a java.lang.Integer'),
    );
  });
  it('a broker or topic setting is text, as in server.properties: a number is parsed from its text', () => {
    // TransactionLogConfig / GroupCoordinatorConfig: the replication factors are SHORT
    const rf = key(CLUSTER_CONFIG, 'offsets.topic.replication.factor');
    expect(parseConfigValue(rf, 3, 'properties')).toEqual({ ok: true, value: 3 });
    expect(checkConfigValue(rf, 40000, 'properties')).toBe(
      invalid('40000', 'offsets.topic.replication.factor', 'Not a number of type SHORT'),
    );
    expect(checkConfigValue(key(TOPIC_CONFIG, 'segment.bytes'), 1.5, 'properties')).toBe(
      invalid('1.5', 'segment.bytes', 'Not a number of type INT'),
    );
    expect(parseConfigValue(key(CLUSTER_CONFIG, 'auto.leader.rebalance.enable'), 'FALSE', 'properties')).toEqual({
      ok: true,
      value: false,
    });
  });
});

describe('the simulator’s own limits say so', () => {
  it('a bound Kafka does not check names the simulator and quotes nothing', () => {
    const brokers = problem(key(CLUSTER_CONFIG, 'brokers'), 12, 'properties');
    expect(brokers.message).toBe(
      'brokers=12 is more than this simulator runs (at most 9 brokers). This is the simulator’s limit, not Kafka’s.',
    );
    expect(brokers.ko).toBe('이 시뮬레이터는 brokers에 9개 이하만 실행합니다. 이 제한은 Kafka가 아니라 이 시뮬레이터의 것입니다.');
    expect(brokers.quote).toBeUndefined();
    // TransactionLogConfig: atLeast(1) is Kafka's; the upper bound of 10 is the simulator's
    const parts = key(CLUSTER_CONFIG, 'transaction.state.log.num.partitions');
    expect(checkConfigValue(parts, 0, 'properties')).toBe(invalid('0', 'transaction.state.log.num.partitions', 'Value must be at least 1'));
    expect(checkConfigValue(parts, 50, 'properties')).toBe(
      'transaction.state.log.num.partitions=50 is more than this simulator runs (at most 10 partitions). This is the simulator’s limit, not Kafka’s.',
    );
    // ConsumerConfig has no validator on heartbeat.interval.ms; the simulator's timers need 1 ms
    expect(checkConfigValue(key(CONSUMER_CONFIG, 'heartbeat.interval.ms'), 0)).toBe(
      'heartbeat.interval.ms=0 is less than this simulator runs (at least 1 ms). This is the simulator’s limit, not Kafka’s.',
    );
  });
  it('a LONG past 2^53 − 1 is the simulator’s limit (Kafka’s LONG holds it)', () => {
    expect(checkConfigValue(key(PRODUCER_CONFIG, 'linger.ms'), 2 ** 53)).toBe(
      'linger.ms=9007199254740992 is more than this simulator holds exactly (at most 9007199254740991 either way, JavaScript’s largest exact whole number; Kafka’s LONG goes to 9223372036854775807). This is the simulator’s limit, not Kafka’s.',
    );
  });
  it('statestore.cache.max.bytes: Kafka takes any value ≥ 0, the simulator only 0', () => {
    expect(resolveStreamsConfig('app', { 'statestore.cache.max.bytes': -1 }).errors[0]?.message).toBe(
      invalid('-1', 'statestore.cache.max.bytes', 'Value must be at least 0'),
    );
    const e = resolveStreamsConfig('app', { 'statestore.cache.max.bytes': 10485760 }).errors[0];
    expect(e?.message).toMatch(/^EOS Lab does not model the record cache/);
    expect(e?.quote).toBeUndefined();
  });
});

describe('cross-key checks in Kafka’s words', () => {
  it('ProducerConfig.postProcessAndValidateIdempotenceConfigs', () => {
    const messages = (user: Record<string, string | number | boolean>) => resolveProducerConfig(user).errors.map((e) => e.message);
    expect(messages({ 'enable.idempotence': true, retries: 0 })).toEqual([
      'ConfigException: Must set retries to non-zero when using the idempotent producer.',
    ]);
    expect(messages({ 'enable.idempotence': true, acks: '1' })).toEqual([
      'ConfigException: Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence.',
    ]);
    // "Cannot set a " + TRANSACTIONAL_ID_CONFIG + " without also enabling idempotence."
    expect(messages({ 'enable.idempotence': false, 'transactional.id': 'tx' })).toEqual([
      'ConfigException: Cannot set a transactional.id without also enabling idempotence.',
    ]);
    // Kafka 4.0's text (the October 2024 snapshot still logs the 3.x WARN; docs/reference/kafka-behaviour.md §1)
    expect(messages({ 'max.in.flight.requests.per.connection': 6 })).toEqual([
      'ConfigException: To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is 6.',
    ]);
    const e = resolveProducerConfig({ 'enable.idempotence': false, 'transactional.id': 'tx' }).errors[0];
    expect(e?.quote).toBe(e?.message);
    expect(e?.ko).toBe('transactional.id를 쓰려면 멱등성(enable.idempotence)이 켜져 있어야 하는데, 꺼져 있습니다.');
  });
  it('KafkaProducer.configureDeliveryTimeout: an explicit delivery.timeout.ms below linger.ms + request.timeout.ms', () => {
    expect(resolveProducerConfig({ 'delivery.timeout.ms': 1000 }).errors.map((e) => e.message)).toEqual([
      'ConfigException: delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms',
    ]);
  });
  it('Heartbeat’s constructor: heartbeat.interval.ms must be below session.timeout.ms', () => {
    const e = resolveConsumerConfig({ 'heartbeat.interval.ms': 45000 }).errors;
    expect(e.map((x) => x.message)).toEqual(['IllegalArgumentException: Heartbeat must be set lower than the session timeout']);
    expect(e[0]?.quote).toBe(e[0]?.message);
  });
  it('KafkaConfig.validateValues: replica.fetch.wait.max.ms above replica.lag.time.max.ms (Scala’s require)', () => {
    expect(
      resolveClusterConfig({ 'replica.fetch.wait.max.ms': 5000, 'replica.lag.time.max.ms': 1000 }).errors.map((e) => e.message),
    ).toEqual([
      'IllegalArgumentException: requirement failed: replica.fetch.wait.max.ms should always be less than or equal to replica.lag.time.max.ms to prevent frequent changes in ISR',
    ]);
  });
});
