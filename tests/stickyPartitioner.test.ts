/**
 * The built-in partitioner's sticky partition for records of no key, against Kafka's client
 * (BuiltInPartitioner.nextPartition, peekCurrentPartitionInfo, updatePartitionInfo;
 * RecordAccumulator.append, partitionChanged, allBatchesFull, tryAppend): it is chosen among the
 * partitions with a leader in the producer's metadata (Cluster.availablePartitionsForTopic), and it
 * switches after batch.size bytes only once the partition's last batch is full — at 2 × batch.size
 * regardless. The model takes the next such partition in order where Kafka picks one at random.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../src/sim/actors/out';
import type { ClusterMetadata } from '../src/sim/cluster/metadata';
import { nextStickyPartition } from '../src/sim/producer/partitioner';
import { EMPTY_QUEUE, queueTake } from '../src/sim/producer/recordAccumulator';
import { accumulate, choosePartition, drain, type ProducerDraft } from '../src/sim/producer/sender';
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

/** Appends records of these sizes (nothing drains: linger.ms is long) and gives the partition of each. */
function partitionsOf(d: ProducerDraft, sizes: number[]): number[] {
  return sizes.map((bytes) => accumulate(d, keyless(bytes), 0, new Out()).partition);
}

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

describe('the sticky partition switches once batch.size bytes went to it and its last batch is full (updatePartitionInfo)', () => {
  const producer = (leaders: (string | null)[] = [B, B, B]) => producerDraft(metaWith(leaders), { 'batch.size': 100, 'linger.ms': 60000 });

  it('a record that fits the open last batch stays, past batch.size; the one that closes it moves on', () => {
    // batches of 40+40 and 40+40 on partition 0: 120 bytes after the third record, but its batch is
    // not full (enableSwitch false); the fifth does not fit, closes the batch (allBatchesFull), and the
    // held-back switch happens before it is appended (partitionChanged)
    expect(partitionsOf(producer(), [40, 40, 40, 40, 40, 40])).toEqual([0, 0, 0, 0, 1, 1]);
  });

  it('a batch filled to exactly batch.size is full: the switch comes right after the record that filled it', () => {
    expect(partitionsOf(producer(), [50, 50, 50])).toEqual([0, 0, 1]);
  });

  it('a batch of one record is never full (its write limit is above its size): a large record stays until the next', () => {
    expect(partitionsOf(producer(), [150, 30, 30])).toEqual([0, 1, 1]);
  });

  it('switches at 2 × batch.size even while the last batch is not full (keyed records opened it)', () => {
    const d = producer();
    const sent: number[] = [];
    sent.push(accumulate(d, keyless(90), 0, new Out()).partition);
    // a record for partition 0 (explicit or keyed) that does not fit opens a batch the sticky records then fill
    accumulate(d, { ...keyless(30), partition: 0 }, 0, new Out());
    sent.push(accumulate(d, keyless(60), 0, new Out()).partition);
    accumulate(d, { ...keyless(20), partition: 0 }, 0, new Out());
    // 90 + 60 + 60 = 210 bytes produced to partition 0, its last batch (20 + 60) not full
    sent.push(accumulate(d, keyless(60), 0, new Out()).partition);
    sent.push(accumulate(d, keyless(60), 0, new Out()).partition);
    expect(sent).toEqual([0, 0, 0, 1]);
  });

  it('a switch held back is done once the partition’s batches were drained (allBatchesFull on an empty deque)', () => {
    const d = producerDraft(metaWith([B, B, B]), { 'batch.size': 100 });
    expect(partitionsOf(d, [40, 40, 40])).toEqual([0, 0, 0]);
    drain(d, 0, new Out());
    expect(d.accumulating['orders-0']?.bytes ?? 0).toBe(0);
    expect(partitionsOf(d, [40])).toEqual([1]);
  });

  it('the batch a record closed before switching away stays closed: a later record for that partition opens a new one', () => {
    const d = producer();
    // 60 | 60 on partition 0; the 50 does not fit the second batch, closes it and goes to partition 1
    expect(partitionsOf(d, [60, 60, 50])).toEqual([0, 0, 1]);
    const small = accumulate(d, { ...keyless(30), partition: 0 }, 0, new Out());
    expect(small.partition).toBe(0);
    let q = d.accumulating['orders-0'] ?? EMPTY_QUEUE;
    const batches: number[][] = [];
    while (q.records.length > q.head) {
      const { taken, rest } = queueTake(q, 100);
      batches.push(taken.map((r) => r.bytes));
      q = rest;
    }
    expect(batches).toEqual([[60], [60], [30]]);
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

describe('with a long linger.ms the sticky partition keeps records until its second batch closes', () => {
  // ten records of 219 bytes (batch.size 600: two fit a batch), all sent at once, linger.ms 1000
  const scenario = {
    version: 1,
    id: 'sticky-linger',
    seed: 1,
    topics: [{ name: 'logs', partitions: 3 }],
    clients: [
      {
        id: 'log-shipper',
        type: 'producer',
        config: { 'batch.size': 600, 'linger.ms': 1000 },
        script: [
          { op: 'send', topic: 'logs', key: null, value: `line-{i}-${'x'.repeat(180)}`, headers: { event_id: 'l{i}' }, count: 10 },
          { op: 'flush' },
        ],
      },
    ],
  } as unknown as Scenario;

  it('four records per partition (2 batches of 2): the fifth closes the second batch past batch.size and moves on', () => {
    const r = runWith(scenario);
    const events = (tp: string) => r.data(tp).map((x) => x.headers.event_id);
    expect(events('logs-0')).toEqual(['l0', 'l1', 'l2', 'l3']);
    expect(events('logs-1')).toEqual(['l4', 'l5', 'l6', 'l7']);
    expect(events('logs-2')).toEqual(['l8', 'l9']);
  });
});
