/**
 * Random *valid* scenarios for the property tests and the fuzzer: 1–3 topics, 1–3 producers
 * (idempotent or not, transactional or not, with begin/commit/abort around their sends), 0–2
 * consumers in any processing mode (with sinks where a mode needs one), random faults on envelopes
 * (drop / delay / duplicate of any RPC, or a reset of the connection it travels on, the n-th
 * match), on processes (crash, restart, pause, resume of clients, brokers and coordinators), crash
 * points in application loops, log cleaning, and a seed.
 *
 * The arbitrary draws a shape made of small numbers and maps it to a scenario; references (a
 * fault's target, a send's topic) are indices taken modulo what exists, so every draw is valid and
 * fast-check can shrink a failing case by shrinking those numbers and arrays.
 */
import fc from 'fast-check';
import { ALL_RPCS } from '../../src/sim/kernel/envelope';
import { CRASH_POINTS } from '../../src/sim/scenario/crashPoints';
import type { FaultSpec, ProducerOp, Scenario } from '../../src/sim/scenario/schema';

type Config = Record<string, string | number | boolean | null>;

const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });

const unitArb = fc.record({
  kind: fc.constantFrom('send', 'send', 'send', 'send', 'resend', 'flush', 'restart', 'sleep'),
  topic: fc.nat(5),
  partition: opt(fc.nat(5)),
  count: fc.integer({ min: 1, max: 4 }),
  key: fc.constantFrom('null', 'fixed', 'per-record'),
  delayMs: opt(fc.integer({ min: 0, max: 300 })),
  /** For transactions: how many sends inside, and how it ends. */
  sends: fc.integer({ min: 1, max: 3 }),
  end: fc.constantFrom('commit', 'commit', 'commit', 'abort', 'abort', 'leave-open'),
});

const producerArb = fc.record({
  transactional: fc.boolean(),
  idempotence: fc.constantFrom('default', 'on', 'off'),
  acks: fc.constantFrom('default', 'all', '1', '0'),
  retries: opt(fc.integer({ min: 0, max: 3 })),
  inFlight: opt(fc.integer({ min: 1, max: 5 })),
  requestTimeoutMs: opt(fc.integer({ min: 300, max: 5000 })),
  transactionTimeoutMs: opt(fc.integer({ min: 1000, max: 20000 })),
  lingerMs: opt(fc.integer({ min: 0, max: 20 })),
  // small enough to cut requests (a record is ~25–60 bytes), and now and then to refuse a record at send()
  maxRequestSize: opt(fc.integer({ min: 30, max: 200 })),
  units: fc.array(unitArb, { minLength: 1, maxLength: 4 }),
});

const MODES = [
  'at-most-once',
  'at-least-once',
  'auto-commit',
  'commit-last-processed',
  'exactly-once',
  'exactly-once',
  'consume-produce-no-transactions',
  'offsets-in-sink',
] as const;
const SINKS = [
  null,
  null,
  'database:insert',
  'database:upsert',
  'database:inbox',
  'http-api:plain',
  'http-api:idempotency-key',
  'http-api:lookup-before-retry',
  'outbox:',
] as const;

const consumerArb = fc.record({
  group: fc.nat(1),
  topics: fc.array(fc.nat(5), { minLength: 1, maxLength: 2 }),
  isolation: fc.constantFrom('read_committed', 'read_uncommitted'),
  reset: fc.constantFrom('earliest', 'earliest', 'earliest', 'latest'),
  mode: fc.constantFrom(...MODES),
  autoCommit: fc.boolean(),
  sink: fc.constantFrom(...SINKS),
  // short sessions (Kafka's default is 45 s) keep runs short: the run waits for timeouts to show
  sessionTimeoutMs: fc.integer({ min: 6000, max: 20000 }),
  // and fewer empty fetches to step through
  fetchMaxWaitMs: fc.constantFrom(500, 1000, 2000),
  maxPollRecords: opt(fc.integer({ min: 1, max: 10 })),
  autoCommitIntervalMs: opt(fc.integer({ min: 100, max: 5000 })),
  processingMs: opt(fc.integer({ min: 0, max: 50 })),
  startAt: opt(fc.integer({ min: 0, max: 3000 })),
  transactionTimeoutMs: opt(fc.integer({ min: 1000, max: 20000 })),
});

