import { findPreset } from '../src/sim/presets';

/**
 * Scenarios for looking at the timeline on the benchmark page (`timeline.html?scenario=<id>`):
 * transactions committed, aborted and left open, a lost ProduceResponse and a read_committed reader,
 * so every kind of cell, marker and arrow shows up; and the opening story with its first ack lost.
 */
export const BENCH_SCENARIOS: Record<string, unknown> = {
  'timeline-transactions': {
    version: 1,
    id: 'timeline-transactions',
    title: 'Every mark of the timeline',
    seed: 3,
    topics: [{ name: 'orders', partitions: 2 }],
    clients: [
      {
        id: 'payments',
        type: 'producer',
        config: { 'transactional.id': 'payments-1' },
        script: [
          { op: 'beginTransaction' },
          { op: 'send', topic: 'orders', key: 'a-{i}', value: 'v{i}', partition: 0, count: 3, headers: { event_id: 'evt-{i}' } },
          { op: 'commitTransaction' },
          { op: 'beginTransaction' },
          { op: 'send', topic: 'orders', key: 'b-{i}', value: 'v{i}', partition: 0, count: 2 },
          { op: 'abortTransaction' },
          { op: 'beginTransaction' },
          { op: 'send', topic: 'orders', key: 'c-{i}', value: 'v{i}', partition: 1, count: 2 },
          { op: 'sleep', ms: 100000 },
        ],
      },
      {
        id: 'plain',
        type: 'producer',
        config: {},
        script: [{ op: 'send', topic: 'orders', key: 'p', value: 'plain', partition: 1, delayMs: 30 }],
      },
      {
        id: 'reader',
        type: 'consumer',
        config: { 'group.id': 'readers', 'isolation.level': 'read_committed', 'auto.offset.reset': 'earliest' },
        topics: ['orders'],
        processing: { mode: 'at-least-once' },
      },
    ],
    faults: [{ type: 'drop', rpc: 'ProduceResponse', nth: 1, note: 'the first ProduceResponse is lost' }],
  },
  'opening-lost-ack': {
    ...(findPreset('opening-story')?.scenario as object),
    id: 'opening-lost-ack',
    faults: [{ type: 'drop', rpc: 'ProduceResponse', nth: 1, note: 'the ack of the first send is lost' }],
  },
  'many-records': {
    version: 1,
    id: 'many-records',
    title: '20,000 records through an idempotent producer and a consumer group',
    seed: 5,
    topics: [{ name: 'orders', partitions: 2 }],
    clients: [
      {
        id: 'orders-service',
        type: 'producer',
        config: { 'enable.idempotence': true },
        script: [{ op: 'send', topic: 'orders', key: 'order-{i}', value: 'v{i}', count: 20000, headers: { event_id: 'evt-{i}' } }],
      },
      {
        id: 'billing',
        type: 'consumer',
        config: { 'group.id': 'billing', 'auto.offset.reset': 'earliest' },
        topics: ['orders'],
        processing: { mode: 'at-least-once' },
      },
    ],
  },
};
