/**
 * The metrics view: what a Kafka operator's dashboards would have shown of one client at a step, under
 * Kafka's own metric names (docs/kafka-model.md, "Client and broker metrics"). These are the model's counts at the
 * points where Kafka 4.x records each sensor — not Kafka's Metrics library: no rates, averages or
 * windows, only the cumulative totals and the latest values of gauges.
 *
 * - producer-metrics (SenderMetricsRegistry; Sender.SenderMetrics, KafkaProducer.doSend's `errors`):
 *   record-send-total, record-retry-total, record-error-total — the producer's own counters
 *   (ProducerContext.recordCounts), counted where Kafka's sensors record.
 * - consumer-fetch-manager-metrics (FetchMetricsRegistry; FetchMetricsManager): records-consumed-total —
 *   the consumer's counter (ConsumerContext.consumerCounts), and over the whole run (across restarts) from
 *   the `delivered` facts: the trace's accumulators (../trace/viewAccumulators), folded once per trace,
 *   answer the count as of a step by binary search. Per assigned partition (tags topic, partition):
 *   records-lag — the last stable offset (read_committed) or high watermark (read_uncommitted) its last
 *   fetch reported, minus its position (SubscriptionState.partitionLag, recorded by
 *   FetchCollector.fetchRecords) — and records-lead, the position minus the log start offset
 *   (partitionLead). Kafka records them when poll() takes up a fetch and keeps the last value; the view
 *   computes them from the position and the offsets last reported (ConsumerContext.fetchedEnds), which
 *   is the same value after every poll() that returned the partition's fetch, and shows none for a
 *   partition without a position or not yet fetched.
 * - consumer-coordinator-metrics (AbstractCoordinator.GroupCoordinatorMetrics, ConsumerCoordinator's
 *   ConsumerCoordinatorMetrics): join-total, sync-total, rebalance-total, failed-rebalance-total,
 *   commit-total, and the assigned-partitions gauge — for a consumer with a group.id.
 *
 * A client's counters are its instance's, as its JMX beans are: a restarted client starts again from 0
 * (a new KafkaProducer / KafkaConsumer registers new sensors). A view reads the snapshot at the step
 * (the counters) and one prefix count, so it costs the same at the last step of a long run as at the first.
 */
import type { ConsumerContext } from '../consumer/consumerContext';
import { processOf } from '../kernel/faults';
import type { Language } from '../narration/language';
import type { ProducerContext } from '../producer/producerContext';
import { keyOf } from '../protocol/topicPartition';
import type { SimView, Trace } from '../run';
import { accumulatorsOf } from '../trace/summary';

/** Kafka's metric groups the view reads from (the `type=` of their JMX beans' names). */
export const METRIC_GROUPS = ['producer-metrics', 'consumer-fetch-manager-metrics', 'consumer-coordinator-metrics'] as const;
export type MetricGroup = (typeof METRIC_GROUPS)[number];

export interface ClientMetric {
  readonly group: MetricGroup;
  /** Kafka's name, exactly as it registers it. */
  readonly name: string;
  readonly value: number;
  /** For a partition's metric (tags topic and partition): the partition, as `topic-partition`. */
  readonly partition?: string;
  /**
   * For records-consumed-total: the records this client id received over the run so far, across its
   * restarts (what a dashboard that sums the counter over its resets shows); absent otherwise.
   */
  readonly overRun?: number;
}

/** One client's metrics at a step: its producer's and its consumer's (each absent when it has none). */
export interface ClientMetrics {
  readonly client: string;
  /** The client's process is down at the step: its metrics went with it (nothing to show). */
  readonly down: boolean;
  readonly metrics: readonly ClientMetric[];
}

/** Kafka's one-line descriptions of the metrics (the registries' texts), and the model's reading in Korean. */
export const METRIC_MEANINGS: Readonly<Record<string, Readonly<Record<Language, string>>>> = {
  'record-send-total': {
    en: 'The total number of records sent (every record drained into a Produce request, a retried one again).',
    ko: '보낸 레코드의 총수 (Produce 요청에 담긴 레코드마다, 재시도한 레코드는 다시 셈).',
  },
  'record-retry-total': {
    en: 'The total number of retried record sends (records of the batches sent again after a retriable error).',
    ko: '재시도한 레코드 전송의 총수 (재시도 가능한 오류 뒤 다시 보낸 배치의 레코드 수).',
  },
  'record-error-total': {
    en: 'The total number of record sends that resulted in errors.',
    ko: '오류로 끝난 레코드 전송의 총수.',
  },
  'records-consumed-total': {
    en: 'The total number of records consumed (returned to the application by poll()).',
    ko: '소비한 레코드의 총수 (poll()이 애플리케이션에 돌려준 레코드).',
  },
  'records-lag': {
    en: 'The latest lag of the partition: the last stable offset (read_committed) or high watermark (read_uncommitted) its last fetch reported, minus the position.',
    ko: '이 파티션의 최근 지연: 마지막 fetch가 알려 준 LSO(read_committed)나 하이 워터마크(read_uncommitted)에서 현재 위치를 뺀 값.',
  },
  'records-lead': {
    en: 'The latest lead of the partition: the position minus the log start offset its last fetch reported (how far retention is behind the reader).',
    ko: '이 파티션의 최근 선행: 현재 위치에서 마지막 fetch가 알려 준 로그 시작 offset을 뺀 값 (보존 삭제가 읽는 위치에서 얼마나 떨어져 있는지).',
  },
  'assigned-partitions': {
    en: 'The number of partitions currently assigned to this consumer.',
    ko: '지금 이 컨슈머에 할당된 파티션 수.',
  },
  'join-total': {
    en: 'The total number of group joins (JoinGroup answers without error).',
    ko: '그룹 참여(JoinGroup이 오류 없이 응답된 횟수)의 총수.',
  },
  'sync-total': {
    en: 'The total number of group syncs (SyncGroup answers without error).',
    ko: '그룹 동기화(SyncGroup이 오류 없이 응답된 횟수)의 총수.',
  },
  'rebalance-total': {
    en: 'The total number of successful rebalance events, each event is composed of several failed re-trials until it succeeded.',
    ko: '성공한 리밸런스의 총수 (실패한 재시도 여러 번 끝에 성공한 것도 한 번).',
  },
  'failed-rebalance-total': {
    en: "The total number of failed rebalance events (a JoinGroup or SyncGroup refused or lost). A new member's first JoinGroup, answered MEMBER_ID_REQUIRED, counts one: the member joins again at once with the member id it was given.",
    ko: '실패한 리밸런스의 총수 (JoinGroup이나 SyncGroup이 거절되거나 유실됨). 새 멤버의 첫 JoinGroup(MEMBER_ID_REQUIRED 응답)도 하나로 셉니다. 멤버는 받은 멤버 id로 곧바로 다시 참여합니다.',
  },
  'commit-total': {
    en: 'The total number of commit calls (OffsetCommit answers, whatever they say).',
    ko: '커밋 호출의 총수 (응답이 무엇이든 OffsetCommit 응답 수).',
  },
};

