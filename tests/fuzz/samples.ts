/**
 * Valid scenarios to mutate: one that uses every part of the format (so that "a wrong type at every
 * path" reaches every field the schema knows), the shipped presets, and a few random ones.
 */
import fc from 'fast-check';
import { PRESETS } from '../../src/sim/presets';
import type { Scenario } from '../../src/sim/scenario/schema';
import { scenarioArb } from '../properties/arbitraries';

export const RICH_SCENARIO: Scenario = {
  version: 1,
  id: 'rich-sample',
  title: 'Every field of the format',
  question: 'Does the validator survive anything?',
  expected: 'Typed errors or a valid scenario.',
  description: 'A scenario that touches every part of the format.',
  seed: 42,
  cluster: { brokers: 2, 'transaction.version': 1, 'transaction.partition.verification.enable': false },
  network: { latencyMs: 2, jitterMs: 1, links: [{ from: 'p1', to: 'broker-0', latencyMs: 5 }] },
  topics: [
    { name: 'orders', partitions: 2, startOffset: 100, leaders: [0, 1], config: { 'cleanup.policy': 'compact' } },
    { name: 'out', partitions: 1 },
  ],
  clients: [
    {
      id: 'p1',
      type: 'producer',
      config: { 'enable.idempotence': true, acks: 'all', 'transactional.id': 'tx-1', 'transaction.timeout.ms': 10000 },
      script: [
        { op: 'beginTransaction', at: 10 },
        { op: 'send', topic: 'orders', key: 'k{i}', value: 'v{i}', headers: { event_id: 'e-1' }, partition: 1, count: 2, note: 'two' },
        { op: 'resend', eventId: 'e-1', delayMs: 5 },
        { op: 'flush' },
        { op: 'commitTransaction' },
        { op: 'sleep', ms: 100 },
        { op: 'beginTransaction' },
        { op: 'abortTransaction' },
        { op: 'restart' },
      ],
    },
    {
      id: 'c1',
      type: 'consumer',
      config: { 'group.id': 'g', 'isolation.level': 'read_committed', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
      topics: ['orders'],
      processing: {
        mode: 'exactly-once',
        sink: 'db',
        outputTopic: 'out',
        processingMs: 3,
        producerConfig: { 'transaction.timeout.ms': 5000 },
      },
      startAt: 50,
    },
  ],
  sinks: [{ id: 'db', type: 'database', mode: 'inbox', latencyMs: 2 }],
  faults: [
    { type: 'drop', rpc: 'ProduceResponse', from: 'broker-0', to: 'p1', nth: 1, count: 1, where: { partition: 1 }, note: 'lost ack' },
    { type: 'delay', rpc: 'WriteTxnMarkers', delayMs: 500 },
    { type: 'duplicate', rpc: 'EndTxn', nth: 2 },
    { type: 'crash', target: 'c1', point: 'afterSendOffsets', where: { offset: 100 }, nth: 1, durationMs: 1000 },
    { type: 'crash', target: 'txn-coordinator', at: 300, durationMs: 200 },
    { type: 'pause', target: 'broker-1', at: 20, durationMs: 100 },
    { type: 'resume', target: 'broker-1', at: 400 },
    { type: 'restart', target: 'p1', at: 900 },
    { type: 'runCleaner', at: 1000, topic: 'orders', partition: 0 },
  ],
  run: { maxTimeMs: 60000, maxSteps: 5000, settleMs: 1000, checkpointEvery: 64 },
};

/** The valid scenarios the mutations start from. */
export function validScenarios(): Scenario[] {
  return [RICH_SCENARIO, ...PRESETS.map((p) => p.scenario), ...fc.sample(scenarioArb, { numRuns: 4, seed: 99 })];
}
