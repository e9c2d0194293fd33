/**
 * The benchmark workload: a producer writes `records` records to `input`, and a consumer
 * application in mode exactly-once consumes them and produces each, transformed, to `output` in
 * transactions that carry its input offsets — Kafka's consume-transform-produce pipeline.
 */
import type { Scenario } from '../src/sim/scenario/schema';

/**
 * `gapMs` spaces the sends (a steady stream, one record per `gapMs` of virtual time); 0 sends them
 * all at the same instant (a burst).
 */
export function exactlyOncePipeline(records: number, gapMs = 1, eventIds = false): Scenario {
  return {
    version: 1,
    id: `bench-eos-${records}`,
    title: `Exactly-once pipeline, ${records} records`,
    seed: 1,
    // the consumer joins at once and the producer starts after it, so every run size is the same
    // steady stream from its first record (a 3 s join delay would batch up the first records of
    // every run and make small runs look cheaper per record than large ones)
    cluster: { 'group.initial.rebalance.delay.ms': 0 },
    topics: [
      { name: 'input', partitions: 1 },
      { name: 'output', partitions: 1 },
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