const NO_COUNTS = { sent: 0, retried: 0, failed: 0 } as const;

function producerMetrics(ctx: ProducerContext): ClientMetric[] {
  const c = ctx.recordCounts ?? NO_COUNTS;
  const g = 'producer-metrics';
  return [
    { group: g, name: 'record-send-total', value: c.sent },
    { group: g, name: 'record-retry-total', value: c.retried },
    { group: g, name: 'record-error-total', value: c.failed },
  ];
}

function consumerMetrics(trace: Trace, step: number, client: string, ctx: ConsumerContext): ClientMetric[] {
  const c = ctx.consumerCounts;
  // the accumulators' list of what each consumer received, as of the step: one binary search
  const overRun = accumulatorsOf(trace).receivedPage(client, step, null, 0).count;
  const consumed = c?.recordsConsumed ?? 0;
  const out: ClientMetric[] = [
    {
      group: 'consumer-fetch-manager-metrics',
      name: 'records-consumed-total',
      value: consumed,
      ...(overRun !== consumed ? { overRun } : {}),
    },
  ];
  out.push(...partitionLags(ctx));
  // no group.id, no ConsumerCoordinator: its metrics are not registered
  if (!ctx.config['group.id']) return out;
  const g = 'consumer-coordinator-metrics';
  out.push(
    { group: g, name: 'assigned-partitions', value: ctx.assignment.length },
    { group: g, name: 'join-total', value: c?.joins ?? 0 },
    { group: g, name: 'sync-total', value: c?.syncs ?? 0 },
    { group: g, name: 'rebalance-total', value: c?.rebalances ?? 0 },
    { group: g, name: 'failed-rebalance-total', value: c?.failedRebalances ?? 0 },
    { group: g, name: 'commit-total', value: c?.commits ?? 0 },
  );
  return out;
}

/**
 * records-lag and records-lead of each assigned partition that has a position and a fetched answer
 * (FetchMetricsManager.recordPartitionLag / recordPartitionLead; a partition given up loses its
 * sensors, maybeUpdateAssignment), in the assignment's order.
 */
function partitionLags(ctx: ConsumerContext): ClientMetric[] {
  const out: ClientMetric[] = [];
  const g = 'consumer-fetch-manager-metrics';
  const readCommitted = ctx.config['isolation.level'] === 'read_committed';
  for (const tp of ctx.assignment) {
    const name = keyOf(tp);
    const position = ctx.positions[name];
    const ends = ctx.fetchedEnds?.[name];
    if (position === undefined || !ends) continue;
    const end = readCommitted ? ends.lastStableOffset : ends.highWatermark;
    out.push(
      { group: g, name: 'records-lag', value: end - position, partition: name },
      { group: g, name: 'records-lead', value: position - ends.logStartOffset, partition: name },
    );
  }
  return out;
}

/** The scenario client an actor or process id belongs to (`billing.consumer`, `billing` → `billing`), if any. */
export function metricsClientOf(trace: Pick<Trace, 'scenario'>, id: string): string | null {
  const client = processOf(id);
  return trace.scenario.clients.some((c) => c.id === client) ? client : null;
}

/**
 * The metrics of `client` at the step `view` shows: its producer's (producer-metrics), then its
 * consumer's (consumer-fetch-manager-metrics, consumer-coordinator-metrics). Null when the client has
 * neither a producer nor a consumer (or no such client).
 */
export function clientMetricsAt(trace: Trace, view: SimView, client: string): ClientMetrics | null {
  const producer = trace.built.specs.some((s) => s.id === `${client}.producer`);
  const consumer = trace.built.specs.some((s) => s.id === `${client}.consumer`);
  if (!producer && !consumer) return null;
  const proc = view.processes.get(processOf(`${client}.${producer ? 'producer' : 'consumer'}`));
  if (proc?.down) return { client, down: true, metrics: [] };
  const metrics: ClientMetric[] = [];
  const p = view.actors.get(`${client}.producer`)?.context as ProducerContext | undefined;
  if (producer && p) metrics.push(...producerMetrics(p));
  const c = view.actors.get(`${client}.consumer`)?.context as ConsumerContext | undefined;
  if (consumer && c) metrics.push(...consumerMetrics(trace, view.step, client, c));
  return { client, down: false, metrics };
}
