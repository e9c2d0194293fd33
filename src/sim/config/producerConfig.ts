/**
 * Producer configuration: Kafka 4.x defaults and the validation ProducerConfig performs
 * (postProcessAndValidateIdempotenceConfigs): explicitly enabled idempotence with a conflicting
 * acks or retries is a ConfigException, while a defaulted one is turned off with an INFO log line;
 * max.in.flight.requests.per.connection > 5 is a ConfigException either way (since Kafka 4.0), unless
 * enable.idempotence=false is set explicitly.
 */
import {
  type ConfigKey,
  type ConfigProblem,
  type ConfigValue,
  kafkaProblem,
  METADATA_MAX_AGE_MS,
  parseConfigValue,
  RECONNECT_BACKOFF_DISABLED,
  RECONNECT_BACKOFF_MAX_MS,
  RECONNECT_BACKOFF_MS,
  reconnectBackoffMax,
  unknownKey,
} from './configSpec';

export const PRODUCER_CONFIG: readonly ConfigKey[] = [
  {
    name: 'enable.idempotence',
    type: 'boolean',
    default: true,
    doc: 'The broker de-duplicates retried batches by producerId, epoch and sequence number.',
  },
  {
    name: 'acks',
    type: 'enum',
    default: 'all',
    // ProducerConfig: define(ACKS_CONFIG, Type.STRING, "all", in("all", "-1", "0", "1"), …): Kafka's order
    values: ['all', '-1', '0', '1'],
    doc: 'How many replicas must have the batch before the leader answers; 0 means no answer at all.',
    simulation: 'with replication.factor 1, 1 and all behave alike',
  },
  {
    name: 'retries',
    type: 'int',
    default: 2147483647,
    // ProducerConfig: between(0, Integer.MAX_VALUE)
    min: 0,
    max: 2147483647,
    doc: 'How many times a failed batch is retried, within delivery.timeout.ms.',
  },
  {
    name: 'max.in.flight.requests.per.connection',
    type: 'int',
    default: 5,
    min: 1,
    doc: 'Unacknowledged Produce requests per broker connection; at most 5 with idempotence.',
  },
  {
    name: 'transactional.id',
    type: 'nullable-string',
    default: null,
    // ProducerConfig: new ConfigDef.NonEmptyString()
    nonEmpty: true,
    doc: 'Stable identity for transactions: InitProducerId with it bumps the epoch and fences older instances. Not a business id: the broker never reads a header such as transaction_id=payment-123.',
  },
  {
    name: 'transaction.timeout.ms',
    type: 'int',
    default: 60000,
    // ProducerConfig puts no bound on it: the transaction coordinator checks it at InitProducerId
    doc: 'The coordinator aborts a transaction left open longer than this. The producer accepts any value; the coordinator refuses one ≤ 0 or above the cluster’s transaction.max.timeout.ms (900000) with INVALID_TRANSACTION_TIMEOUT, and initTransactions() fails for good.',
  },
  {
    name: 'delivery.timeout.ms',
    type: 'int',
    default: 120000,
    min: 0,
    doc: 'Upper bound on the time to report success or failure of a send, retries included.',
  },
  {
    name: 'request.timeout.ms',
    type: 'int',
    default: 30000,
    min: 0,
    doc: 'How long the client waits for a response before it gives up on a request and retries.',
  },
  { name: 'linger.ms', type: 'long', default: 5, min: 0, doc: 'How long records wait to be grouped into a batch per partition.' },
  {
    name: 'batch.size',
    type: 'int',
    default: 16384,
    min: 0,
    doc: 'Upper bound on a batch, in bytes.',
    simulation: 'records are sized by key, value and header lengths plus 20 bytes',
  },
  {
    name: 'max.request.size',
    type: 'int',
    default: 1048576,
    min: 0,
    doc: 'Upper bound on a Produce request, in bytes: a request takes no further batch past it (its first batch always goes), and send() refuses a record larger than it (RecordTooLargeException).',
    simulation: 'records and batches are sized as for batch.size, without the request and batch headers',
  },
  {
    name: 'buffer.memory',
    type: 'long',
    default: 33554432,
    min: 0,
    doc: 'Bytes the producer may hold for records not yet completed: each batch takes batch.size from it (a larger record its own size) until it is acknowledged, fails or expires. A send() that needs a new batch while the pool has no room blocks, at most what is left of max.block.ms, then fails with BufferExhaustedException; a record larger than buffer.memory is refused (RecordTooLargeException).',
    simulation:
      'records and batches are sized as for batch.size, without the batch header; a send() arriving while another waits for memory queues behind it',
  },
  {
    name: 'retry.backoff.ms',
    type: 'long',
    default: 100,
    min: 0,
    doc: 'Wait before the first retry; doubles per attempt.',
    simulation: 'no jitter',
  },
  { name: 'retry.backoff.max.ms', type: 'long', default: 1000, min: 0, doc: 'Upper bound on the retry backoff.' },
  {
    name: 'max.block.ms',
    type: 'long',
    default: 60000,
    min: 0,
    doc: 'How long send() and initTransactions(), sendOffsetsToTransaction(), commitTransaction() and abortTransaction() block before they throw TimeoutException; the request goes on, and calling the same method again waits for its result. send() blocks for its topic’s metadata (waitOnMetadata), then for room in buffer.memory, both within this one bound.',
    simulation: 'send() blocks only in waitOnMetadata and for buffer.memory',
  },
  RECONNECT_BACKOFF_MS,
  RECONNECT_BACKOFF_MAX_MS,
  METADATA_MAX_AGE_MS,
];

