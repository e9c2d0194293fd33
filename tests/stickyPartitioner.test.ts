/**
 * The built-in partitioner's sticky partition for records of no key, against Kafka's client
 * (BuiltInPartitioner.nextPartition, peekCurrentPartitionInfo): it is chosen among the partitions
 * with a leader in the producer's metadata (Cluster.availablePartitionsForTopic). The model takes
 * the next such partition in order where Kafka picks one at random.
 */
import { describe, expect, it } from 'vitest';
import type { ClusterMetadata } from '../src/sim/cluster/metadata';
import { nextStickyPartition } from '../src/sim/producer/partitioner';
import { choosePartition } from '../src/sim/producer/sender';
import type { Scenario } from '../src/sim/scenario/schema';
import { producerDraft } from './fixtures/producerDraft';
import { runWith } from './presets/helpers';

const B = 'broker-0';

function metaWith(leaders: (string | null)[]): ClusterMetadata {
  return {
    brokers: [B],
    topics: { orders: { name: 'orders', partitions: leaders.length, leaders } },
    transactionCoordinator: 'txn-coordinator',
    groupCoordinator: 'group-coordinator',
    transactionStatePartitions: 3,
    consumerOffsetsPartitions: 3,
  };
}

/** A record of no key and `bytes` bytes as batch.size counts them (20 + the value's length). */
const keyless = (bytes: number) => ({ topic: 'orders', key: null, value: 'x'.repeat(bytes - 20) });

describe('the sticky partition is one with a leader in the producer’s metadata (availablePartitionsForTopic)', () => {
  it('the first sticky partition is the first with a leader (peekCurrentPartitionInfo → nextPartition)', () => {
    const d = producerDraft(metaWith([null, B, B]));
    expect(choosePartition(d, keyless(30), 30).partition).toBe(1);
  });

  it('a switch passes over a partition whose leader is unknown (leader -1 in the MetadataResponse: null here)', () => {
    const d = producerDraft(metaWith([B, null, B]), { 'batch.size': 100 });
    d.sticky = { orders: { partition: 0, bytes: 100 } };
    // the queue of partition 0 is empty, so its batches are all full: the switch is due before this record
    const chosen = choosePartition(d, keyless(30), 30);
    expect(chosen.partition).toBe(2);
    expect(chosen.sticky.orders).toEqual({ partition: 2, bytes: 30 });
  });

  it('next in order among the partitions with a leader, the current one last; all partitions when none has one', () => {
    const meta = metaWith([null, B, null, B]);
    expect(nextStickyPartition(meta, 'orders', null)).toBe(1);
    expect(nextStickyPartition(meta, 'orders', 1)).toBe(3);
    expect(nextStickyPartition(meta, 'orders', 3)).toBe(1);
    expect(nextStickyPartition(metaWith([null, B, null]), 'orders', 1)).toBe(1);
    const none = metaWith([null, null, null]);
    expect(nextStickyPartition(none, 'orders', null)).toBe(0);
    expect(nextStickyPartition(none, 'orders', 2)).toBe(0);
  });

  it('a keyed record counts every partition, with a leader or not (partitionForKey)', () => {
    const d = producerDraft(metaWith([null, null, null]));
    // toPositive(murmur2("a-little-bit-long-string")) % 3 = 2 (Kafka's test vector)
    expect(choosePartition(d, { topic: 'orders', key: 'a-little-bit-long-string', value: 'v' }, 45).partition).toBe(2);
  });
});

describe('a producer that knows a partition has no leader sends no record of no key there', () => {
  // three brokers, logs on RF 2: broker-1 and broker-2 crash at 100 ms, so logs-1 (replicas on them)
  // has no live replica; the producer learns it at its metadata.max.age.ms refresh, then sends
  const scenario = {
    version: 1,
    id: 'sticky-leaderless',
    seed: 1,
    cluster: { brokers: 3 },
    topics: [{ name: 'logs', partitions: 3, replicationFactor: 2 }],
    clients: [
      {
        id: 'log-shipper',
        type: 'producer',
        config: { 'batch.size': 60, 'linger.ms': 0, 'request.timeout.ms': 5000, 'delivery.timeout.ms': 10000, 'metadata.max.age.ms': 5000 },
        script: [
          { op: 'send', topic: 'logs', key: null, value: 'line-{i}-xxxxxxxxxxxxxxxxxxxx', headers: { event_id: 'l{i}' } },
          { op: 'sleep', ms: 15000 },
          {
            op: 'send',
            topic: 'logs',
            key: null,
            value: 'line-{i}-xxxxxxxxxxxxxxxxxxxx',
            headers: { event_id: 'm{i}' },
            count: 6,
            delayMs: 50,
          },
          { op: 'flush' },
        ],
      },
    ],
    faults: [
      { type: 'crash', target: 'broker-1', at: 100, durationMs: 120000 },
      { type: 'crash', target: 'broker-2', at: 100, durationMs: 120000 },
    ],
  } as unknown as Scenario;

  it('every record goes to logs-0 or logs-2 and is acknowledged: nothing is lost', () => {
    const r = runWith(scenario);
    const events = (tp: string) => r.data(tp).map((x) => x.headers.event_id);
    expect(events('logs-1')).toEqual([]);
    expect(events('logs-0')).toEqual(['l0', 'm0', 'm3', 'm4']);
    expect(events('logs-2')).toEqual(['m1', 'm2', 'm5']);
    expect(r.facts('sendResult').filter((f) => f.error !== null)).toEqual([]);
    expect(r.layer('loss')?.status).toBe('once');
  });
});