/** The RPCs whose loss, delay or duplication exercises idempotence, transactions and offsets. */
const HOT_RPCS = [
  'Produce',
  'ProduceResponse',
  'EndTxn',
  'EndTxnResponse',
  'WriteTxnMarkers',
  'WriteTxnMarkersResponse',
  'AddPartitionsToTxn',
  'AddPartitionsToTxnResponse',
  'TxnOffsetCommit',
  'TxnOffsetCommitResponse',
  'InitProducerId',
  'InitProducerIdResponse',
  'OffsetCommit',
  'OffsetCommitResponse',
  'FetchResponse',
  'JoinGroupResponse',
] as const;

const streamsArb = fc.record({
  input: fc.nat(5),
  guarantee: fc.constantFrom('exactly_once_v2', 'at_least_once'),
  commitIntervalMs: opt(fc.integer({ min: 100, max: 3000 })),
  groupBy: fc.constantFrom(undefined, 'key', 'value'),
  startAt: opt(fc.integer({ min: 0, max: 3000 })),
});

type StreamsShape = typeof streamsArb extends fc.Arbitrary<infer T> ? T : never;

const faultArb = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('envelope' as const),
      // every fault the network has, on every RPC (the hot ones more often)
      type: fc.constantFrom('drop', 'delay', 'duplicate', 'reset'),
      rpc: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...HOT_RPCS) }, { weight: 1, arbitrary: fc.constantFrom(...ALL_RPCS) }),
      nth: fc.integer({ min: 1, max: 6 }),
      count: opt(fc.integer({ min: 1, max: 3 })),
      delayMs: fc.integer({ min: 1, max: 8000 }),
      to: opt(fc.nat(12)),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('process' as const),
      type: fc.constantFrom('crash', 'crash', 'restart', 'pause', 'resume'),
      target: fc.nat(12),
      at: fc.integer({ min: 0, max: 8000 }),
      durationMs: opt(fc.integer({ min: 10, max: 8000 })),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('point' as const),
      consumer: fc.nat(1),
      point: fc.constantFrom(...CRASH_POINTS),
      nth: fc.integer({ min: 1, max: 3 }),
      durationMs: opt(fc.integer({ min: 10, max: 5000 })),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('cleaner' as const), topic: fc.nat(5), at: fc.integer({ min: 0, max: 8000 }) }),
  },
);

/** What a family of shapes may draw: how many producers, consumers and faults, and of which kind. */
export interface ShapeOptions {
  readonly producers?: { readonly min: number; readonly max: number };
  readonly consumers?: { readonly min: number; readonly max: number };
  readonly faults?: { readonly min: number; readonly max: number };
  /** Force every producer to be transactional (true) or not (false); undefined: draw it. */
  readonly transactional?: boolean;
  /** Always draw short transaction timeouts (so that runs can be short and timeouts still fire). */
  readonly shortTimeouts?: boolean;
  /** Virtual time limit of each run (default 120000 ms). */
  readonly maxTimeMs?: number;
  /** At most this many Kafka Streams applications, when there are any (default 1). */
  readonly streams?: number;
  /**
   * In about one run in four, the coordinator forgets transactional ids idle for 2–10 s, checked every
   * 0.5–3 s (transactional.id.expiration.ms, transaction.remove.expired.transaction.cleanup.interval.ms;
   * 7 days and an hour by default), so an idle producer's next request may meet
   * INVALID_PRODUCER_ID_MAPPING. Off: nothing is drawn, and the shapes are what they were.
   */
  readonly transactionalIdExpiration?: boolean;
}

