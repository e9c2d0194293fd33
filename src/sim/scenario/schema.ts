/**
 * Scenario format v1: everything that defines a run — seed, cluster, topics, clients configured
 * with Kafka's own keys, what the applications do, and the faults — as one JSON document.
 * Documented in docs/scenario-format.md. The shape is checked here (valibot); the meaning (Kafka's
 * config rules, references between clients, topics and sinks) in validate.ts.
 */
import * as v from 'valibot';

export const SCENARIO_VERSION = 1;

/** Limits that keep a link, a run and the page usable. */
export const LIMITS = {
  maxClients: 16,
  maxTopics: 16,
  maxPartitions: 64,
  maxBrokers: 9,
  maxScriptOps: 2000,
  maxRecords: 200000,
  maxFaults: 200,
  maxTimeMs: 86400000,
  maxSteps: 3000000,
  maxStringLength: 200,
} as const;

/** The patterns of ids and topic names (issues.ts words their messages in English and Korean). */
export const ID_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;
export const SCENARIO_ID_PATTERN = /^[a-z][a-z0-9-]{0,63}$/;
export const TOPIC_NAME_PATTERN = /^[a-zA-Z0-9._-]{1,100}$/;

const id = v.pipe(
  v.string(),
  v.regex(ID_PATTERN, 'must be 1–32 characters: lower-case letters, digits and dashes, starting with a letter'),
);
const scenarioId = v.pipe(
  v.string(),
  v.regex(SCENARIO_ID_PATTERN, 'must be 1–64 characters: lower-case letters, digits and dashes, starting with a letter'),
);
const text = v.pipe(v.string(), v.maxLength(LIMITS.maxStringLength, `must be at most ${LIMITS.maxStringLength} characters`));
const longText = v.pipe(v.string(), v.maxLength(2000, 'must be at most 2000 characters'));
const nonNegInt = v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(0, 'must not be negative'));
const time = v.pipe(nonNegInt, v.maxValue(LIMITS.maxTimeMs, `must be at most ${LIMITS.maxTimeMs} ms (a day)`));
const configValue = v.union([v.string(), v.number(), v.boolean(), v.null()], 'must be a string, a number, true/false or null');
const config = v.record(v.string(), configValue);
const headers = v.record(v.string(), text);

const when = {
  /** Not before this virtual time (ms). */
  at: v.optional(time),
  /** Wait this long after the previous operation completed. */
  delayMs: v.optional(time),
};

const sendOp = v.strictObject({
  op: v.literal('send'),
  ...when,
  topic: text,
  key: v.nullable(text),
  value: v.nullable(text),
  headers: v.optional(headers),
  partition: v.optional(nonNegInt),
  /** Send this many records; "{i}" in key, value and header values becomes 0, 1, 2 … */
  count: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(LIMITS.maxRecords))),
  note: v.optional(text),
});

const resendOp = v.strictObject({
  op: v.literal('resend'),
  ...when,
  eventId: text,
  /** The business retry builds the event again with a new event_id (UUID.randomUUID()) instead of keeping it. */
  newEventId: v.optional(v.boolean()),
  note: v.optional(text),
});
const simpleOp = <N extends string>(name: N) => v.strictObject({ op: v.literal(name), ...when, note: v.optional(text) });

export const ProducerOpSchema = v.variant('op', [
  sendOp,
  resendOp,
  simpleOp('flush'),
  simpleOp('beginTransaction'),
  simpleOp('commitTransaction'),
  simpleOp('abortTransaction'),
  /**
   * close() the producer and create a new one. `closeTimeoutMs`: close(Duration.ofMillis(n)) — past
   * it the Sender is closed forcefully (Sender.forceClose); without it close(), which waits as long as
   * it takes (Long.MAX_VALUE).
   */
  v.strictObject({ op: v.literal('restart'), ...when, closeTimeoutMs: v.optional(time), note: v.optional(text) }),
  v.strictObject({ op: v.literal('sleep'), ms: time, note: v.optional(text) }),
]);

const producerClient = v.strictObject({
  id,
  type: v.literal('producer'),
  config: v.optional(config),
  script: v.pipe(v.array(ProducerOpSchema), v.maxLength(LIMITS.maxScriptOps)),
  /** The application starts (and creates its producer) at this virtual time. */
  startAt: v.optional(time),
});

