/**
 * Fetches from consumers on the leader: the answer (up to the HW, or the LSO for read_committed),
 * and the held fetches (Kafka's fetch purgatory) answered when the log gives them something.
 */
import type { Out, PendingRequest } from '../actors/out';
import { type FetchResult, fetchFrom } from '../log/partitionLog';
import type { ErrorOrNone, FetchRequest } from '../protocol/messages';
import { keyOf, topicPartitionKey } from '../protocol/topicPartition';
import type { BrokerContext, ParkedFetch } from './broker.machine';
import { currentLeader, fetchEpochError } from './replication';

export function answerFetch(ctx: BrokerContext, out: Out, request: PendingRequest, fetch: FetchRequest): void {
  const held = ctx.partitions[keyOf(fetch)];
  // the fetch's currentLeaderEpoch is checked first (Partition.getLocalLog), then a replicated
  // partition is read from its leader only
  const epochError = fetchEpochError(ctx, held, fetch.currentLeaderEpoch);
  const log = epochError === 'NONE' && held && (held.epochs === undefined || ctx.replication?.leading[keyOf(fetch)]) ? held : undefined;
  if (!log) {
    const error: ErrorOrNone = epochError !== 'NONE' ? epochError : held ? 'NOT_LEADER_OR_FOLLOWER' : 'UNKNOWN_TOPIC_OR_PARTITION';
    out.reply(request, 'FetchResponse', {
      topic: fetch.topic,
      partition: fetch.partition,
      error,
      highWatermark: -1,
      lastStableOffset: -1,
      logStartOffset: -1,
      batches: [],
      abortedTransactions: [],
      // KIP-951 (KafkaApis.handleFetchRequest, Fetch v16+): the leader this broker knows, so the
      // consumer fetches from it at once instead of waiting for a metadata round trip
      ...(error === 'NOT_LEADER_OR_FOLLOWER' || error === 'FENCED_LEADER_EPOCH'
        ? { currentLeader: currentLeader(ctx, fetch.topic, fetch.partition) }
        : {}),
    });
    return;
  }
  const r = fetchFrom(log, fetch.fetchOffset, fetch.isolationLevel, fetch.maxRecords);
  out.reply(
    request,
    'FetchResponse',
    {
      topic: fetch.topic,
      partition: fetch.partition,
      error: r.error ?? 'NONE',
      highWatermark: r.highWatermark,
      lastStableOffset: r.lastStableOffset,
      logStartOffset: r.logStartOffset,
      batches: r.batches,
      abortedTransactions: r.abortedTransactions,
    },
    // an answer without data is periodic traffic; one with data is work for the consumer
    { background: r.batches.length === 0 && r.error === null },
  );
}

/**
 * How long a consumer's fetch that finds nothing is held (ReplicaManager.fetchMessages → DelayedFetch,
 * `tryCompleteElseWatch`, whose `tryComplete` runs at once): a fetch at exactly what it may read — the
 * HW, or the LSO for read_committed — waits for data up to fetch.max.wait.ms; a fetch above it
 * (`fetchOffset.messageOffset > endOffset.messageOffset`, DelayedFetch's case F: LocalLog.read gives
 * such a read its own offset) is answered at once, empty, and the consumer fetches again straight
 * away — a position above the LSO (an operator's reset to the latest offset, which is the HW) or
 * above a new leader's lagging HW makes a Fetch every round trip until the bound passes it.
 * *Simplified:* "at once" is 1 ms (`CASE_F_ANSWER_MS`, the model clock's resolution), so that a network
 * of 0 ms latency does not loop at one instant.
 */
export function fetchHoldMs(r: FetchResult, fetch: FetchRequest): number {
  return isAboveReadBound(r, fetch) ? Math.min(CASE_F_ANSWER_MS, fetch.maxWaitMs) : fetch.maxWaitMs;
}

const CASE_F_ANSWER_MS = 1;

/** The fetch asks for an offset above what its isolation level may read (DelayedFetch case F). */
function isAboveReadBound(r: FetchResult, fetch: FetchRequest): boolean {
  return fetch.fetchOffset > (fetch.isolationLevel === 'read_committed' ? r.lastStableOffset : r.highWatermark);
}

/**
 * After a log changed, answer the held fetches that now have something to return, or that are now
 * above what they may read (DelayedFetch.tryComplete runs again on every append and HW change).
 */
export function wakeParked(ctx: BrokerContext, out: Out, topic: string, partition: number): BrokerContext {
  const log = ctx.partitions[topicPartitionKey(topic, partition)];
  if (!log || ctx.parked.length === 0) return ctx;
  const still: ParkedFetch[] = [];
  for (const p of ctx.parked) {
    if (p.fetch.topic !== topic || p.fetch.partition !== partition) {
      still.push(p);
      continue;
    }
    const r = fetchFrom(log, p.fetch.fetchOffset, p.fetch.isolationLevel, p.fetch.maxRecords);
    if (r.batches.length > 0 || r.error || isAboveReadBound(r, p.fetch)) {
      out.cancel(`fetch:${p.id}`);
      answerFetch(ctx, out, p.request, p.fetch);
    } else still.push(p);
  }
  return still.length === ctx.parked.length ? ctx : withParked(ctx, still, ctx.nextParkId);
}

/**
 * The broker no longer leads the partition (ReplicaManager.completeDelayedOperationsWhenNotPartitionLeader
 * after a leader change made it a follower): its held consumer fetches complete at once (DelayedFetch
 * case A), each answered with the error the fetch now meets — FENCED_LEADER_EPOCH or
 * NOT_LEADER_OR_FOLLOWER, naming the new leader — instead of at fetch.max.wait.ms.
 */
export function answerParkedOf(ctx: BrokerContext, out: Out, topic: string, partition: number): BrokerContext {
  const still: ParkedFetch[] = [];
  for (const p of ctx.parked) {
    if (p.fetch.topic !== topic || p.fetch.partition !== partition) {
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
  };
}
