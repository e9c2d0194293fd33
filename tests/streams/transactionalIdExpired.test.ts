/**
 * A Kafka Streams application under exactly_once_v2 idle past transactional.id.expiration.ms: it
 * counts view-1 and commits at about 4 s, the coordinator forgets its producer's transactional.id at
 * 11 s, and view-2 comes at 12.5 s. Kafka 4.0: the task's Produce (protocol 2: the leader's
 * AddPartitionsToTxn for it; protocol 1: the client's AddPartitionsToTxn) is refused
 * INVALID_PRODUCER_ID_MAPPING, fatal for the producer (KAFKA-18019). Streams treats
 * InvalidPidMappingException as it treats a fence (KAFKA-16699): RecordCollectorImpl.recordSendError
 * keeps a TaskMigratedException that the commit's flush throws (checkForException), and
 * StreamsProducer turns a KafkaException caused by it into one too (isRecoverable). So
 * StreamThread.handleTaskMigrated → TaskManager.handleLostAll closes the task dirty (its abort's
 * error swallowed: executeAndMaybeSwallow), ActiveTaskCreator.reInitializeProducer makes a new
 * producer — whose InitProducerId gets a new producer id — and the thread rejoins; the task, created
 * again, restores its store and processes view-2 again from the committed offset. Nothing is lost or
 * counted twice. (The model reaches the TaskMigratedException at the commit's sendOffsetsToTransaction,
 * refused with the fatal error, not at the flush: migration.ts, sendErrors.ts — the same outcome.)
 */
import { describe, expect, it } from 'vitest';
import { runScenario, type Trace } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { summarize } from '../../src/sim/trace/summary';

const streamsApp = (transactionVersion: 1 | 2): Scenario =>
  ({
    version: 1,
    seed: 7,
    cluster: {
      'transaction.version': transactionVersion,
      'transactional.id.expiration.ms': 5000,
      'transaction.remove.expired.transaction.cleanup.interval.ms': 1000,
    },
    topics: [
      { name: 'page-views', partitions: 1 },
      { name: 'view-counts', partitions: 1 },
    ],
    clients: [
      {
        id: 'web',
        type: 'producer',
        script: [
          { op: 'send', topic: 'page-views', key: 'user-1', value: 'page-a', headers: { event_id: 'view-1' }, at: 3500 },
          { op: 'flush' },
          { op: 'send', topic: 'page-views', key: 'user-2', value: 'page-b', headers: { event_id: 'view-2' }, delayMs: 9000 },
          { op: 'flush' },
        ],
      },
      {
        id: 'counter',
        type: 'streams',
        config: { 'processing.guarantee': 'exactly_once_v2', 'application.id': 'page-counter', 'commit.interval.ms': 1000 },
        inputTopic: 'page-views',
        outputTopic: 'view-counts',
        groupBy: 'value',
      },
    ],
  }) as unknown as Scenario;

type AnyFact = { kind: string } & Record<string, unknown>;
const factsOf = (trace: Trace, kind: string) =>
  trace.steps.flatMap((s) => (s.facts as readonly AnyFact[]).filter((f) => f.kind === kind).map((f) => ({ t: s.t, i: s.i, f })));

describe.each([2, 1] as const)('Streams exactly_once_v2, protocol %i: the task’s producer id expired', (version) => {
  const trace = runScenario(streamsApp(version));
  const fatal = factsOf(trace, 'clientError').filter(({ f }) => f.client === 'counter' && f.fatal);

  it('the refusal is INVALID_PRODUCER_ID_MAPPING, fatal for the producer, after the coordinator forgot the id', () => {
    const dead = factsOf(trace, 'txnState').filter(({ f }) => f.to === 'Dead');
    expect(dead.map(({ t }) => t)).toEqual([11000]);
    expect(fatal.map(({ f }) => `${f.error} ${String(f.during).split(' ')[0]}`)).toEqual([
      `INVALID_PRODUCER_ID_MAPPING ${version === 2 ? 'Produce' : 'AddPartitionsToTxn'}`,
    ]);
    expect(fatal[0]?.t).toBeGreaterThan(12500);
  });

  it('the task migrates: closed dirty, a new producer with a new producer id, the thread rejoins — no fence named, no thread death', () => {
    const notes = factsOf(trace, 'note').map(({ t, f }) => ({ t, text: String(f.text) }));
    const migrated = notes.find((n) => n.text.startsWith('TaskMigratedException'));
    expect(migrated?.text).toContain('INVALID_PRODUCER_ID_MAPPING: its producer id is no longer known to the coordinator');
    expect(migrated?.text).toContain('the producer is re-created and the thread rejoins the group');
    expect(notes.some((n) => /StreamsException, the stream thread dies/.test(n.text))).toBe(false);
    const ids = factsOf(trace, 'producerId').filter(({ f }) => f.client === 'counter');
    expect(ids.map(({ f }) => f.producerId)).toEqual([1001, 1002]);
    expect(ids[1]?.t).toBeGreaterThan(migrated?.t ?? Number.POSITIVE_INFINITY);
  });

  it('view-2 is processed again by the re-created task and committed once; nothing is lost', () => {
    const verdict = summarize(trace).verdict;
    const layer = (name: string) => verdict.layers.find((l) => l.layer === name);
    expect(layer('output')?.status).toBe('once');
    expect(layer('loss')?.status).toBe('once');
    expect(layer('processing')?.sentence).toContain('view-2 processed twice; its count store counts each event once');
  });
});