export const PROCESSING_MODES = [
  'at-most-once',
  'at-least-once',
  'auto-commit',
  'commit-last-processed',
  'exactly-once',
  'consume-produce-no-transactions',
  'offsets-in-sink',
] as const;

const processing = v.strictObject({
  mode: v.picklist(PROCESSING_MODES, `must be one of ${PROCESSING_MODES.join(', ')}`),
  /** The sink each processed record goes to (a database or an HTTP API). */
  sink: v.optional(id),
  /** For modes that produce: the output topic (value = transformed input). */
  outputTopic: v.optional(text),
  /** Virtual time one record takes to process. */
  processingMs: v.optional(v.pipe(nonNegInt, v.maxValue(60000))),
  /** Config of the producer an exactly-once or consume-produce application uses. */
  producerConfig: v.optional(config),
  /**
   * exactly-once: keep one transaction open across polls until this much time has passed since it
   * began (batching transactions, as Kafka Streams' commit.interval.ms does); without it, one
   * transaction per poll().
   */
  commitIntervalMs: v.optional(v.pipe(nonNegInt, v.maxValue(LIMITS.maxTimeMs))),
  /**
   * Check the business order: records carry this header (e.g. order_id) and a `seq` header; the
   * application reports a record whose seq is lower than one it already processed for the same id.
   */
  checkOrder: v.optional(text),
});

const consumerClient = v.strictObject({
  id,
  type: v.literal('consumer'),
  config: v.optional(config),
  topics: v.pipe(v.array(text), v.minLength(1, 'must name at least one topic')),
  processing: v.optional(processing),
  /** Start later than time 0. */
  startAt: v.optional(time),
});

const streamsClient = v.strictObject({
  id,
  type: v.literal('streams'),
  config: v.optional(config),
  /** Input topic → count per key (a state store with a changelog) → output topic. */
  inputTopic: text,
  outputTopic: text,
  /** Re-key through a repartition topic before counting (groupBy). */
  groupBy: v.optional(v.picklist(['key', 'value'])),
  startAt: v.optional(time),
});

export const ClientSchema = v.variant('type', [producerClient, consumerClient, streamsClient]);

export const SINK_KINDS = ['database', 'http-api', 'outbox'] as const;

const sink = v.strictObject({
  id,
  type: v.picklist(SINK_KINDS, `must be one of ${SINK_KINDS.join(', ')}`),
  /**
   * database: 'insert' | 'upsert' | 'inbox' | 'offsets-in-db' | 'set' | 'increment';
   * http-api: 'plain' | 'idempotency-key' | 'lookup-before-retry';
   * outbox: the topic the CDC relay publishes to.
   */
  mode: v.optional(text),
  /** For an outbox: the topic its CDC relay publishes to. */
  topic: v.optional(text),
  /** Virtual time the sink takes to answer. */
  latencyMs: v.optional(v.pipe(nonNegInt, v.maxValue(60000))),
  /** database inbox: how long inbox rows are kept; http-api idempotency-key: how long a key is remembered. */
  retentionMs: v.optional(time),
});

const envelopeFault = v.strictObject({
  type: v.picklist(['drop', 'delay', 'duplicate', 'reset']),
  rpc: text,
  from: v.optional(text),
  to: v.optional(text),
  nth: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000000))),
  count: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000000))),
  delayMs: v.optional(time),
  where: v.optional(v.record(v.string(), v.union([v.string(), v.number(), v.boolean()]))),
  note: v.optional(text),
});

const processFault = v.strictObject({
  type: v.picklist(['crash', 'restart', 'pause', 'resume']),
  target: text,
  at: v.optional(time),
  /** For crash: a named point of the application loop instead of a time. */
  point: v.optional(text),
  where: v.optional(v.record(v.string(), v.union([v.string(), v.number(), v.boolean()]))),
  nth: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000000))),
  /** crash: restart this long after; pause: resume this long after. */
  durationMs: v.optional(time),
  note: v.optional(text),
});

/**
 * A slow replication link (issue [replication]): while active, the target broker's replica Fetch
 * requests and the leaders' answers to them take delayMs longer on the network.
 */
