/**
 * A broker's metrics at a step: what an operator's dashboard would have shown of one broker, under
 * Kafka's own MBean names (docs/kafka-model.md, "Client and broker metrics"). Gauges only, read off the
 * broker's state at the step — Kafka computes each of them on read, so nothing is counted along the way:
 *
 * - kafka.server:type=ReplicaManager (ReplicaManager's gauges): PartitionCount (every partition it
 *   hosts), LeaderCount, UnderReplicatedPartitions (led with an ISR smaller than the replicas),
 *   UnderMinIsrPartitionCount and AtMinIsrPartitionCount (led with an ISR below / at the effective
 *   min.insync.replicas, min(min.insync.replicas, replication factor): Partition.effectiveMinIsr),
 *   ProducerIdCount (the producer ids in every hosted log's producer state) and
 *   PartitionsWithLateTransactionsCount (KIP-664: led partitions whose oldest open transaction's producer
 *   last wrote more than transaction.max.timeout.ms + 5 minutes ago — ProducerStateManager.hasLateTransaction).
 * - kafka.cluster:type=Partition,topic=…,partition=… (Partition's gauges): LastStableOffsetLag, the
 *   high watermark minus the last stable offset of its log (UnifiedLog.lastStableOffsetLag) — how far a
 *   read_committed consumer is held back behind an open transaction while plain writes go on.
 *
 * A broker that is down shows nothing (its beans went with it). The model's brokers without replicated
 * topics hold one replica of each partition and lead it; __transaction_state and __consumer_offsets are
 * on the brokers only when they are replicated (otherwise the coordinator processes hold them, and no
 * broker counts them).
 */
import type { BrokerContext } from '../broker/broker.machine';
import type { ActorId } from '../kernel/envelope';
import { processOf } from '../kernel/faults';
import { lastStableOffset, type PartitionLog } from '../log/partitionLog';
import type { Language } from '../narration/language';
import { keyOf } from '../protocol/topicPartition';
import type { SimView, Trace } from '../run';

/** ProducerStateManager.LATE_TRANSACTION_BUFFER_MS: a transaction is late this long past the largest timeout. */
export const LATE_TRANSACTION_BUFFER_MS = 5 * 60 * 1000;

export type BrokerMetricGroup = 'kafka.server:type=ReplicaManager' | 'kafka.cluster:type=Partition';

export interface BrokerMetric {
  readonly group: BrokerMetricGroup;
  /** Kafka's name, exactly as it registers it. */
  readonly name: string;
  readonly value: number;
  /** A partition's gauge (tags topic and partition): the partition, as `topic-partition`. */
  readonly partition?: string;
}

export interface BrokerMetrics {
  readonly broker: ActorId;
  /** The broker is down at the step: its metrics went with it. */
  readonly down: boolean;
  readonly metrics: readonly BrokerMetric[];
}

/** Kafka's meaning of each gauge (its documentation's words), and the model's reading in Korean. */
export const BROKER_METRIC_MEANINGS: Readonly<Record<string, Readonly<Record<Language, string>>>> = {
  PartitionCount: { en: 'Number of partitions on this broker.', ko: '이 브로커에 있는 파티션 수.' },
  LeaderCount: { en: 'Number of partitions this broker leads.', ko: '이 브로커가 리더인 파티션 수.' },
  UnderReplicatedPartitions: {
    en: 'Partitions this broker leads whose ISR is smaller than their replicas.',
    ko: '이 브로커가 리더이고 ISR이 복제본 수보다 작은 파티션 수.',
  },
  UnderMinIsrPartitionCount: {
    en: 'Partitions this broker leads whose ISR is below min.insync.replicas: acks=all writes fail NOT_ENOUGH_REPLICAS.',
    ko: '이 브로커가 리더이고 ISR이 min.insync.replicas보다 작은 파티션 수: acks=all 쓰기는 NOT_ENOUGH_REPLICAS로 실패합니다.',
  },
  AtMinIsrPartitionCount: {
    en: 'Partitions this broker leads whose ISR is exactly min.insync.replicas: one more replica out and acks=all writes fail.',
    ko: '이 브로커가 리더이고 ISR이 min.insync.replicas와 같은 파티션 수: 복제본 하나만 더 빠지면 acks=all 쓰기가 실패합니다.',
  },
  ProducerIdCount: {
    en: 'Producer ids in the producer state of the logs on this broker (what idempotence remembers).',
    ko: '이 브로커의 로그들이 프로듀서 상태에 기억하는 프로듀서 ID 수 (멱등성이 기억하는 것).',
  },
  PartitionsWithLateTransactionsCount: {
    en: 'Partitions this broker leads with a transaction open longer than transaction.max.timeout.ms + 5 minutes (a hanging transaction, KIP-664).',
    ko: '이 브로커가 리더이고 transaction.max.timeout.ms + 5분보다 오래 열린 트랜잭션이 있는 파티션 수 (멈춘 트랜잭션, KIP-664).',
  },
  LastStableOffsetLag: {
    en: 'High watermark minus Last Stable Offset of this log: how many offsets a read_committed consumer cannot read yet because a transaction before them is open.',
    ko: '이 로그의 하이 워터마크에서 LSO를 뺀 값: 앞에 열린 트랜잭션이 있어 read_committed 컨슈머가 아직 읽지 못하는 offset 수.',
  },
};

