/**
 * A broker's JMX gauges (sim/metrics/brokerMetrics.ts), each as Kafka computes it on read:
 * ReplicaManager's counts over the partitions the broker leads (Partition.isUnderReplicated,
 * isUnderMinIsr and isAtMinIsr against effectiveMinIsr = min(min.insync.replicas, replication factor)),
 * ProducerIdCount over every hosted log, PartitionsWithLateTransactionsCount
 * (ProducerStateManager.hasLateTransaction: strictly more than transaction.max.timeout.ms + 5 minutes
 * since the oldest open transaction's producer last wrote), and each log's LastStableOffsetLag (HW − LSO).
 */
import { describe, expect, it } from 'vitest';
import type { PartitionLog } from '../../src/sim/log/partitionLog';
import { brokerMetricsAt, hasLateTransaction, LATE_TRANSACTION_BUFFER_MS } from '../../src/sim/metrics/brokerMetrics';
import { findPreset } from '../../src/sim/presets';
import { runScenario, type SimView, stateAt, type Trace } from '../../src/sim/run';

const MAX_TIMEOUT = 900000;

/** A log with only what the gauges read: its offsets and the producers' open transactions. */
function log(
  topic: string,
  partition: number,
  o: { hw?: number; openTxns?: { firstOffset: number; lastTimestamp: number }[]; producers?: number; replicated?: boolean } = {},
): PartitionLog {
  const producers = new Map<number, unknown>();
  for (const [i, t] of (o.openTxns ?? []).entries())
    producers.set(100 + i, { currentTxnFirstOffset: t.firstOffset, lastTimestamp: t.lastTimestamp });
  for (let i = 0; i < (o.producers ?? 0); i++) producers.set(200 + i, { currentTxnFirstOffset: null, lastTimestamp: 1 });
  return {
    topic,
    partition,
    highWatermark: o.hw ?? 0,
    producers,
    ...(o.replicated ? { epochs: [] } : {}),
  } as unknown as PartitionLog;
}

const leading = (topic: string, isr: number, replicas: number, minIsr: number) => ({
  topic,
  partition: 0,
  isr: Array.from({ length: isr }, (_, i) => `broker-${i}`),
  replicas: Array.from({ length: replicas }, (_, i) => `broker-${i}`),
  minInsyncReplicas: minIsr,
});

/** A one-broker trace and a view of it holding `partitions` (and `led`: replicated partitions it leads). */
function fixture(
  partitions: PartitionLog[],
  led: ReturnType<typeof leading>[] = [],
  o: { time?: number; down?: boolean; topicMinIsr?: number } = {},
): { trace: Pick<Trace, 'built' | 'resolved'>; view: SimView } {
  const trace = {
    built: { specs: [{ id: 'broker-0', kind: 'broker' }] },
    resolved: {
      cluster: { 'transaction.max.timeout.ms': MAX_TIMEOUT, 'min.insync.replicas': 1 },
      topics: Object.fromEntries(partitions.map((p) => [p.topic, { 'min.insync.replicas': o.topicMinIsr ?? 1 }])),
    },
  } as unknown as Pick<Trace, 'built' | 'resolved'>;
  const context = {
    partitions: Object.fromEntries(partitions.map((p) => [`${p.topic}-${p.partition}`, p])),
    ...(led.length > 0 ? { replication: { leading: Object.fromEntries(led.map((l) => [`${l.topic}-0`, l])) } } : {}),
  };
  const view = {
    step: 1,
    time: o.time ?? 0,
    actors: new Map([['broker-0', { value: 'running', context }]]),
    processes: new Map([['broker-0', { down: o.down ?? false, paused: false, incarnation: 0 }]]),
    inFlight: [],
  } as unknown as SimView;
  return { trace, view };
}

const gauges = (f: ReturnType<typeof fixture>) =>
  Object.fromEntries(
    (brokerMetricsAt(f.trace, f.view, 'broker-0')?.metrics ?? []).map((m) => [m.partition ? `${m.name} ${m.partition}` : m.name, m.value]),
  );

describe('ReplicaManager gauges', () => {
  it('ISR checks against the effective min ISR: min.insync.replicas above the replication factor counts as the factor', () => {
    // RF 2, min.insync.replicas 3: effectiveMinIsr 2 — a full ISR is at it, not under it
    expect(gauges(fixture([log('a', 0, { replicated: true })], [leading('a', 2, 2, 3)]))).toMatchObject({
      LeaderCount: 1,
      UnderReplicatedPartitions: 0,
      UnderMinIsrPartitionCount: 0,
      AtMinIsrPartitionCount: 1,
    });
    // RF 3, min ISR 2: ISR 2 is under-replicated and at min; ISR 1 under min
    expect(gauges(fixture([log('a', 0, { replicated: true })], [leading('a', 2, 3, 2)]))).toMatchObject({
      UnderReplicatedPartitions: 1,
      UnderMinIsrPartitionCount: 0,
      AtMinIsrPartitionCount: 1,
    });
    expect(gauges(fixture([log('a', 0, { replicated: true })], [leading('a', 1, 3, 2)]))).toMatchObject({
      UnderReplicatedPartitions: 1,
      UnderMinIsrPartitionCount: 1,
      AtMinIsrPartitionCount: 0,
    });
  });

  it('a replicated log the broker follows counts in PartitionCount and ProducerIdCount, not in the leader gauges', () => {
    const f = fixture(
      [log('a', 0, { replicated: true, producers: 2 }), log('b', 0, { replicated: true, producers: 1 })],
      [leading('a', 3, 3, 2)],
    );
    expect(gauges(f)).toMatchObject({ PartitionCount: 2, LeaderCount: 1, ProducerIdCount: 3, AtMinIsrPartitionCount: 0 });
  });

  it('a one-replica log is led by its broker, and its one replica is the effective min ISR', () => {
    expect(gauges(fixture([log('a', 0)], [], { topicMinIsr: 2 }))).toMatchObject({
      LeaderCount: 1,
      UnderReplicatedPartitions: 0,
      UnderMinIsrPartitionCount: 0,
      AtMinIsrPartitionCount: 1,
    });
  });

  it('a broker that is down shows nothing; no broker, no metrics', () => {
    const f = fixture([log('a', 0)], [], { down: true });
    expect(brokerMetricsAt(f.trace, f.view, 'broker-0')).toEqual({ broker: 'broker-0', down: true, metrics: [] });
    expect(brokerMetricsAt(f.trace, f.view, 'broker-1')).toBeNull();
  });
});