const slowReplicationFault = v.strictObject({
  type: v.literal('slowReplication'),
  target: text,
  /** From this virtual time (default 0). */
  at: v.optional(time),
  /** For this long (default: to the end of the run). */
  durationMs: v.optional(time),
  delayMs: v.pipe(nonNegInt, v.maxValue(600000)),
  note: v.optional(text),
});

/**
 * A broker's controlled shutdown (an operator's stop, one step of a rolling restart): the
 * controller moves its leaderships first, then it stops cleanly (broker/controlledShutdown.ts).
 */
const controlledShutdownFault = v.strictObject({
  type: v.literal('controlledShutdown'),
  target: text,
  at: time,
  /** The broker starts again this long after it stopped (default: it stays down). */
  durationMs: v.optional(time),
  note: v.optional(text),
});

const cleanerFault = v.strictObject({
  type: v.literal('runCleaner'),
  at: time,
  topic: v.optional(text),
  partition: v.optional(nonNegInt),
  note: v.optional(text),
});

/**
 * An operator resets a consumer group's committed offsets (`kafka-consumer-groups.sh --group g
 * --topic t[:p] --reset-offsets --execute` with --to-earliest, --to-latest, --to-offset N or
 * --shift-by N): coordinator/offsetReset.ts.
 */
const resetOffsetsFault = v.strictObject({
  type: v.literal('resetOffsets'),
  at: time,
  group: text,
  topic: text,
  /** One partition (--topic t:p); without it, every partition of the topic. */
  partition: v.optional(nonNegInt),
  /** --to-earliest, --to-latest or --to-offset N. */
  to: v.optional(v.union([v.literal('earliest'), v.literal('latest'), nonNegInt])),
  /** --shift-by N: from the committed offset, N may be negative. */
  shiftBy: v.optional(v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(-1e9), v.maxValue(1e9))),
  note: v.optional(text),
});

/**
 * An operator aborts the open transaction starting at startOffset on one partition
 * (`kafka-transactions.sh abort --topic t --partition p --start-offset N`, the remedy for a hanging
 * transaction): broker/operatorAbort.ts. The transaction coordinator is not told.
 */
const abortTransactionFault = v.strictObject({
  type: v.literal('abortTransaction'),
  at: time,
  topic: text,
  partition: nonNegInt,
  startOffset: v.pipe(nonNegInt, v.maxValue(1000000000)),
  note: v.optional(text),
});

export const FaultSchema = v.variant('type', [
  v.strictObject({ ...envelopeFault.entries, type: v.literal('drop') }),
  v.strictObject({ ...envelopeFault.entries, type: v.literal('delay') }),
  v.strictObject({ ...envelopeFault.entries, type: v.literal('duplicate') }),
  /** The connection the matching envelope travels on breaks as it is sent (a TCP reset). */
  v.strictObject({ ...envelopeFault.entries, type: v.literal('reset') }),
  v.strictObject({ ...processFault.entries, type: v.literal('crash') }),
  v.strictObject({ ...processFault.entries, type: v.literal('restart') }),
  v.strictObject({ ...processFault.entries, type: v.literal('pause') }),
  v.strictObject({ ...processFault.entries, type: v.literal('resume') }),
  cleanerFault,
  slowReplicationFault,
  resetOffsetsFault,
  abortTransactionFault,
  controlledShutdownFault,
]);

const topic = v.strictObject({
  name: v.pipe(text, v.regex(TOPIC_NAME_PATTERN, 'must use letters, digits, ".", "_" and "-"')),
  partitions: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(LIMITS.maxPartitions))),
  /** First offset of each partition (as if older records had been deleted by retention). */
  startOffset: v.optional(v.pipe(nonNegInt, v.maxValue(1000000000))),
  /** Leader broker per partition (index into the brokers); default round-robin. */
  leaders: v.optional(v.array(nonNegInt)),
  /** Kafka's replication.factor (default 1: one replica, no followers). */
  replicationFactor: v.optional(v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1), v.maxValue(LIMITS.maxBrokers))),
  /** Replica assignment per partition (broker indexes); the first is the preferred leader. */
  replicas: v.optional(
    v.pipe(v.array(v.pipe(v.array(nonNegInt), v.minLength(1), v.maxLength(LIMITS.maxBrokers))), v.maxLength(LIMITS.maxPartitions)),
  ),
  config: v.optional(config),
});

