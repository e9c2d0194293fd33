/**
 * Fetches from consumers on the leader: one request for every partition the consumer fetches from
 * this broker, answered whole (up to the HW, or the LSO for read_committed, per partition), and the
 * held fetches (Kafka's fetch purgatory) answered when one of their partitions gives them something.
 */
import type { Out, PendingRequest } from '../actors/out';
import { type FetchResult, fetchFrom } from '../log/partitionLog';
import type { ErrorOrNone, FetchPartition, FetchPartitionResponse, FetchRequest } from '../protocol/messages';
import { keyOf } from '../protocol/topicPartition';
import type { BrokerContext, ParkedFetch } from './broker.machine';
import { currentLeader, fetchEpochError } from './replication';

/** One partition of a consumer's fetch as the log has it now (ReplicaManager.readFromLog). */
interface PartitionRead {
  readonly answer: FetchPartitionResponse;
  /** A read above its isolation level's bound (DelayedFetch case F). */
  readonly aboveBound: boolean;
}

function readPartition(ctx: BrokerContext, fetch: FetchRequest, p: FetchPartition): PartitionRead {
  const held = ctx.partitions[keyOf(p)];
  // the fetch's currentLeaderEpoch is checked first (Partition.getLocalLog), then a replicated
  // partition is read from its leader only
  const epochError = fetchEpochError(ctx, held, p.currentLeaderEpoch);
  const log = epochError === 'NONE' && held && (held.epochs === undefined || ctx.replication?.leading[keyOf(p)]) ? held : undefined;
  if (!log) {
    const error: ErrorOrNone = epochError !== 'NONE' ? epochError : held ? 'NOT_LEADER_OR_FOLLOWER' : 'UNKNOWN_TOPIC_OR_PARTITION';
    const answer = {
      topic: p.topic,
      partition: p.partition,
      error,
      highWatermark: -1,
      lastStableOffset: -1,
      logStartOffset: -1,
      batches: [],
      abortedTransactions: [],
      // KIP-951 (KafkaApis.handleFetchRequest, Fetch v16+): the leader this broker knows, so the
      // consumer fetches from it at once instead of waiting for a metadata round trip
      ...(error === 'NOT_LEADER_OR_FOLLOWER' || error === 'FENCED_LEADER_EPOCH'
        ? { currentLeader: currentLeader(ctx, p.topic, p.partition) }
        : {}),
    };
    return { answer, aboveBound: false };
  }
  const r = fetchFrom(log, p.fetchOffset, fetch.isolationLevel, p.maxRecords);
  const answer = {
    topic: p.topic,
    partition: p.partition,
    error: r.error ?? 'NONE',
    highWatermark: r.highWatermark,
    lastStableOffset: r.lastStableOffset,
    logStartOffset: r.logStartOffset,
    batches: r.batches,
    abortedTransactions: r.abortedTransactions,
  };
  return { answer, aboveBound: isAboveReadBound(r, p.fetchOffset, fetch.isolationLevel) };
}

/**
 * How much a partition's answer carries, for fetch.min.bytes: *simplified* to its records (control
 * records included — a marker batch has bytes too), not their bytes.
 */
const sizeOf = (a: FetchPartitionResponse): number => a.batches.reduce((n, b) => n + b.records.length, 0);

/**
 * Whether the broker answers a consumer's fetch now (ReplicaManager.fetchMessages, then
 * DelayedFetch.tryComplete, which runs again whenever one of its partitions changes): a partition
 * with an error — not the leader (case A), unknown (C), a fenced epoch (E), an offset out of range —
 * or above its read bound (case F), or the partitions' data adding up to fetch.min.bytes (case G).
 * `caseF`: held for an instant only (fetchHoldMs). Otherwise `wait`: held up to fetch.max.wait.ms.
 */
export function fetchCompletion(ctx: BrokerContext, fetch: FetchRequest): 'now' | 'caseF' | 'wait' {
  let size = 0;
  let aboveBound = false;
  for (const p of fetch.partitions) {
    const r = readPartition(ctx, fetch, p);
    if (r.answer.error !== 'NONE') return 'now';
    aboveBound ||= r.aboveBound;
    size += sizeOf(r.answer);
  }
  if (size >= fetch.minBytes || fetch.maxWaitMs <= 0 || fetch.partitions.length === 0) return 'now';
  return aboveBound ? 'caseF' : 'wait';
}

/** The answer to a consumer's fetch: every partition it asked for, each read now (DelayedFetch.onComplete reads them again). */
export function answerFetch(ctx: BrokerContext, out: Out, request: PendingRequest, fetch: FetchRequest): void {
  const partitions = fetch.partitions.map((p) => readPartition(ctx, fetch, p).answer);
  // an answer without data or error is periodic traffic; one with something is work for the consumer
  const background = partitions.every((a) => a.batches.length === 0 && a.error === 'NONE');
  out.reply(request, 'FetchResponse', { partitions }, { background });
}

