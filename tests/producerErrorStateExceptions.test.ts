/**
 * What a call throws once the transactional producer is in an error state
 * (TransactionManager.maybeFailWithError, run first by beginCommit, beginAbort in FATAL_ERROR,
 * sendOffsetsToTransaction, beginTransaction and send's maybeAddPartition): a ProducerFencedException
 * or an InvalidProducerEpochException is thrown as itself; any other error is wrapped in a
 * KafkaException. Kafka Streams' StreamsProducer turns the first two into a TaskMigratedException
 * (the task is closed dirty and the thread rejoins); a KafkaException into a StreamsException (the
 * thread dies). On the old code every refusal was a KafkaException: a stream thread whose send was
 * refused INVALID_PRODUCER_EPOCH (its transaction timed out) died at its next commit.
 */
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../src/sim/presets';
import { errorStateException } from '../src/sim/producer/producer.machine';
import { runScenario } from '../src/sim/run';
import type { Scenario } from '../src/sim/scenario/schema';
import type { Ev, StreamThreadContext } from '../src/sim/streams/streamThreadContext';
import { streamThreadGuards } from '../src/sim/streams/streamThreadGuards';
import type { Fact } from '../src/sim/trace/facts';

type ClientError = Extract<Fact, { kind: 'clientError' }>;

const refusals = (trace: ReturnType<typeof runScenario>) =>
  trace.steps.flatMap((s) =>
    (s.facts as Fact[]).filter((f): f is ClientError => f.kind === 'clientError' && /^\w+: /.test(f.during)).map((f) => ({ t: s.t, f })),
  );
const notes = (trace: ReturnType<typeof runScenario>) =>
  trace.steps.flatMap((s) => (s.facts as Fact[]).flatMap((f) => (f.kind === 'note' ? [f.text] : [])));
const preset = (id: string) => (PRESETS.find((p) => p.id === id) as { scenario: Scenario }).scenario;

describe('maybeFailWithError', () => {
  it('throws the fencing errors as themselves and wraps every other error', () => {
    expect(errorStateException('PRODUCER_FENCED')).toBe('ProducerFencedException');
    expect(errorStateException('INVALID_PRODUCER_EPOCH')).toBe('InvalidProducerEpochException');
    for (const e of ['TRANSACTION_ABORTABLE', 'OUT_OF_ORDER_SEQUENCE_NUMBER', 'INVALID_PRODUCER_ID_MAPPING', 'TimeoutException', null])
      expect(errorStateException(e)).toBe('KafkaException');
  });

  it('transaction-timeout: commitTransaction() after a Produce refused INVALID_PRODUCER_EPOCH throws InvalidProducerEpochException', () => {
    const r = refusals(runScenario(preset('transaction-timeout')));
    expect(r.map((x) => x.f.error)).toEqual(['InvalidProducerEpochException']);
    expect(r[0]?.f.during).toMatch(
      /^commitTransaction: Producer with transactionalId '.+' and ProducerIdAndEpoch\(producerId=\d+, epoch=\d+\) attempted to produce with an old epoch$/,
    );
  });

  it('streams-task-migration: the call after a commit flush whose Produce met the bumped epoch throws InvalidProducerEpochException', () => {
    const r = refusals(runScenario(preset('streams-task-migration')));
    expect(r.map((x) => x.f.error)).toEqual(['InvalidProducerEpochException']);
    expect(r[0]?.f.during).toMatch(/^sendOffsetsToTransaction: /);
    expect(r.map((x) => x.f.error)).not.toContain('KafkaException');
  });
});

/**
 * A stream thread under exactly_once_v2 frozen inside a transaction longer than its
 * transaction.timeout.ms: the coordinator aborts the transaction and bumps the epoch, the thread's
 * next Produce is refused INVALID_PRODUCER_EPOCH, and its commit's sendOffsetsToTransaction throws
 * InvalidProducerEpochException — a TaskMigratedException in Kafka Streams, not a dead thread.
 */
const frozenStreamThread = {
  version: 1,
  id: 'streams-send-refused-old-epoch',
  seed: 51,
  topics: [
    { name: 'page-views', partitions: 1 },
    { name: 'view-counts', partitions: 1 },
  ],
  clients: [
    {
      id: 'web',
      type: 'producer',
      script: [
        { op: 'send', topic: 'page-views', key: 'page-a', value: 'view', headers: { event_id: 'view-1' }, at: 7000 },
        { op: 'flush' },
        { op: 'send', topic: 'page-views', key: 'page-b', value: 'view', headers: { event_id: 'view-2' }, delayMs: 300 },
        { op: 'flush' },
        { op: 'send', topic: 'page-views', key: 'page-a', value: 'view', headers: { event_id: 'view-3' }, delayMs: 300 },
        { op: 'flush' },
      ],
    },
    {
      id: 'counter-a',
      type: 'streams',
      config: { 'processing.guarantee': 'exactly_once_v2', 'application.id': 'page-counter', 'commit.interval.ms': 60000 },
      inputTopic: 'page-views',
      outputTopic: 'view-counts',
    },
  ],
  faults: [{ type: 'pause', target: 'counter-a', point: 'afterProduce', where: { offset: 1 }, durationMs: 25000 }],
  run: { maxTimeMs: 75000 },
} as unknown as Scenario;

describe('a stream thread whose send was refused with an old epoch', () => {
  const trace = runScenario(frozenStreamThread);

  it('is migrated at its commit (the task closed dirty, the thread rejoins), not killed', () => {
    const r = refusals(trace).filter((x) => x.f.client === 'counter-a');
    expect(r[0]?.f.error).toBe('InvalidProducerEpochException');
    expect(r[0]?.f.during).toMatch(/^sendOffsetsToTransaction: /);
    const said = notes(trace);
    expect(
      said.some((t) => t.startsWith('TaskMigratedException (sendOffsetsToTransaction failed with InvalidProducerEpochException)')),
    ).toBe(true);
    expect(said.some((t) => t.includes('StreamsException'))).toBe(false);
  });
});

describe("the stream thread meets a send's error first (RecordCollectorImpl.recordSendError, then flush())", () => {
  const context = (guarantee: string) => ({ guarantee, producer: 'c.producer' }) as unknown as StreamThreadContext;
  const refusal = (cause: string) =>
    ({
      type: 'reply',
      now: 1,
      from: 'c.producer',
      args: {
        call: 'sendOffsetsToTransaction',
        ok: false,
        error: 'Cannot send offsets: the transaction hit an abortable error',
        cause,
      },
    }) as unknown as Ev;

  it('under exactly_once_v2 a refusal wrapping OUT_OF_ORDER_SEQUENCE_NUMBER is a TaskMigratedException', () => {
    const args = { context: context('exactly_once_v2'), event: refusal('OUT_OF_ORDER_SEQUENCE_NUMBER') };
    expect(streamThreadGuards.taskMigrated(args)).toBe(true);
    expect(streamThreadGuards.streamsException(args)).toBe(false);
  });

  it('a refusal wrapping any other error is a StreamsException', () => {
    const args = { context: context('exactly_once_v2'), event: refusal('TRANSACTION_ABORTABLE') };
    expect(streamThreadGuards.taskMigrated(args)).toBe(false);
    expect(streamThreadGuards.streamsException(args)).toBe(true);
  });
});