export interface ProducerConfig {
  readonly 'enable.idempotence': boolean;
  readonly acks: 0 | 1 | -1;
  readonly retries: number;
  readonly 'max.in.flight.requests.per.connection': number;
  readonly 'transactional.id': string | null;
  readonly 'transaction.timeout.ms': number;
  readonly 'delivery.timeout.ms': number;
  readonly 'request.timeout.ms': number;
  readonly 'linger.ms': number;
  readonly 'batch.size': number;
  readonly 'max.request.size': number;
  readonly 'buffer.memory': number;
  readonly 'retry.backoff.ms': number;
  readonly 'retry.backoff.max.ms': number;
  readonly 'max.block.ms': number;
  readonly 'reconnect.backoff.ms': number;
  readonly 'reconnect.backoff.max.ms': number;
  readonly 'metadata.max.age.ms': number;
}

export interface ResolvedProducerConfig {
  readonly config: ProducerConfig;
  /** ConfigExceptions: the producer cannot be constructed. */
  readonly errors: readonly ConfigProblem[];
  /** What Kafka would log: defaulted idempotence switched off, and why. */
  readonly notes: readonly ConfigProblem[];
}

function acksValue(v: ConfigValue): 0 | 1 | -1 {
  if (v === 'all' || v === '-1' || v === -1) return -1;
  if (v === '1' || v === 1) return 1;
  return 0;
}