/**
 * How long a consumer's fetch that finds nothing is held (ReplicaManager.fetchMessages → DelayedFetch,
 * `tryCompleteElseWatch`, whose `tryComplete` runs at once): a fetch whose partitions are all at
 * exactly what they may read — the HW, or the LSO for read_committed — waits for data up to
 * fetch.max.wait.ms; one with a partition above it (`fetchOffset.messageOffset > endOffset.messageOffset`,
 * DelayedFetch's case F: LocalLog.read gives such a read its own offset) is answered at once, empty,
 * and the consumer fetches again straight away — a position above the LSO (an operator's reset to
 * the latest offset, which is the HW) or above a new leader's lagging HW makes a Fetch every round
 * trip until the bound passes it. *Simplified:* "at once" is 1 ms (`CASE_F_ANSWER_MS`, the model
 * clock's resolution), so that a network of 0 ms latency does not loop at one instant.
 */
export function fetchHoldMs(completion: 'caseF' | 'wait', fetch: FetchRequest): number {
  return completion === 'caseF' ? Math.min(CASE_F_ANSWER_MS, fetch.maxWaitMs) : fetch.maxWaitMs;
}

const CASE_F_ANSWER_MS = 1;

/** The fetch asks for an offset above what its isolation level may read (DelayedFetch case F). */
export function isAboveReadBound(r: FetchResult, fetchOffset: number, isolationLevel: FetchRequest['isolationLevel']): boolean {
  return fetchOffset > (isolationLevel === 'read_committed' ? r.lastStableOffset : r.highWatermark);
}

const names = (fetch: FetchRequest, topic: string, partition: number): boolean =>
  fetch.partitions.some((p) => p.topic === topic && p.partition === partition);

/**
 * After a log changed, answer the held fetches of that partition that can now complete — all their
 * partitions (DelayedFetch.tryComplete runs again on every append and HW change of any partition
 * the fetch names; onComplete reads every one).
 */
export function wakeParked(ctx: BrokerContext, out: Out, topic: string, partition: number): BrokerContext {
  if (ctx.parked.length === 0) return ctx;
  const still: ParkedFetch[] = [];
  for (const p of ctx.parked) {
    if (!names(p.fetch, topic, partition) || fetchCompletion(ctx, p.fetch) === 'wait') {
      still.push(p);
      continue;
    }
    out.cancel(`fetch:${p.id}`);
    answerFetch(ctx, out, p.request, p.fetch);
  }
  return still.length === ctx.parked.length ? ctx : withParked(ctx, still, ctx.nextParkId);
}

/**
 * The broker no longer leads the partition (ReplicaManager.completeDelayedOperationsWhenNotPartitionLeader
 * after a leader change made it a follower): its held consumer fetches complete at once (DelayedFetch
 * case A), each answered whole — that partition with the error the fetch now meets,
 * FENCED_LEADER_EPOCH or NOT_LEADER_OR_FOLLOWER naming the new leader, the others as they read —
 * instead of at fetch.max.wait.ms.
 */
export function answerParkedOf(ctx: BrokerContext, out: Out, topic: string, partition: number): BrokerContext {
  const still: ParkedFetch[] = [];
  for (const p of ctx.parked) {
    if (!names(p.fetch, topic, partition)) {
      still.push(p);
      continue;
    }
    out.cancel(`fetch:${p.id}`);
    answerFetch(ctx, out, p.request, p.fetch);
  }
  return still.length === ctx.parked.length ? ctx : withParked(ctx, still, ctx.nextParkId);
}

/**
 * The context with other held fetches: as `{ ...ctx, parked, nextParkId }` (the same keys in the
 * same order), written out field by field — an idle consumer's fetch is parked and answered every
 * fetch.max.wait.ms, and a spread of a context whose fields V8 keeps out of line takes its slow path
 * (tests/contextDrafts.test.ts). A replicated broker's context (more fields) is spread.
 */
export function withParked(ctx: BrokerContext, parked: readonly ParkedFetch[], nextParkId: number): BrokerContext {
  if ('replication' in ctx || 'initialRecords' in ctx) return { ...ctx, parked, nextParkId };
  return {
    id: ctx.id,
    partitions: ctx.partitions,
    parked,
    nextParkId,
    verification: ctx.verification,
    transactionVersion: ctx.transactionVersion,
    transactionCoordinator: ctx.transactionCoordinator,
    verifying: ctx.verifying,
    verificationQueue: ctx.verificationQueue,
    nextCorrelationId: ctx.nextCorrelationId,
    meta: ctx.meta,
    producerExpiration: ctx.producerExpiration,
    logsOpenedAtMs: ctx.logsOpenedAtMs,
    expiryChecks: ctx.expiryChecks,
  };
}