export function shapeArbWith(o: ShapeOptions = {}) {
  const timeout = fc.integer({ min: 1000, max: 20000 });
  const producer = producerArb.map((p) => ({
    ...p,
    ...(o.transactional !== undefined ? { transactional: o.transactional } : {}),
  }));
  const withTimeouts = o.shortTimeouts
    ? fc.tuple(producer, timeout).map(([p, t]) => ({ ...p, transactionTimeoutMs: p.transactionTimeoutMs ?? t }))
    : producer;
  const consumer = o.shortTimeouts
    ? fc.tuple(consumerArb, timeout).map(([c, t]) => ({ ...c, transactionTimeoutMs: c.transactionTimeoutMs ?? t }))
    : consumerArb;
  return fc.record({
    seed: fc.nat(),
    brokers: fc.integer({ min: 1, max: 3 }),
    transactionVersion: fc.constantFrom(1, 2),
    verification: fc.boolean(),
    cleanupIntervalMs: opt(fc.integer({ min: 500, max: 10000 })),
    rebalanceDelayMs: opt(fc.integer({ min: 0, max: 3000 })),
    latencyMs: fc.integer({ min: 0, max: 5 }),
    jitterMs: fc.integer({ min: 0, max: 3 }),
    topics: fc.array(fc.record({ partitions: fc.integer({ min: 1, max: 3 }), compact: fc.nat(4), startOffset: fc.nat(3) }), {
      minLength: 1,
      maxLength: 3,
    }),
    producers: fc.array(withTimeouts, { minLength: o.producers?.min ?? 1, maxLength: o.producers?.max ?? 3 }),
    consumers: fc.array(consumer, { minLength: o.consumers?.min ?? 0, maxLength: o.consumers?.max ?? 2 }),
    // a Streams application in about one run in five: its commit loop makes runs long
    streams: fc.oneof(
      { weight: 4, arbitrary: fc.constant([] as StreamsShape[]) },
      { weight: 1, arbitrary: fc.array(streamsArb, { minLength: 1, maxLength: o.streams ?? 1 }) },
    ),
    faults: fc.array(faultArb, { minLength: o.faults?.min ?? 0, maxLength: o.faults?.max ?? 4 }),
    checkpointEvery: fc.constantFrom(16, 32, 64, 256),
    maxTimeMs: fc.constant(o.maxTimeMs ?? 120000),
    // drawn last, so every earlier field of a seeded sample is what it was before these existed: in
    // about one run in four the brokers forget idle producers and lingering verifications within the
    // run (producer.id.expiration.ms, a day by default) …
    producerExpiration: fc.oneof(
      { weight: 3, arbitrary: fc.constant(undefined) },
      {
        weight: 1,
        arbitrary: fc.record({
          expirationMs: fc.integer({ min: 2000, max: 30000 }),
          checkIntervalMs: fc.integer({ min: 500, max: 10000 }),
        }),
      },
    ),
    // … and in about one in six every producer has a buffer.memory of one to four batches, so a send()
    // may block for room and fail with BufferExhaustedException
    bufferMemory: fc.oneof(
      { weight: 5, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.integer({ min: 16384, max: 65536 }) },
    ),
    // … and in about one in four a producer's restart is close(Duration.ofMillis(n)), 0 to 2 s, so
    // what is still owed a result may be failed by a forced close (Sender.forceClose)
    closeTimeoutMs: fc.oneof(
      { weight: 3, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom(0, 0, 5, 50, 2000) },
    ),
    // … and in about one in four every consumer is a static member (group.instance.id, KIP-345): a
    // restart within session.timeout.ms replaces it without a rebalance, and it never sends LeaveGroup
    staticConsumers: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    // … and, for the families that ask for it, an expiring transactional.id (ShapeOptions.transactionalIdExpiration)
    transactionalIdExpiration: o.transactionalIdExpiration
      ? fc.oneof(
          { weight: 3, arbitrary: fc.constant(undefined) },
          {
            weight: 1,
            arbitrary: fc.record({
              expirationMs: fc.integer({ min: 2000, max: 10000 }),
              cleanupIntervalMs: fc.integer({ min: 500, max: 3000 }),
            }),
          },
        )
      : fc.constant(undefined),
  });
}

