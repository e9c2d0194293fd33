/**
 * The append half of a Produce request (ReplicaManager.appendRecords): each partition not answered
 * yet is appended on its own (Partition.appendRecordsToLeader), then the one ProduceResponse goes
 * out, or waits in one DelayedProduce (acks=all with some replicated partition appended).
 */
import type { Out, PendingRequest } from '../actors/out';
import { appendEpoch, appendProducerBatch, type PartitionLog } from '../log/partitionLog';
import { NO_VERIFICATION_GUARD } from '../log/verificationState';
import type { KafkaError } from '../protocol/errors';
import type { ProducePartitionData, ProducePartitionResponse, ProduceRequest } from '../protocol/messages';
import { keyOf } from '../protocol/topicPartition';
import { notEnoughReplicasBeforeAppend } from '../replication/leaderPartition';
import type { BrokerContext } from './broker.machine';
import { wakeParked } from './consumerFetch';
import {
  afterLeaderUpdate,
  type BrokerReplication,
  currentLeader,
  delayProduceRequest,
  isReplicated,
  PRODUCE_TIMEOUT_MS,
  type ProduceWait,
  timedOutResult,
  wakeReplicaFetches,
} from './replication';

type ReplicatedCtx = BrokerContext & { readonly replication: BrokerReplication };
const hasReplication = (ctx: BrokerContext): ctx is ReplicatedCtx => ctx.replication !== undefined;

export function withLog<C extends BrokerContext>(ctx: C, log: PartitionLog): C {
  return { ...ctx, partitions: { ...ctx.partitions, [keyOf(log)]: log } };
}

export function errorResult(p: ProducePartitionData, error: KafkaError, errorMessage: string): ProducePartitionResponse {
  return { topic: p.topic, partition: p.partition, error, baseOffset: -1, errorMessage };
}

/** The `rejected` fact of one partition's batch: the error the broker answers and why. */
export function rejectedFact(out: Out, p: ProducePartitionData, error: KafkaError, reason: string): void {
  const b = p.batch;
  out.fact({
    kind: 'rejected',
    topic: p.topic,
    partition: p.partition,
    producerId: b.producerId,
    producerEpoch: b.producerEpoch,
    baseSequence: b.baseSequence,
    error,
    reason,
  });
}

/** NOT_LEADER_OR_FOLLOWER for one partition, with the KIP-951 leader hint. */
export function notLeader(ctx: BrokerContext, p: ProducePartitionData): ProducePartitionResponse {
  return {
    ...errorResult(p, 'NOT_LEADER_OR_FOLLOWER', `${ctx.id} is not the leader of ${keyOf(p)}`),
    currentLeader: currentLeader(ctx, p.topic, p.partition),
  };
}

/** One partition's append: its result, or the HW it must wait for (acks=all on a replicated partition). */
interface PartitionAppend {
  readonly ctx: BrokerContext;
  readonly result: ProducePartitionResponse;
  readonly wait: ProduceWait | null;
  /** Its log changed (the leader's HW and the held fetches must be looked at). */
  readonly changed: boolean;
}

