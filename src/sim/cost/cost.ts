/**
 * What a run's guarantee cost, in the model's own virtual time — a pure function of the run's public
 * record (its steps with their facts, its envelopes, the partition logs at the end), so it can later
 * be fed from the recorder's accumulators instead:
 *
 * - per consumer, send() → visible latency: the time a record was delivered to the application minus
 *   the later of its CreateTime (the producer's send()) and the consumer's first poll (its first Fetch),
 *   p50 / p99 / max — a consumer that had not started yet is not a cost of the guarantee, while the
 *   time it lost to a crash or a rebalance after it started is;
 * - for read_committed consumers, the time each record waited behind the LSO: from the append of its
 *   batch to the append of its transaction's marker on that partition (0 outside transactions);
 * - records committed (below the high watermark, and not in an aborted or open transaction, at the
 *   end) per virtual second, over the whole run's virtual time (0 to its last step) — the window the
 *   page and the CLI state beside the figure. (It
 *   was the window from the first send() to the last record becoming visible: unstated, and for one
 *   record just its latency — 1 record in 6 ms read as 166.67/s against 2 records in 30 s.)
 * - Kafka requests per committed record: every request a client or broker sent (network duplicates
 *   left out), the write path (everything but fetching and group membership) and the transaction
 *   requests (AddPartitionsToTxn — including a leader's verification —, AddOffsetsToTxn, TxnOffsetCommit,
 *   EndTxn, WriteTxnMarkers).
 *
 * Assumptions, stated wherever the figures are shown: time is the network's latency per link and each
 * application's processingMs; there is no disk, CPU, batching-on-the-wire or compression model.
 */

import { isRequestRpc, type RequestRpc } from '../kernel/envelope';
import type { EnvelopeRow } from '../kernel/recorder';
import type { TraceStep } from '../kernel/simulation';
import { keyOf, recordAddress } from '../protocol/topicPartition';
import type { Fact } from '../trace/facts';
import type { PartitionRow } from '../trace/logView';

export const TRANSACTION_RPCS: readonly RequestRpc[] = [
  'AddPartitionsToTxn',
  'AddOffsetsToTxn',
  'TxnOffsetCommit',
  'EndTxn',
  'WriteTxnMarkers',
];
const READ_PATH: readonly RequestRpc[] = [
  'Fetch',
  'ListOffsets',
  'OffsetsForLeaderEpoch',
  'OffsetFetch',
  'JoinGroup',
  'SyncGroup',
  'Heartbeat',
  'LeaveGroup',
];
const NOT_KAFKA: readonly RequestRpc[] = ['DbTransaction', 'DbQuery', 'HttpRequest'];

export interface Spread {
  readonly count: number;
  readonly p50: number | null;
  readonly p99: number | null;
  readonly max: number | null;
}

export interface ConsumerCost {
  readonly consumer: string;
  readonly isolationLevel: string;
  /** When the consumer first polled (its first Fetch); null when the run has no Fetch from it. */
  readonly firstPollAt: number | null;
  /** max(send(), first poll) → delivered to the application, ms of virtual time. */
  readonly latency: Spread;
  /** Time spent behind the LSO (read_committed only; null for read_uncommitted). */
  readonly lsoWait: Spread | null;
}

export interface RunCost {
  readonly consumers: readonly ConsumerCost[];
  readonly committedRecords: number;
  /** The window the rate is over: the whole run's virtual time, ms (0 to its last step). */
  readonly windowMs: number;
  readonly committedPerSecond: number | null;
  readonly requests: Readonly<Partial<Record<RequestRpc, number>>>;
  readonly kafkaRequests: number;
  readonly writePathRequests: number;
  readonly transactionRequests: number;
  readonly writePathRequestsPerCommittedRecord: number | null;
  readonly transactionRequestsPerCommittedRecord: number | null;
}