export const shapeArb = shapeArbWith();

export type Shape = typeof shapeArb extends fc.Arbitrary<infer T> ? T : never;

function producerConfig(p: Shape['producers'][number], id: string): Config {
  const c: Config = {};
  // keep every combination valid: explicit idempotence needs acks=all and retries > 0, and a
  // transactional.id needs idempotence that is on (explicitly, or by default and not disabled)
  const idempotence = p.transactional && p.idempotence === 'off' ? 'on' : p.idempotence;
  const strict = p.transactional || idempotence === 'on';
  if (idempotence !== 'default') c['enable.idempotence'] = idempotence === 'on';
  if (p.acks !== 'default' && (!strict || p.acks === 'all')) c.acks = p.acks;
  if (p.retries !== undefined && (!strict || p.retries > 0)) c.retries = p.retries;
  if (p.inFlight !== undefined) c['max.in.flight.requests.per.connection'] = p.inFlight;
  if (p.requestTimeoutMs !== undefined) c['request.timeout.ms'] = p.requestTimeoutMs;
  if (p.lingerMs !== undefined) c['linger.ms'] = p.lingerMs;
  if (p.maxRequestSize !== undefined) c['max.request.size'] = p.maxRequestSize;
  if (p.transactional) {
    c['transactional.id'] = `${id}-tx`;
    if (p.transactionTimeoutMs !== undefined) c['transaction.timeout.ms'] = p.transactionTimeoutMs;
  }
  return c;
}

function script(
  p: Shape['producers'][number],
  id: string,
  topics: readonly { name: string; partitions: number }[],
  closeTimeoutMs: number | undefined,
): ProducerOp[] {
  const ops: ProducerOp[] = [];
  const literalEventIds: string[] = [];
  let n = 0;
  const send = (u: Shape['producers'][number]['units'][number]): ProducerOp => {
    const t = topics[u.topic % topics.length] as { name: string; partitions: number };
    const many = u.count > 1;
    const eventId = many ? `${id}-${n}-{i}` : `${id}-${n}`;
    if (!many) literalEventIds.push(eventId);
    n += 1;
    return {
      op: 'send',
      topic: t.name,
      key: u.key === 'null' ? null : u.key === 'fixed' ? 'k' : many ? 'k{i}' : `k${n}`,
      value: many ? `v{i}` : `v${n}`,
      headers: { event_id: eventId },
      ...(u.partition !== undefined ? { partition: u.partition % t.partitions } : {}),
      ...(many ? { count: u.count } : {}),
      ...(u.delayMs !== undefined ? { delayMs: u.delayMs } : {}),
    };
  };
  for (const u of p.units) {
    if (p.transactional && u.kind !== 'restart') {
      ops.push({ op: 'beginTransaction' });
      for (let i = 0; i < u.sends; i++) ops.push(send(u));
      if (u.end === 'commit') ops.push({ op: 'commitTransaction' });
      else if (u.end === 'abort') ops.push({ op: 'abortTransaction' });
      continue;
    }
    switch (u.kind) {
      case 'send':
        ops.push(send(u));
        break;
      case 'resend': {
        const e = literalEventIds[u.count % Math.max(1, literalEventIds.length)];
        ops.push(e ? { op: 'resend', eventId: e, ...(u.delayMs !== undefined ? { delayMs: u.delayMs } : {}) } : send(u));
        break;
      }
      case 'flush':
        ops.push({ op: 'flush' });
        break;
      case 'restart':
        ops.push({ op: 'restart', ...(closeTimeoutMs !== undefined ? { closeTimeoutMs } : {}) });
        break;
      case 'sleep':
        ops.push({ op: 'sleep', ms: u.delayMs ?? 100 });
        break;
    }
  }
  return ops;
}