/** Partition.appendRecordsToLeader for one partition of the request, with its facts. */
function appendPartition(
  ctx: BrokerContext,
  req: ProduceRequest,
  p: ProducePartitionData,
  now: number,
  out: Out,
  verificationGuard: number,
): PartitionAppend {
  const key = keyOf(p);
  const log = ctx.partitions[key];
  const unchanged = (result: ProducePartitionResponse): PartitionAppend => ({ ctx, result, wait: null, changed: false });
  if (!log) return unchanged(errorResult(p, 'NOT_LEADER_OR_FOLLOWER', `${ctx.id} is not the leader of ${key}`));
  const b = p.batch;
  const lastSequence = b.baseSequence < 0 ? -1 : b.baseSequence + b.records.length - 1;
  const replicated = hasReplication(ctx) && isReplicated(log);
  if (replicated) {
    const leader = ctx.replication.leading[key];
    if (!leader) return unchanged(notLeader(ctx, p));
    // Partition.appendRecordsToLeader: after verification, before the duplicate and sequence checks
    const refused = notEnoughReplicasBeforeAppend(leader, req.acks);
    if (refused !== null) {
      rejectedFact(out, p, 'NOT_ENOUGH_REPLICAS', refused);
      return unchanged(errorResult(p, 'NOT_ENOUGH_REPLICAS', refused));
    }
  }
  const { log: next, outcome } = appendProducerBatch(log, b, now, {
    verificationEnabled: ctx.verification || ctx.transactionVersion === 2,
    verificationGuard,
  });
  const epoch = appendEpoch(next);
  if (outcome.kind === 'appended')
    out.fact({
      kind: 'append',
      topic: p.topic,
      partition: p.partition,
      baseOffset: outcome.baseOffset,
      lastOffset: outcome.lastOffset,
      producerId: b.producerId,
      producerEpoch: b.producerEpoch,
      baseSequence: b.baseSequence,
      lastSequence,
      transactional: b.isTransactional,
      control: null,
      eventIds: b.records.map((r) => r.headers.event_id ?? null),
      origins: b.records.map((r) => r.origin ?? null),
      ...(epoch === null ? {} : { leaderEpoch: epoch }),
    });
  else if (outcome.kind === 'duplicate')
    out.fact({
      kind: 'duplicate',
      topic: p.topic,
      partition: p.partition,
      producerId: b.producerId,
      producerEpoch: b.producerEpoch,
      baseSequence: b.baseSequence,
      lastSequence,
      baseOffset: outcome.baseOffset,
    });
  else rejectedFact(out, p, outcome.error, outcome.reason);
  const c = next === log ? ctx : withLog(ctx, next);
  const changed = next !== log;
  if (outcome.kind === 'rejected') return { ctx: c, result: errorResult(p, outcome.error, outcome.reason), wait: null, changed };
  if (replicated && req.acks === -1)
    return {
      ctx: c,
      result: timedOutResult(p.topic, p.partition),
      wait: { topic: p.topic, partition: p.partition, baseOffset: outcome.baseOffset, requiredOffset: outcome.lastOffset + 1 },
      changed,
    };
  return {
    ctx: c,
    result: { topic: p.topic, partition: p.partition, error: 'NONE', baseOffset: outcome.baseOffset, errorMessage: null },
    wait: null,
    changed,
  };
}

/**
 * ReplicaManager.appendRecords: every partition not answered yet is appended on its own; then the
 * one answer goes out now, or waits in one DelayedProduce (acks=all, some replicated partition
 * appended). Afterwards each changed log moves its leader's HW and wakes the fetches held on it.
 */
export function appendProduce(
  ctx: BrokerContext,
  req: ProduceRequest,
  request: PendingRequest,
  now: number,
  out: Out,
  answered: readonly (ProducePartitionResponse | null)[],
  guards: Readonly<Record<string, number>>,
): BrokerContext {
  let c = ctx;
  const answer: ProducePartitionResponse[] = [];
  const waiting: ProduceWait[] = [];
  const changed: ProducePartitionData[] = [];
  req.partitions.forEach((p, i) => {
    const pre = answered[i];
    if (pre) {
      answer.push(pre);
      return;
    }
    const r = appendPartition(c, req, p, now, out, guards[keyOf(p)] ?? NO_VERIFICATION_GUARD);
    c = r.ctx;
    answer.push(r.result);
    if (r.wait) waiting.push(r.wait);
    if (r.changed) changed.push(p);
  });
  if (waiting.length > 0 && hasReplication(c))
    c = delayProduceRequest(c, request, answer, waiting, req.timeoutMs ?? PRODUCE_TIMEOUT_MS, out);
  else if (req.acks !== 0) out.reply(request, 'ProduceResponse', { responses: answer });
  for (const p of changed) {
    const key = keyOf(p);
    if (hasReplication(c) && isReplicated(c.partitions[key])) c = afterLeaderUpdate(wakeReplicaFetches(c, key, out), key, now, out);
    else c = wakeParked(c, out, p.topic, p.partition);
  }
  return c;
}