export function resolveProducerConfig(user: Readonly<Record<string, ConfigValue>>): ResolvedProducerConfig {
  const errors: ConfigProblem[] = [];
  const notes: ConfigProblem[] = [];
  const value = (key: string): ConfigValue => {
    const spec = PRODUCER_CONFIG.find((k) => k.name === key) as ConfigKey;
    if (!Object.hasOwn(user, key)) return spec.default;
    const v = user[key] as ConfigValue;
    // acks may be written as a number: the simulator reads it as its text, as a properties file holds it (Kafka's acks is a STRING)
    const normalised = key === 'acks' && typeof v === 'number' ? String(v) : v;
    const parsed = parseConfigValue(spec, normalised);
    if (!parsed.ok) {
      errors.push(parsed.problem);
      return spec.default;
    }
    return parsed.value;
  };
  for (const key of Object.keys(user))
    if (!PRODUCER_CONFIG.some((k) => k.name === key)) errors.push(unknownKey(key, 'producer', '프로듀서'));

  const userIdempotence = Object.hasOwn(user, 'enable.idempotence');
  let idempotence = value('enable.idempotence') as boolean;
  const acks = acksValue(value('acks'));
  const retries = value('retries') as number;
  const inFlight = value('max.in.flight.requests.per.connection') as number;
  if (idempotence) {
    // ProducerConfig.postProcessAndValidateIdempotenceConfigs, in Kafka's order
    const disable: string[] = [];
    if (retries === 0) {
      if (userIdempotence)
        errors.push(
          kafkaProblem(
            'retries',
            'ConfigException: Must set retries to non-zero when using the idempotent producer.',
            'enable.idempotence=true를 명시한 멱등 프로듀서에서는 retries가 0일 수 없습니다.',
          ),
        );
      else disable.push('Idempotence will be disabled because retries is set to 0.');
    }
    if (acks !== -1) {
      if (userIdempotence)
        errors.push(
          kafkaProblem(
            'acks',
            'ConfigException: Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence.',
            'enable.idempotence=true를 명시한 멱등 프로듀서에서는 acks가 all이어야 합니다.',
          ),
        );
      else disable.push(`Idempotence will be disabled because acks is set to ${acks}, not set to 'all'.`);
    }
    // since Kafka 4.0 this is an error even when idempotence is only defaulted
    if (inFlight > 5)
      errors.push(
        kafkaProblem(
          'max.in.flight.requests.per.connection',
          `ConfigException: To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is ${inFlight}.`,
          '멱등 프로듀서에서는 max.in.flight.requests.per.connection이 5 이하여야 합니다. Kafka 4.0부터는 enable.idempotence를 명시하지 않았어도 오류입니다.',
        ),
      );
    if (disable.length && !userIdempotence) {
      idempotence = false;
      for (const message of disable) notes.push({ key: 'enable.idempotence', message: `INFO ${message}` });
    }
  }
  const transactionalId = value('transactional.id') as string | null;
  if (transactionalId !== null && !idempotence)
    errors.push(
      kafkaProblem(
        'transactional.id',
        'ConfigException: Cannot set a transactional.id without also enabling idempotence.',
        'transactional.id를 쓰려면 멱등성(enable.idempotence)이 켜져 있어야 하는데, 꺼져 있습니다.',
      ),
    );
  const linger = value('linger.ms') as number;
  const requestTimeout = value('request.timeout.ms') as number;
  const deliveryTimeout = value('delivery.timeout.ms') as number;
  if (deliveryTimeout < linger + requestTimeout) {
    const msg = 'delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms';
    if (Object.hasOwn(user, 'delivery.timeout.ms'))
      errors.push(
        kafkaProblem(
          'delivery.timeout.ms',
          `ConfigException: ${msg}`,
          'delivery.timeout.ms를 명시했다면 linger.ms와 request.timeout.ms의 합 이상이어야 합니다.',
        ),
      );
    else notes.push({ key: 'delivery.timeout.ms', message: `WARN ${msg}. Setting it to ${linger + requestTimeout}.` });
  }
  const reconnectMs = value('reconnect.backoff.ms') as number;
  const reconnect = reconnectBackoffMax(user, reconnectMs, value('reconnect.backoff.max.ms') as number);
  if (reconnect.disabled) notes.push({ key: 'reconnect.backoff.max.ms', message: RECONNECT_BACKOFF_DISABLED });
  return {
    config: {
      'enable.idempotence': idempotence,
      acks,
      retries,
      'max.in.flight.requests.per.connection': inFlight,
      'transactional.id': transactionalId,
      'transaction.timeout.ms': value('transaction.timeout.ms') as number,
      'delivery.timeout.ms': Math.max(deliveryTimeout, linger + requestTimeout),
      'request.timeout.ms': requestTimeout,
      'linger.ms': linger,
      'batch.size': value('batch.size') as number,
      'max.request.size': value('max.request.size') as number,
      'buffer.memory': value('buffer.memory') as number,
      'retry.backoff.ms': value('retry.backoff.ms') as number,
      'retry.backoff.max.ms': value('retry.backoff.max.ms') as number,
      'max.block.ms': value('max.block.ms') as number,
      'reconnect.backoff.ms': reconnectMs,
      'reconnect.backoff.max.ms': reconnect.max,
      'metadata.max.age.ms': value('metadata.max.age.ms') as number,
    },
    errors,
    notes,
  };
}