describe('PartitionsWithLateTransactionsCount (KIP-664)', () => {
  const late = MAX_TIMEOUT + LATE_TRANSACTION_BUFFER_MS;

  it('late only strictly past transaction.max.timeout.ms + 5 minutes since the oldest open transaction’s producer last wrote', () => {
    const l = log('a', 0, { openTxns: [{ firstOffset: 4, lastTimestamp: 1000 }] });
    expect(hasLateTransaction(l, 1000 + late, MAX_TIMEOUT)).toBe(false);
    expect(hasLateTransaction(l, 1000 + late + 1, MAX_TIMEOUT)).toBe(true);
  });

  it('the oldest open transaction is the one with the lowest first offset, whatever the others’ times', () => {
    const l = log('a', 0, {
      openTxns: [
        { firstOffset: 9, lastTimestamp: 1 },
        { firstOffset: 2, lastTimestamp: 50000 },
      ],
    });
    expect(hasLateTransaction(l, 1 + late + 1, MAX_TIMEOUT)).toBe(false);
    expect(hasLateTransaction(l, 50000 + late + 1, MAX_TIMEOUT)).toBe(true);
  });

  it('no open transaction, or one whose producer never wrote a timestamp (NO_TIMESTAMP), is never late', () => {
    expect(hasLateTransaction(log('a', 0, { producers: 3 }), 10 * late, MAX_TIMEOUT)).toBe(false);
    expect(hasLateTransaction(log('a', 0, { openTxns: [{ firstOffset: 0, lastTimestamp: -1 }] }), 10 * late, MAX_TIMEOUT)).toBe(false);
  });

  it('counted on the partitions the broker leads only', () => {
    const open = { openTxns: [{ firstOffset: 0, lastTimestamp: 10 }], replicated: true };
    const f = fixture([log('a', 0, open), log('b', 0, open)], [leading('a', 1, 1, 1)], { time: 10 + late + 1 });
    expect(gauges(f).PartitionsWithLateTransactionsCount).toBe(1);
  });
});

describe('LastStableOffsetLag on runs', () => {
  it('open-transaction-pins-lso: HW − LSO is the plain records behind the open transaction, then 0 after the COMMIT marker', () => {
    const trace = runScenario(findPreset('open-transaction-pins-lso')?.scenario ?? {});
    const lag = (s: number) => brokerMetricsAt(trace, stateAt(trace, s), 'broker-0')?.metrics.find((m) => m.name === 'LastStableOffsetLag');
    expect(lag(0)).toMatchObject({ partition: 'events-0', value: 0, group: 'kafka.cluster:type=Partition' });
    let max = 0;
    let at = -1;
    for (let s = 0; s <= trace.steps.length; s++) {
      const v = lag(s)?.value ?? 0;
      if (v > max) {
        max = v;
        at = s;
      }
    }
    // the transaction's record at 0 and the two clicks at 1 and 2: the HW is 3, the LSO 0
    expect(max).toBe(3);
    expect(stateAt(trace, at).time).toBeLessThan(8000);
    expect(lag(trace.steps.length)?.value).toBe(0);
  });

  it('min-insync-blocks-writes: the leader under its min ISR says so while acks=all writes are refused', () => {
    const trace = runScenario(findPreset('min-insync-blocks-writes')?.scenario ?? {});
    const at = (s: number) =>
      Object.fromEntries((brokerMetricsAt(trace, stateAt(trace, s), 'broker-0')?.metrics ?? []).map((m) => [m.name, m.value]));
    // every step a Produce was answered NOT_ENOUGH_REPLICAS, the gauge reads 1
    let refused = 0;
    for (let s = 0; s < trace.steps.length; s++) {
      const st = trace.steps.at(s);
      const produceRefused = st?.facts.some((f) => f.kind === 'rejected' && (f as { error?: string }).error === 'NOT_ENOUGH_REPLICAS');
      if (!produceRefused) continue;
      refused++;
      expect(at(s + 1)).toMatchObject({ UnderMinIsrPartitionCount: 1, UnderReplicatedPartitions: 1 });
    }
    expect(refused).toBeGreaterThan(0);
    expect(at(1)).toMatchObject({ UnderMinIsrPartitionCount: 0, UnderReplicatedPartitions: 0 });
  });
});