export interface CostInput {
  readonly steps: readonly TraceStep[];
  /** What the cost reads of each envelope: not its payload. */
  readonly envelopes: readonly EnvelopeRow[];
  /** The partition logs at the end of the run. */
  readonly partitions: readonly PartitionRow[];
  /** Topics that carry no business events (Streams' changelog and repartition topics). */
  readonly ignoredTopics?: readonly string[];
  /** The run's virtual time, ms; the last step's time when not given. */
  readonly runMs?: number;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (!sorted.length) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

export function spread(values: readonly number[]): Spread {
  const s = [...values].sort((a, b) => a - b);
  return { count: s.length, p50: percentile(s, 50), p99: percentile(s, 99), max: s.length ? (s[s.length - 1] as number) : null };
}

/** Per record offset: when its batch was appended and when it became stable (its marker's append; the append itself outside transactions). */
function appendTimes(steps: readonly TraceStep[]): { appendedAt: Map<string, number>; stableAt: Map<string, number> } {
  const appendedAt = new Map<string, number>();
  const stableAt = new Map<string, number>();
  const pending = new Map<string, string[]>();
  for (const s of steps)
    for (const f of s.facts as readonly Fact[]) {
      if (f.kind !== 'append') continue;
      const tp = keyOf(f);
      const pk = `${tp}#${f.producerId}`;
      if (f.control) {
        for (const k of pending.get(pk) ?? []) stableAt.set(k, s.t);
        pending.delete(pk);
        continue;
      }
      for (let o = f.baseOffset; o <= f.lastOffset; o++) {
        const k = recordAddress(f.topic, f.partition, o);
        appendedAt.set(k, s.t);
        if (f.transactional) pending.set(pk, [...(pending.get(pk) ?? []), k]);
        else stableAt.set(k, s.t);
      }
    }
  return { appendedAt, stableAt };
}

/**
 * When each consumer first polled: the first Fetch sent by its actor ("<id>" or "<id>.<part>", as a
 * consumer application's KafkaConsumer is "<id>.consumer").
 */
function firstPolls(envelopes: readonly EnvelopeRow[]): (consumer: string) => number | null {
  const first = new Map<string, number>();
  for (const e of envelopes) if (e.rpc === 'Fetch' && !first.has(e.from)) first.set(e.from, e.sentAt);
  return (consumer) => {
    let at: number | null = null;
    for (const [from, t] of first) if ((from === consumer || from.startsWith(`${consumer}.`)) && (at === null || t < at)) at = t;
    return at;
  };
}

export function computeCost(input: CostInput): RunCost {
  const ignored = new Set(input.ignoredTopics ?? []);
  const createTime = new Map<string, number>();
  let committedRecords = 0;
  for (const p of input.partitions) {
    for (const r of p.records) {
      createTime.set(recordAddress(p.topic, p.partition, r.offset), r.timestamp);
      if (p.internal || ignored.has(p.topic) || r.control) continue;
      // at or above the high watermark a record is not committed: no reader of either isolation level sees it
      if (r.offset >= p.highWatermark) continue;
      if (r.txnOutcome === null || r.txnOutcome === 'committed') {
        committedRecords++;
      }
    }
  }
  const { appendedAt, stableAt } = appendTimes(input.steps);
  const windowMs = Math.max(0, input.runMs ?? input.steps.at(-1)?.t ?? 0);

  const firstPollOf = firstPolls(input.envelopes);
  const perConsumer = new Map<string, { isolationLevel: string; firstPollAt: number | null; latency: number[]; lsoWait: number[] }>();
  for (const s of input.steps)
    for (const f of s.facts as readonly Fact[]) {
      if (f.kind !== 'delivered' || ignored.has(f.topic)) continue;
      const k = recordAddress(f.topic, f.partition, f.offset);
      let c = perConsumer.get(f.consumer);
      if (!c) {
        c = { isolationLevel: f.isolationLevel, firstPollAt: firstPollOf(f.consumer), latency: [], lsoWait: [] };
        perConsumer.set(f.consumer, c);
      }
      const sent = createTime.get(k);
      if (sent !== undefined) c.latency.push(s.t - Math.max(sent, c.firstPollAt ?? sent));
      const a = appendedAt.get(k);
      const st = stableAt.get(k);
      if (f.isolationLevel === 'read_committed' && a !== undefined) c.lsoWait.push(st === undefined ? 0 : st - a);
    }
  const consumers = [...perConsumer.entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([consumer, c]) => ({
      consumer,
      isolationLevel: c.isolationLevel,
      firstPollAt: c.firstPollAt,
      latency: spread(c.latency),
      lsoWait: c.isolationLevel === 'read_committed' ? spread(c.lsoWait) : null,
    }));

  const requests: Partial<Record<RequestRpc, number>> = {};
  let kafka = 0;
  let write = 0;
  let txn = 0;
  for (const e of input.envelopes) {
    if (!isRequestRpc(e.rpc) || e.duplicateOf !== null || NOT_KAFKA.includes(e.rpc)) continue;
    requests[e.rpc] = (requests[e.rpc] ?? 0) + 1;
    kafka++;
    if (!READ_PATH.includes(e.rpc)) write++;
    if (TRANSACTION_RPCS.includes(e.rpc)) txn++;
  }
  const per = (n: number) => (committedRecords ? n / committedRecords : null);
  return {
    consumers,
    committedRecords,
    windowMs,
    committedPerSecond: windowMs > 0 ? committedRecords / (windowMs / 1000) : null,
    requests,
    kafkaRequests: kafka,
    writePathRequests: write,
    transactionRequests: txn,
    writePathRequestsPerCommittedRecord: per(write),
    transactionRequestsPerCommittedRecord: per(txn),
  };
}