/**
 * What the verdict of a shipped preset must be, finding by finding (layer, subject, status and the
 * event ids concerned) — tested for every preset. A preset-only field: validation accepts it in a
 * scenario file and drops it from the scenario that runs, so runs, exports and share links never
 * carry it.
 */
export const VERDICT_LAYERS = ['log', 'output', 'delivery', 'processing', 'sink', 'loss'] as const;
export const VERDICT_STATUSES = ['once', 'more-than-once', 'lost', 'stalled', 'above-hw', 'not-applicable'] as const;
export const ExpectedFindingSchema = v.strictObject({
  layer: v.picklist(VERDICT_LAYERS, `must be one of ${VERDICT_LAYERS.join(', ')}`),
  subject: v.nullable(text),
  status: v.picklist(VERDICT_STATUSES, `must be one of ${VERDICT_STATUSES.join(', ')}`),
  eventIds: v.optional(v.pipe(v.array(text), v.maxLength(1000))),
});
export type ExpectedFinding = v.InferOutput<typeof ExpectedFindingSchema>;

export const ScenarioSchema = v.strictObject({
  version: v.literal(SCENARIO_VERSION, `must be ${SCENARIO_VERSION}`),
  id: v.optional(scenarioId),
  title: v.optional(text),
  question: v.optional(longText),
  expected: v.optional(longText),
  expectedVerdict: v.optional(v.pipe(v.array(ExpectedFindingSchema), v.maxLength(200))),
  description: v.optional(longText),
  /**
   * What made the scenario, when a tool did: "break-it", a counterexample Break it found for the
   * preset its `id` names (search/report.ts). It does not change the run; the header says it (origin.ts).
   */
  foundBy: v.optional(v.picklist(['break-it'])),
  seed: v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(0), v.maxValue(4294967295)),
  cluster: v.optional(config),
  network: v.optional(
    v.strictObject({
      latencyMs: v.optional(v.pipe(nonNegInt, v.maxValue(60000))),
      jitterMs: v.optional(v.pipe(nonNegInt, v.maxValue(60000))),
      links: v.optional(v.array(v.strictObject({ from: text, to: text, latencyMs: v.pipe(nonNegInt, v.maxValue(600000)) }))),
    }),
  ),
  topics: v.pipe(v.array(topic), v.minLength(1, 'must define at least one topic'), v.maxLength(LIMITS.maxTopics)),
  clients: v.pipe(v.array(ClientSchema), v.maxLength(LIMITS.maxClients)),
  sinks: v.optional(v.pipe(v.array(sink), v.maxLength(LIMITS.maxClients))),
  faults: v.optional(v.pipe(v.array(FaultSchema), v.maxLength(LIMITS.maxFaults))),
  run: v.optional(
    v.strictObject({
      maxTimeMs: v.optional(time),
      maxSteps: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(LIMITS.maxSteps))),
      settleMs: v.optional(time),
      checkpointEvery: v.optional(v.pipe(v.number(), v.integer(), v.minValue(16), v.maxValue(100000))),
    }),
  ),
});

export type Scenario = v.InferOutput<typeof ScenarioSchema>;

/** A scenario without the preset-only fields (what runs, exports and links carry). */
export function withoutPresetFields(s: Scenario): Scenario {
  if (s.expectedVerdict === undefined) return s;
  const { expectedVerdict: _, ...rest } = s;
  return rest;
}
export type ClientSpec = v.InferOutput<typeof ClientSchema>;
export type ProducerClientSpec = Extract<ClientSpec, { type: 'producer' }>;
export type ConsumerClientSpec = Extract<ClientSpec, { type: 'consumer' }>;
export type StreamsClientSpec = Extract<ClientSpec, { type: 'streams' }>;
export type ProducerOp = v.InferOutput<typeof ProducerOpSchema>;
export type FaultSpec = v.InferOutput<typeof FaultSchema>;
export type SinkSpec = NonNullable<Scenario['sinks']>[number];
export type TopicSpec = Scenario['topics'][number];
export type ProcessingMode = (typeof PROCESSING_MODES)[number];
