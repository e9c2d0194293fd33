/**
 * The benchmark workload: a producer writes `records` records to `input`, and a consumer
 * application in mode exactly-once consumes them and produces each, transformed, to `output` in
 * transactions that carry its input offsets — Kafka's consume-transform-produce pipeline.
 */
import type { Scenario } from '../src/sim/scenario/schema';

/**
 * `gapMs` spaces the sends (a steady stream, one record per `gapMs` of virtual time); 0 sends them
 * all at the same instant (a burst). `replicationFactor` 3 puts `input` and `output` on three
 * brokers with min.insync.replicas=2 (the producers' acks=all waits for the ISR, the markers too).
 */
export function exactlyOncePipeline(records: number, gapMs = 1, eventIds = false, replicationFactor: 1 | 3 = 1): Scenario {
  const replicated = replicationFactor > 1;
  return {
    version: 1,
    id: `bench-eos-${records}${replicated ? `-rf${replicationFactor}` : ''}`,
    title: `Exactly-once pipeline, ${records} records${replicated ? `, replication factor ${replicationFactor}` : ''}`,
    seed: 1,
    // the consumer joins at once and the producer starts after it, so every run size is the same
    // steady stream from its first record (a 3 s join delay would batch up the first records of
    // every run and make small runs look cheaper per record than large ones)
    cluster: {
      'group.initial.rebalance.delay.ms': 0,
      ...(replicated ? { brokers: replicationFactor, 'min.insync.replicas': 2 } : {}),
    },
    topics: [
      { name: 'input', partitions: 1, ...(replicated ? { replicationFactor } : {}) },
      { name: 'output', partitions: 1, ...(replicated ? { replicationFactor } : {}) },
    ],
    clients: [
      {
        id: 'source',
        type: 'producer',
        startAt: 100,
        script: [
          {
            op: 'send',
            topic: 'input',
            key: 'k{i}',
            value: 'v{i}',
            ...(eventIds ? { headers: { event_id: 'e{i}' } } : {}),
            count: records,
            ...(gapMs > 0 ? { delayMs: gapMs } : {}),
          },
        ],
      },
      {
        id: 'app',
        type: 'consumer',
        config: { 'group.id': 'app', 'isolation.level': 'read_committed', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
        topics: ['input'],
        processing: { mode: 'exactly-once', outputTopic: 'output', processingMs: 0 },
      },
    ],
    run: { maxSteps: 3000000, maxTimeMs: 86400000 },
  };
}