/** Maps a drawn shape to a scenario that passes validation. */
export function scenarioFromShape(shape: Shape): Scenario {
  const topics: Scenario['topics'] = shape.topics.map((t, i) => ({
    name: `in${i}`,
    partitions: t.partitions,
    ...(t.startOffset ? { startOffset: t.startOffset * 10 } : {}),
    // compacted topics roll a segment every 200 ms and keep tombstones and empty transactions'
    // markers 1 s, so a runCleaner fault has closed segments to clean within a run
    ...(t.compact === 0 ? { config: { 'cleanup.policy': 'compact', 'segment.ms': 200, 'delete.retention.ms': 1000 } } : {}),
  }));
  const inputs = topics.map((t) => ({ name: t.name, partitions: t.partitions ?? 1 }));
  const clients: Scenario['clients'] = [];
  const sinks: NonNullable<Scenario['sinks']> = [];
  shape.producers.forEach((p, i) => {
    const id = `p${i}`;
    const config = producerConfig(p, id);
    if (shape.bufferMemory !== undefined) config['buffer.memory'] = shape.bufferMemory;
    clients.push({ id, type: 'producer', config, script: script(p, id, inputs, shape.closeTimeoutMs) });
  });
  shape.consumers.forEach((c, i) => {
    const id = `c${i}`;
    const config: Config = {
      'group.id': `g${c.group}`,
      'isolation.level': c.isolation,
      'auto.offset.reset': c.reset,
      'enable.auto.commit': c.mode === 'auto-commit' ? true : c.mode === 'exactly-once' ? false : c.autoCommit,
    };
    config['session.timeout.ms'] = c.sessionTimeoutMs;
    config['fetch.max.wait.ms'] = c.fetchMaxWaitMs;
    if (shape.staticConsumers) config['group.instance.id'] = id;
    if (c.maxPollRecords !== undefined) config['max.poll.records'] = c.maxPollRecords;
    if (c.autoCommitIntervalMs !== undefined) config['auto.commit.interval.ms'] = c.autoCommitIntervalMs;
    const produces = c.mode === 'exactly-once' || c.mode === 'consume-produce-no-transactions';
    let sink: string | undefined;
    const sinkSpec = c.mode === 'offsets-in-sink' ? 'database:offsets-in-db' : c.sink;
    if (sinkSpec) {
      const [type, mode] = sinkSpec.split(':') as ['database' | 'http-api' | 'outbox', string];
      sink = `s${i}`;
      if (type === 'outbox') {
        // the relay publishes the outbox rows to a topic of its own
        topics.push({ name: `outbox-${sink}`, partitions: 1 });
        sinks.push({ id: sink, type, topic: `outbox-${sink}` });
      } else sinks.push({ id: sink, type, mode });
    }
    if (produces) topics.push({ name: `out-${id}`, partitions: 1 + (c.group % 2) });
    const processing: NonNullable<Extract<Scenario['clients'][number], { type: 'consumer' }>['processing']> = {
      mode: c.mode,
      ...(sink ? { sink } : {}),
      ...(produces ? { outputTopic: `out-${id}` } : {}),
      ...(c.processingMs !== undefined ? { processingMs: c.processingMs } : {}),
      ...(c.mode === 'exactly-once' && c.transactionTimeoutMs !== undefined
        ? { producerConfig: { 'transaction.timeout.ms': c.transactionTimeoutMs } }
        : {}),
    };
    clients.push({
      id,
      type: 'consumer',
      config,
      topics: [...new Set(c.topics.map((t) => inputs[t % inputs.length]?.name as string))],
      processing,
      ...(c.startAt !== undefined ? { startAt: c.startAt } : {}),
    });
  });

  shape.streams.forEach((st, i) => {
    const id = `st${i}`;
    topics.push({ name: `out-${id}`, partitions: 1 });
    const config: Config = { 'processing.guarantee': st.guarantee };
    if (st.commitIntervalMs !== undefined) config['commit.interval.ms'] = st.commitIntervalMs;
    clients.push({
      id,
      type: 'streams',
      config,
      inputTopic: inputs[st.input % inputs.length]?.name as string,
      outputTopic: `out-${id}`,
      ...(st.groupBy ? { groupBy: st.groupBy } : {}),
      ...(st.startAt !== undefined ? { startAt: st.startAt } : {}),
    });
  });

  const processes = [
    ...clients.map((c) => c.id),
    ...sinks.map((k) => k.id),
    ...sinks.filter((k) => k.type === 'outbox').map((k) => `${k.id}-relay`),
    ...Array.from({ length: shape.brokers }, (_, b) => `broker-${b}`),
    'txn-coordinator',
    'group-coordinator',
  ];
  const consumers = clients.filter((c) => c.type === 'consumer').map((c) => c.id);
  const faults: FaultSpec[] = [];
  for (const f of shape.faults) {
    if (f.kind === 'envelope') {
      faults.push({
        type: f.type,
        rpc: f.rpc,
        nth: f.nth,
        ...(f.count !== undefined ? { count: f.count } : {}),
        ...(f.type === 'delay' ? { delayMs: f.delayMs } : {}),
        ...(f.to !== undefined && f.to < processes.length ? { to: processes[f.to] as string } : {}),
      });
    } else if (f.kind === 'process') {
      faults.push({
        type: f.type,
        target: processes[f.target % processes.length] as string,
        at: f.at,
        ...(f.durationMs !== undefined && (f.type === 'crash' || f.type === 'pause') ? { durationMs: f.durationMs } : {}),
      });
    } else if (f.kind === 'point') {
      const target = consumers[f.consumer % Math.max(1, consumers.length)];
      if (!target) continue;
      faults.push({
        type: 'crash',
        target,
        point: f.point,
        nth: f.nth,
        ...(f.durationMs !== undefined ? { durationMs: f.durationMs } : {}),
      });
    } else {
      const compacted = topics.filter((t) => t.config?.['cleanup.policy'] === 'compact');
      const t = compacted[f.topic % Math.max(1, compacted.length)];
      faults.push({ type: 'runCleaner', at: f.at, ...(t ? { topic: t.name } : {}) });
    }
  }

  const cluster: Config = {
    brokers: shape.brokers,
    'transaction.version': shape.transactionVersion,
    'transaction.partition.verification.enable': shape.verification,
  };
  if (shape.cleanupIntervalMs !== undefined)
    cluster['transaction.abort.timed.out.transaction.cleanup.interval.ms'] = shape.cleanupIntervalMs;
  if (shape.rebalanceDelayMs !== undefined) cluster['group.initial.rebalance.delay.ms'] = shape.rebalanceDelayMs;
  if (shape.producerExpiration) {
    cluster['producer.id.expiration.ms'] = shape.producerExpiration.expirationMs;
    cluster['producer.id.expiration.check.interval.ms'] = shape.producerExpiration.checkIntervalMs;
  }
  if (shape.transactionalIdExpiration) {
    cluster['transactional.id.expiration.ms'] = shape.transactionalIdExpiration.expirationMs;
    cluster['transaction.remove.expired.transaction.cleanup.interval.ms'] = shape.transactionalIdExpiration.cleanupIntervalMs;
  }
  return {
    version: 1,
    seed: shape.seed,
    cluster,
    network: { latencyMs: shape.latencyMs, jitterMs: shape.jitterMs },
    topics,
    clients,
    ...(sinks.length ? { sinks } : {}),
    ...(faults.length ? { faults } : {}),
    // two virtual minutes cover every timeout the shapes draw (transaction, session, delivery)
    run: { checkpointEvery: shape.checkpointEvery, maxTimeMs: shape.maxTimeMs, maxSteps: 20000 },
  };
}

/** Random valid scenarios. */
export const scenarioArb: fc.Arbitrary<Scenario> = shapeArb.map(scenarioFromShape);

/** Random valid scenarios of a family (see ShapeOptions). */
export function scenarioArbWith(o: ShapeOptions): fc.Arbitrary<Scenario> {
  return shapeArbWith(o).map(scenarioFromShape);
}