/** What a led partition's ISR checks need: its ISR and replica counts and its min.insync.replicas. */
interface Leadership {
  readonly isr: number;
  readonly replicas: number;
  readonly minIsr: number;
}

/** The partitions `broker` leads at the step, by key: its replication's `leading`, or every log of a broker without replicated topics. */
function leaderships(ctx: BrokerContext, trace: Pick<Trace, 'resolved'>): Map<string, Leadership> {
  const out = new Map<string, Leadership>();
  for (const [key, log] of Object.entries(ctx.partitions)) {
    if (log.epochs !== undefined) continue; // replicated: `leading` says
    const minIsr = trace.resolved.topics[log.topic]?.['min.insync.replicas'] ?? trace.resolved.cluster['min.insync.replicas'];
    out.set(key, { isr: 1, replicas: 1, minIsr });
  }
  for (const [key, p] of Object.entries(ctx.replication?.leading ?? {}))
    out.set(key, { isr: p.isr.length, replicas: p.replicas.length, minIsr: p.minInsyncReplicas });
  return out;
}

/** ProducerStateManager.hasLateTransaction: the oldest open transaction's producer last wrote too long ago. */
export function hasLateTransaction(log: PartitionLog, nowMs: number, maxTransactionTimeoutMs: number): boolean {
  let oldest: { firstOffset: number; lastTimestamp: number } | null = null;
  for (const e of log.producers.values())
    if (e.currentTxnFirstOffset !== null && (oldest === null || e.currentTxnFirstOffset < oldest.firstOffset))
      oldest = { firstOffset: e.currentTxnFirstOffset, lastTimestamp: e.lastTimestamp };
  return oldest !== null && oldest.lastTimestamp > 0 && nowMs - oldest.lastTimestamp > maxTransactionTimeoutMs + LATE_TRANSACTION_BUFFER_MS;
}

/** Whether `id` is one of the run's brokers. */
export function isBroker(trace: Pick<Trace, 'built'>, id: string): boolean {
  return trace.built.specs.some((s) => s.id === id && s.kind === 'broker');
}

/**
 * The metrics of `broker` at the step `view` shows: the ReplicaManager's gauges, then each hosted
 * partition's LastStableOffsetLag in topic and partition order. Null when `broker` is no broker.
 */
export function brokerMetricsAt(trace: Pick<Trace, 'built' | 'resolved'>, view: SimView, broker: ActorId): BrokerMetrics | null {
  if (!isBroker(trace, broker)) return null;
  if (view.processes.get(processOf(broker))?.down) return { broker, down: true, metrics: [] };
  const ctx = view.actors.get(broker)?.context as BrokerContext | undefined;
  if (!ctx?.partitions) return { broker, down: false, metrics: [] };
  const led = leaderships(ctx, trace);
  const logs = Object.values(ctx.partitions).sort((a, b) => (a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1));
  const maxTimeout = trace.resolved.cluster['transaction.max.timeout.ms'];
  let under = 0;
  let underMin = 0;
  let atMin = 0;
  for (const l of led.values()) {
    const effectiveMinIsr = Math.min(l.minIsr, l.replicas);
    if (l.isr < l.replicas) under++;
    if (l.isr < effectiveMinIsr) underMin++;
    if (l.isr === effectiveMinIsr) atMin++;
  }
  let producerIds = 0;
  let late = 0;
  for (const log of logs) {
    producerIds += log.producers.size;
    if (led.has(keyOf(log)) && hasLateTransaction(log, view.time, maxTimeout)) late++;
  }
  const g = 'kafka.server:type=ReplicaManager';
  const metrics: BrokerMetric[] = [
    { group: g, name: 'PartitionCount', value: logs.length },
    { group: g, name: 'LeaderCount', value: led.size },
    { group: g, name: 'UnderReplicatedPartitions', value: under },
    { group: g, name: 'UnderMinIsrPartitionCount', value: underMin },
    { group: g, name: 'AtMinIsrPartitionCount', value: atMin },
    { group: g, name: 'ProducerIdCount', value: producerIds },
    { group: g, name: 'PartitionsWithLateTransactionsCount', value: late },
  ];
  for (const log of logs)
    metrics.push({
      group: 'kafka.cluster:type=Partition',
      name: 'LastStableOffsetLag',
      value: log.highWatermark - lastStableOffset(log),
      partition: keyOf(log),
    });
  return { broker, down: false, metrics };
}
