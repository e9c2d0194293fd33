/**
 * A broker's replicas (issue [replication]): which partitions it leads (per-partition leadership,
 * `leading`) and follows (`following`), its metadata cache of the controller's partition records,
 * the replica fetcher, the leader's answers to followers, the delayed produces (acks=all), ISR
 * changes by AlterPartition, heartbeats, and the controller's PartitionChange applied
 * (Partition.makeLeader / makeFollower). Only a cluster with a replicated topic has this state;
 * a partition with one replica keeps the broker's old paths.
 *
 * Simplifications (docs/kafka-model.md): one replica Fetch per partition rather than one per leader
 * with a fetch session; the controller's records reach the broker as PartitionChange messages.
 */
import type { Out, PendingRequest } from '../actors/out';
import type { ActorId } from '../kernel/envelope';
import type { PartitionLog } from '../log/partitionLog';
import { assignEpochStartOffset, lastFetchedEpoch } from '../log/replicaLog';
import type { KafkaError } from '../protocol/errors';
import type { ProducePartitionResponse, WriteTxnMarkersResponse } from '../protocol/messages';
import type { PartitionChange } from '../protocol/replicationMessages';
import { keyOf, parseTopicPartition, topicPartitionKey } from '../protocol/topicPartition';
import {
  applyReplicaFetchResponse,
  checkCurrentLeaderEpoch,
  type ReplicaFetchRequest,
  type ReplicaFetchResponse,
  readForFollower,
} from '../replication/followerFetch';
import {
  becomeLeader,
  checkEnoughReplicasReachOffset,
  isrToExpand,
  isrToShrink,
  type LeaderPartition,
  maybeIncrementLeaderHW,
  onAlterPartitionResponse,
  proposeIsr,
  updateFollowerFetchState,
} from '../replication/leaderPartition';
import type { BrokerContext } from './broker.machine';
import { answerParkedOf, wakeParked } from './consumerFetch';
import { type DelayedMarkers, expireMarkers, type MarkerWait, markersTimerKey, settleMarkers } from './delayedMarkers';
import { tellReload } from './producerStateReload';

/** The Java producer's request.timeout.ms, which it sends as the Produce's timeoutMs. */
export const PRODUCE_TIMEOUT_MS = 30000;
/** replica.fetch.backoff.ms: a follower waits this long after a failed fetch. */
export const REPLICA_FETCH_BACKOFF_MS = 1000;
/** replica.socket.timeout.ms: how long a follower waits for the leader's answer. */
const REPLICA_SOCKET_TIMEOUT_MS = 30000;
const REPLICA_FETCH_MAX_RECORDS = 500;

export interface ReplicationSettings {
  readonly controller: ActorId;
  readonly replicaLagTimeMaxMs: number;
  readonly replicaFetchWaitMaxMs: number;
  readonly heartbeatIntervalMs: number;
  /** Per topic: min.insync.replicas. */
  readonly minInsyncReplicas: Readonly<Record<string, number>>;
}

/** One partition of a delayed produce whose answer waits for the HW to reach `requiredOffset` (lastOffset + 1). */
export interface ProduceWait {
  readonly topic: string;
  readonly partition: number;
  readonly baseOffset: number;
  readonly requiredOffset: number;
}

/**
 * An acks=all produce waiting for the HW (DelayedProduce in the purgatory): one per Produce request,
 * over all its partitions. It is answered once, when every partition has reached its offset or ended
 * otherwise, or at the request's timeout (the partitions still waiting: REQUEST_TIMED_OUT).
 */
export interface DelayedProduce {
  readonly id: number;
  readonly request: PendingRequest;
  /** The answer as it will be sent, one result per partition of the request; a waiting partition reads REQUEST_TIMED_OUT. */
  readonly answer: readonly ProducePartitionResponse[];
  readonly waiting: readonly ProduceWait[];
  /**
   * A write of a coordinator this broker hosts (one partition): answered by an in-process call, not a
   * ProduceResponse — `txnStateAppended` (the transaction coordinator's acks=-1 append), or
   * `offsetsAppended` (the group coordinator's, which waits for the HW only: CoordinatorRuntime's
   * HighWatermarkListener).
   */
  readonly internal?: { readonly coordinator: ActorId; readonly writeId: number; readonly answer?: 'offsetsAppended' };
}

/** A follower's Fetch the leader holds up to replica.fetch.wait.max.ms (DelayedFetch). */
export interface ParkedReplicaFetch {
  readonly id: number;
  readonly request: PendingRequest;
  readonly fetch: ReplicaFetchRequest;
}

export interface FollowedPartition {
  readonly leader: ActorId;
  readonly leaderEpoch: number;
  /** The correlation id of the Fetch in flight; null when none (a retry is scheduled). */
  readonly inFlight: number | null;
  /**
   * The leader answered FENCED_LEADER_EPOCH to a fetch of this very epoch: the leader has a newer one,
   * so the follower stops fetching until a record with a new leader or epoch comes
   * (AbstractFetcherThread.onPartitionFenced → markPartitionFailed).
   */
  readonly awaitingMetadata?: true;
}

export interface BrokerReplication {
  readonly settings: ReplicationSettings;
  /** Goes up on every restart (the broker registers anew). */
  readonly brokerEpoch: number;
  /** The controller's partition records as this broker last received them (its metadata cache). */
  readonly registrations: Readonly<Record<string, PartitionChange>>;
  /** The brokers the controller has fenced, as of the last record. */
  readonly fencedBrokers: readonly ActorId[];
  /** The brokers in controlled shutdown, as of the last record (absent: none). */
  readonly shuttingDownBrokers?: readonly ActorId[];
  /**
   * This incarnation has not registered yet: restarted, and not yet answered without an error (the
   * controller refuses it DUPLICATE_BROKER_REGISTRATION while the old incarnation's session is
   * valid). BrokerServer is still STARTING and BrokerLifecycleManager not RUNNING, so a controlled
   * shutdown now is skipped (broker/controlledShutdown.ts).
   */
  readonly registering?: true;
  readonly leading: Readonly<Record<string, LeaderPartition>>;
  readonly following: Readonly<Record<string, FollowedPartition>>;
  readonly delayed: readonly DelayedProduce[];
  /** WriteTxnMarkers answers waiting for their markers' replication (acks=-1). */
  readonly delayedMarkers: readonly DelayedMarkers[];
  readonly replicaParked: readonly ParkedReplicaFetch[];
  /** AlterPartition requests in flight, by correlation id → partition key. */
  readonly alterInFlight: Readonly<Record<number, string>>;
  readonly nextId: number;
}

export function initialReplication(settings: ReplicationSettings): BrokerReplication {
  return {
    settings,
    brokerEpoch: 0,
    registrations: {},
    fencedBrokers: [],
    leading: {},
    following: {},
    delayed: [],
    delayedMarkers: [],
    replicaParked: [],
    alterInFlight: {},
    nextId: 0,
  };
}

type Ctx = BrokerContext & { readonly replication: BrokerReplication };

function withRep(ctx: Ctx, rep: Partial<BrokerReplication>): Ctx {
  return { ...ctx, replication: { ...ctx.replication, ...rep } };
}

function withLog(ctx: Ctx, log: PartitionLog): Ctx {
  return { ...ctx, partitions: { ...ctx.partitions, [keyOf(log)]: log } };
}

/** A replicated partition's log (it has an epoch cache); a one-replica log is not. */
export function isReplicated(log: PartitionLog | undefined): boolean {
  return log?.epochs !== undefined;
}

/** KIP-951: the leader this broker knows, for a NOT_LEADER_OR_FOLLOWER answer. */
export function currentLeader(ctx: BrokerContext, topic: string, partition: number): { leaderId: ActorId | null; leaderEpoch: number } {
  const reg = ctx.replication?.registrations[topicPartitionKey(topic, partition)];
  return { leaderId: reg?.leader ?? null, leaderEpoch: reg?.leaderEpoch ?? -1 };
}

/**
 * Partition.getLocalLog's epoch check, which runs before the leader check: the Fetch's
 * currentLeaderEpoch against the epoch this broker holds for a replicated partition it hosts (its
 * last PartitionChange, leader or follower). 'NONE' when it passes or the broker knows no epoch.
 */
export function fetchEpochError(
  ctx: BrokerContext,
  log: PartitionLog | undefined,
  currentLeaderEpoch: number | undefined,
): KafkaError | 'NONE' {
  if (!log || !isReplicated(log)) return 'NONE';
  const reg = ctx.replication?.registrations[keyOf(log)];
  return reg ? checkCurrentLeaderEpoch(reg.leaderEpoch, currentLeaderEpoch) : 'NONE';
}

/** This broker leads the partition (a replicated partition), or it is not replicated. */
export function leadsOrUnreplicated(ctx: BrokerContext, log: PartitionLog | undefined): boolean {
  if (!log) return false;
  if (!isReplicated(log)) return true;
  return ctx.replication?.leading[keyOf(log)] !== undefined;
}

/** Partition.isReplicaIsrEligible: neither fenced nor shutting down (KRaftMetadataCache). */
const eligibleFor = (rep: BrokerReplication) => (b: ActorId) =>
  !rep.fencedBrokers.includes(b) && !(rep.shuttingDownBrokers?.includes(b) ?? false);

type BrokerLists = { fencedBrokers?: readonly ActorId[]; shuttingDownBrokers?: readonly ActorId[] };

/** The brokers' registrations a record carries (KRaft's BrokerRegistrationChangeRecords), as the metadata cache keeps them. */
function withBrokerLists(ctx: Ctx, change: BrokerLists, also: Partial<BrokerReplication> = {}): Ctx {
  if (!change.fencedBrokers) return Object.keys(also).length ? withRep(ctx, also) : ctx;
  const { shuttingDownBrokers: _old, ...rep } = ctx.replication;
  const shuttingDown = change.shuttingDownBrokers?.length ? { shuttingDownBrokers: change.shuttingDownBrokers } : {};
  return { ...ctx, replication: { ...rep, ...also, fencedBrokers: change.fencedBrokers, ...shuttingDown } };
}

/**
 * After something that may move the leader's HW (an append, a follower's fetch, an ISR change):
 * Partition.maybeIncrementLeaderHW, then the consumers' held fetches and the delayed produces.
 */
export function afterLeaderUpdate(ctx: Ctx, key: string, now: number, out: Out): Ctx {
  const p = ctx.replication.leading[key];
  const log = ctx.partitions[key];
  if (!p || !log) return ctx;
  const next = maybeIncrementLeaderHW(p, log, now, ctx.replication.settings.replicaLagTimeMaxMs, eligibleFor(ctx.replication));
  let c = next === log ? ctx : withLog(ctx, next);
  if (next !== log) c = wakeParked(c, out, log.topic, log.partition) as Ctx;
  return completeDelayed(c, key, out);
}

/**
 * CoordinatorRuntime's wait for a group coordinator write (HighWatermarkListener.onHighWatermarkUpdated →
 * deferredEventQueue.completeUpTo): NONE once the HW has passed it, whatever the ISR; the partition
 * led elsewhere → NOT_LEADER_OR_FOLLOWER; null: keep waiting.
 */
export function highWatermarkReached(p: unknown, log: PartitionLog, requiredOffset: number): 'NONE' | 'NOT_LEADER_OR_FOLLOWER' | null {
  if (!p) return 'NOT_LEADER_OR_FOLLOWER';
  return log.highWatermark >= requiredOffset ? 'NONE' : null;
}

/** DelayedProduce.tryComplete for every produce and marker write waiting on the partition. */
function completeDelayed(ctx: Ctx, key: string, out: Out): Ctx {
  const log = ctx.partitions[key];
  const leader = ctx.replication.leading[key] ?? null;
  const delayedMarkers = log
    ? settleMarkers(ctx.replication.delayedMarkers, key, (w) => checkEnoughReplicasReachOffset(leader, log, w.requiredOffset), out)
    : ctx.replication.delayedMarkers;
  const c = delayedMarkers === ctx.replication.delayedMarkers ? ctx : withRep(ctx, { delayedMarkers });
  return completeDelayedProduces(c, key, out);
}

function completeDelayedProduces(ctx: Ctx, key: string, out: Out): Ctx {
  const rep = ctx.replication;
  const onKey = (w: ProduceWait) => topicPartitionKey(w.topic, w.partition) === key;
  if (!rep.delayed.some((d) => d.waiting.some(onKey))) return ctx;
  const log = ctx.partitions[key];
  if (!log) return ctx;
  const leader = rep.leading[key] ?? null;
  return settleDelayed(ctx, key, out, (d, w) =>
    d.internal?.answer === 'offsetsAppended'
      ? highWatermarkReached(leader, log, w.requiredOffset)
      : checkEnoughReplicasReachOffset(leader, log, w.requiredOffset),
  );
}

/** A partition's result once its wait has ended with `error`. */
function waitResult(ctx: BrokerContext, w: ProduceWait, error: KafkaError | 'NONE'): ProducePartitionResponse {
  return {
    topic: w.topic,
    partition: w.partition,
    error,
    baseOffset: error === 'NONE' ? w.baseOffset : -1,
    errorMessage: error === 'NONE' ? null : `${error} (acks=all)`,
    ...(error === 'NOT_LEADER_OR_FOLLOWER' ? { currentLeader: currentLeader(ctx, w.topic, w.partition) } : {}),
  };
}

/**
 * DelayedProduce.tryComplete for the produces waiting on partition `key`: `check` gives a waiting
 * partition's result (null: keep waiting). A produce with no partition left waiting is answered.
 */
function settleDelayed(ctx: Ctx, key: string, out: Out, check: (d: DelayedProduce, w: ProduceWait) => KafkaError | 'NONE' | null): Ctx {
  const rep = ctx.replication;
  const still: DelayedProduce[] = [];
  let changed = false;
  for (const d of rep.delayed) {
    let answer = d.answer;
    const waiting: ProduceWait[] = [];
    for (const w of d.waiting) {
      const result = topicPartitionKey(w.topic, w.partition) === key ? check(d, w) : null;
      if (result === null) waiting.push(w);
      else answer = answer.map((a) => (a.topic === w.topic && a.partition === w.partition ? waitResult(ctx, w, result) : a));
    }
    if (waiting.length === d.waiting.length) {
      still.push(d);
      continue;
    }
    changed = true;
    if (waiting.length > 0) still.push({ ...d, answer, waiting });
    else {
      out.cancel(`produce:${d.id}`);
      answerDelayed(d, answer, out);
    }
  }
  return changed ? withRep(ctx, { delayed: still }) : ctx;
}

function answerDelayed(d: DelayedProduce, answer: readonly ProducePartitionResponse[], out: Out): void {
  if (d.internal) {
    out.call(d.internal.coordinator, d.internal.answer ?? 'txnStateAppended', {
      writeId: d.internal.writeId,
      error: answer[0]?.error ?? 'REQUEST_TIMED_OUT',
    });
    return;
  }
  out.reply(d.request, 'ProduceResponse', { responses: answer });
}

/**
 * ReplicaManager.maybeAddDelayedProduce: an acks=all Produce whose appends succeeded on some
 * replicated partition waits for the HW of each (one DelayedProduce over the request, one timeout),
 * unless they are all there already. `answer` holds every partition's result; the `waiting` ones
 * are filled in as they complete.
 */
export function delayProduceRequest(
  ctx: Ctx,
  request: PendingRequest,
  answer: readonly ProducePartitionResponse[],
  waiting: readonly ProduceWait[],
  timeoutMs: number,
  out: Out,
  internal?: DelayedProduce['internal'],
): Ctx {
  const id = ctx.replication.nextId;
  const d: DelayedProduce = { id, request, answer, waiting, ...(internal ? { internal } : {}) };
  out.timer(`produce:${id}`, 'produceTimeout', timeoutMs, { id });
  let c = withRep(ctx, { delayed: [...ctx.replication.delayed, d], nextId: id + 1 });
  const keys = [...new Set(waiting.map((w) => topicPartitionKey(w.topic, w.partition)))];
  for (const key of keys) c = completeDelayed(c, key, out);
  return c;
}

/** A waiting partition before its answer: REQUEST_TIMED_OUT, DelayedProduce's initial status. */
export function timedOutResult(topic: string, partition: number): ProducePartitionResponse {
  return { topic, partition, error: 'REQUEST_TIMED_OUT', baseOffset: -1, errorMessage: 'REQUEST_TIMED_OUT (acks=all)' };
}

/** A coordinator's own acks=-1 write to one partition (see DelayedProduce.internal). */
export function delayProduce(
  ctx: Ctx,
  request: PendingRequest,
  topic: string,
  partition: number,
  baseOffset: number,
  lastOffset: number,
  timeoutMs: number,
  out: Out,
  internal?: DelayedProduce['internal'],
): Ctx {
  const wait: ProduceWait = { topic, partition, baseOffset, requiredOffset: lastOffset + 1 };
  return delayProduceRequest(ctx, request, [timedOutResult(topic, partition)], [wait], timeoutMs, out, internal);
}

/** DelayedProduce.onExpiration: the partitions still waiting answer REQUEST_TIMED_OUT; the batches stay in the log. */
export function onProduceTimeout(ctx: Ctx, id: number, out: Out): Ctx {
  const d = ctx.replication.delayed.find((x) => x.id === id);
  if (!d) return ctx;
  answerDelayed(d, d.answer, out);
  return withRep(ctx, { delayed: ctx.replication.delayed.filter((x) => x !== d) });
}

/**
 * KafkaApis.handleWriteTxnMarkersRequest → ReplicaManager.appendRecords(requiredAcks = -1, timeout =
 * the broker's request.timeout.ms): the WriteTxnMarkersResponse waits until each marker appended to
 * a replicated partition is below that partition's HW. `answer` holds every partition's result;
 * the waiting ones are answered as they complete (the caller moves the HW afterwards).
 */
export function delayMarkers(
  ctx: Ctx,
  request: PendingRequest,
  answer: WriteTxnMarkersResponse['markers'],
  waiting: readonly MarkerWait[],
  timeoutMs: number,
  out: Out,
): Ctx {
  const id = ctx.replication.nextId;
  out.timer(markersTimerKey(id), 'markersTimeout', timeoutMs, { id });
  return withRep(ctx, { delayedMarkers: [...ctx.replication.delayedMarkers, { id, request, answer, waiting }], nextId: id + 1 });
}

export function onMarkersTimeout(ctx: Ctx, id: number, out: Out): Ctx {
  return withRep(ctx, { delayedMarkers: expireMarkers(ctx.replication.delayedMarkers, id, out) });
}

// ---- the leader's side of replica fetching ----

function replyReplicaFetch(request: PendingRequest, r: ReplicaFetchResponse, out: Out): void {
  out.reply(request, 'FetchResponse', r, { background: r.batches.length === 0 && r.divergingEpoch === null });
}

/**
 * A follower's Fetch on the leader (Partition.fetchRecords): refused when not the leader; read
 * (DivergingEpoch, or records to the LEO); the follower's fetch state updated from the fetch offset
 * (not after a DivergingEpoch), then ISR expansion and the HW; an empty read is held up to
 * replica.fetch.wait.max.ms — a rise of the HW alone does not answer it.
 */
export function onReplicaFetch(ctx: Ctx, request: PendingRequest, f: ReplicaFetchRequest, now: number, out: Out): Ctx {
  const key = topicPartitionKey(f.topic, f.partition);
  const p = ctx.replication.leading[key];
  const log = ctx.partitions[key];
  if (!p || !log) {
    const epochError = fetchEpochError(ctx, log, f.currentLeaderEpoch);
    out.reply(request, 'FetchResponse', {
      topic: f.topic,
      partition: f.partition,
      error: epochError === 'NONE' ? 'NOT_LEADER_OR_FOLLOWER' : epochError,
      highWatermark: -1,
      logStartOffset: -1,
      batches: [],
      divergingEpoch: null,
      leaderEpoch: -1,
    } satisfies ReplicaFetchResponse);
    return ctx;
  }
  const read = readForFollower(log, p.leaderEpoch, f);
  if (read.error !== 'NONE' || read.divergingEpoch) {
    replyReplicaFetch(request, read, out);
    return ctx;
  }
  let c = ctx;
  const before = p.followers[f.replicaId]?.logEndOffset;
  const updated = updateFollowerFetchState(p, f.replicaId, f.fetchOffset, log.logEndOffset, now);
  c = withRep(c, { leading: { ...c.replication.leading, [key]: updated } });
  c = maybeExpand(c, key, f.replicaId, out);
  // Partition.updateFollowerFetchState: the HW is looked at (and the delayed produces it may
  // complete) only if this fetch moved the follower's LEO — not when only its lastCaughtUpTimeMs did
  if (updated.followers[f.replicaId]?.logEndOffset !== before) c = afterLeaderUpdate(c, key, now, out);
  if (read.batches.length === 0 && f.maxWaitMs > 0) {
    const id = c.replication.nextId;
    out.timer(`replicaFetch:${id}`, 'replicaFetchExpired', f.maxWaitMs, { id }, true);
    return withRep(c, { replicaParked: [...c.replication.replicaParked, { id, request, fetch: f }], nextId: id + 1 });
  }
  // the answer carries the HW as the read saw it, before this fetch moved it (Partition.fetchRecords:
  // readRecords, then updateFollowerFetchState): the follower learns that move with its next answer
  replyReplicaFetch(request, read, out);
  return c;
}

/** Answers held follower fetches of the partition that now have records (new data on the leader). */
export function wakeReplicaFetches(ctx: Ctx, key: string, out: Out): Ctx {
  const rep = ctx.replication;
  if (rep.replicaParked.length === 0) return ctx;
  const log = ctx.partitions[key];
  const p = rep.leading[key];
  const still: ParkedReplicaFetch[] = [];
  for (const x of rep.replicaParked) {
    if (topicPartitionKey(x.fetch.topic, x.fetch.partition) !== key || !log || !p) {
      still.push(x);
      continue;
    }
    const read = readForFollower(log, p.leaderEpoch, x.fetch);
    if (read.batches.length === 0 && read.error === 'NONE' && !read.divergingEpoch) {
      still.push(x);
      continue;
    }
    out.cancel(`replicaFetch:${x.id}`);
    replyReplicaFetch(x.request, read, out);
  }
  return still.length === rep.replicaParked.length ? ctx : withRep(ctx, { replicaParked: still });
}

export function onReplicaFetchExpired(ctx: Ctx, id: number, out: Out): Ctx {
  const x = ctx.replication.replicaParked.find((p) => p.id === id);
  if (!x) return ctx;
  const key = topicPartitionKey(x.fetch.topic, x.fetch.partition);
  const log = ctx.partitions[key];
  const p = ctx.replication.leading[key];
  const rest = withRep(ctx, { replicaParked: ctx.replication.replicaParked.filter((y) => y !== x) });
  if (!log || !p) return onReplicaFetch(rest, x.request, { ...x.fetch, maxWaitMs: 0 }, 0, out);
  replyReplicaFetch(x.request, readForFollower(log, p.leaderEpoch, x.fetch), out);
  return rest;
}

// ---- ISR changes ----

function sendAlterPartition(ctx: Ctx, key: string, isr: readonly ActorId[], out: Out): Ctx {
  const p = ctx.replication.leading[key];
  if (!p) return ctx;
  const correlationId = ctx.replication.nextId;
  out.send(
    ctx.replication.settings.controller,
    'AlterPartition',
    {
      correlationId,
      topic: p.topic,
      partition: p.partition,
      leaderId: ctx.id,
      leaderEpoch: p.leaderEpoch,
      partitionEpoch: p.partitionEpoch,
      newIsr: isr,
    },
    { timeoutMs: REPLICA_SOCKET_TIMEOUT_MS },
  );
  return withRep(ctx, {
    leading: { ...ctx.replication.leading, [key]: proposeIsr(p, isr) },
    alterInFlight: { ...ctx.replication.alterInFlight, [correlationId]: key },
    nextId: correlationId + 1,
  });
}

function maybeExpand(ctx: Ctx, key: string, follower: ActorId, out: Out): Ctx {
  const p = ctx.replication.leading[key];
  const log = ctx.partitions[key];
  if (!p || !log) return ctx;
  const isr = isrToExpand(p, log, follower, eligibleFor(ctx.replication));
  return isr ? sendAlterPartition(ctx, key, isr, out) : ctx;
}

/** The isr-expiration task (every replica.lag.time.max.ms / 2): Partition.maybeShrinkIsr for each led partition. */
export function onIsrExpiration(ctx: Ctx, now: number, out: Out): Ctx {
  let c = ctx;
  for (const key of Object.keys(ctx.replication.leading)) {
    const p = c.replication.leading[key];
    const log = c.partitions[key];
    if (!p || !log) continue;
    const isr = isrToShrink(p, log, now, c.replication.settings.replicaLagTimeMaxMs);
    if (isr) c = sendAlterPartition(c, key, isr, out);
  }
  out.timer('isrExpiration', 'isrExpiration', c.replication.settings.replicaLagTimeMaxMs / 2, {}, true);
  return c;
}

export function onAlterPartitionAnswer(
  ctx: Ctx,
  r: { correlationId: number; error: KafkaError; leaderEpoch: number; partitionEpoch: number; isr: readonly ActorId[] },
  now: number,
  out: Out,
): Ctx {
  const key = ctx.replication.alterInFlight[r.correlationId];
  if (key === undefined) return ctx;
  const { [r.correlationId]: _, ...alterInFlight } = ctx.replication.alterInFlight;
  const p = ctx.replication.leading[key];
  if (!p) return withRep(ctx, { alterInFlight });
  const next = onAlterPartitionResponse(p, r);
  return afterLeaderUpdate(withRep(ctx, { alterInFlight, leading: { ...ctx.replication.leading, [key]: next } }), key, now, out);
}

// ---- the follower's replica fetcher ----

function sendReplicaFetch(ctx: Ctx, key: string, out: Out): Ctx {
  const f = ctx.replication.following[key];
  const log = ctx.partitions[key];
  if (!f || !log) return ctx;
  const correlationId = ctx.replication.nextId;
  const fetch: ReplicaFetchRequest & { correlationId: number } = {
    correlationId,
    topic: log.topic,
    partition: log.partition,
    replicaId: ctx.id,
    brokerEpoch: ctx.replication.brokerEpoch,
    fetchOffset: log.logEndOffset,
    lastFetchedEpoch: lastFetchedEpoch(log),
    currentLeaderEpoch: f.leaderEpoch,
    maxWaitMs: ctx.replication.settings.replicaFetchWaitMaxMs,
    maxRecords: REPLICA_FETCH_MAX_RECORDS,
  };
  out.send(f.leader, 'Fetch', fetch, {
    timeoutMs: ctx.replication.settings.replicaFetchWaitMaxMs + REPLICA_SOCKET_TIMEOUT_MS,
    background: true,
  });
  return withRep(ctx, { following: { ...ctx.replication.following, [key]: { ...f, inFlight: correlationId } }, nextId: correlationId + 1 });
}

/** The leader's answer to this follower's Fetch (ReplicaFetcherThread.processPartitionData / truncateOnFetchResponse). */
export function onReplicaFetchAnswer(ctx: Ctx, r: ReplicaFetchResponse & { correlationId: number }, out: Out, now: number): Ctx {
  const key = topicPartitionKey(r.topic, r.partition);
  const f = ctx.replication.following[key];
  const log = ctx.partitions[key];
  if (!f || !log || f.inFlight !== r.correlationId) return ctx;
  if (r.error === 'FENCED_LEADER_EPOCH') return awaitMetadata(ctx, key);
  if (r.error !== 'NONE') return retryFetchLater(ctx, key, out);
  const expirationMs = ctx.producerExpiration.expirationMs;
  const outcome = applyReplicaFetchResponse(log, r, { now, expirationMs });
  if (outcome.reload) tellReload(out, ctx.id, r, 'truncation', outcome.reload, expirationMs);
  if (outcome.truncatedFrom !== null)
    out.fact({
      kind: 'truncated',
      broker: ctx.id,
      topic: r.topic,
      partition: r.partition,
      fromOffset: outcome.truncatedFrom,
      toOffset: log.logEndOffset,
      leaderEpoch: f.leaderEpoch,
      eventIds: outcome.truncated.flatMap((b) => b.records.map((x) => x.headers.event_id ?? null)),
      highWatermark: log.highWatermark,
      batches: outcome.truncated,
    });
  const c = outcome.log === log ? ctx : withLog(ctx, outcome.log);
  return sendReplicaFetch(c, key, out);
}

/**
 * AbstractFetcherThread.onPartitionFenced: the fetch carried the follower's current leader epoch (a
 * Fetch in flight always does: a new record replaces the followed partition), so the partition is
 * marked failed — no retry — and "will await the new LeaderAndIsr state before resuming fetching".
 * Any other error (NOT_LEADER_OR_FOLLOWER, UNKNOWN_LEADER_EPOCH …) is retried after the backoff.
 */
function awaitMetadata(ctx: Ctx, key: string): Ctx {
  const f = ctx.replication.following[key];
  if (!f) return ctx;
  return withRep(ctx, { following: { ...ctx.replication.following, [key]: { ...f, inFlight: null, awaitingMetadata: true } } });
}

function retryFetchLater(ctx: Ctx, key: string, out: Out): Ctx {
  const f = ctx.replication.following[key];
  if (!f) return ctx;
  out.timer(`refetch:${key}`, 'replicaFetchBackoff', REPLICA_FETCH_BACKOFF_MS, { key }, true);
  return withRep(ctx, { following: { ...ctx.replication.following, [key]: { ...f, inFlight: null } } });
}

export function onReplicaFetchBackoff(ctx: Ctx, key: string, out: Out): Ctx {
  const f = ctx.replication.following[key];
  return f && f.inFlight === null && !f.awaitingMetadata ? sendReplicaFetch(ctx, key, out) : ctx;
}

/** A request of this broker's that ended without an answer: a replica Fetch (retry later) or an AlterPartition (sent again). */
export function onReplicationRequestLost(
  ctx: Ctx,
  correlationId: number | undefined,
  out: Out,
  lost?: Readonly<Record<string, unknown>> & { leaderEpoch?: unknown },
): Ctx | null {
  if (correlationId === undefined) return null;
  for (const [key, f] of Object.entries(ctx.replication.following)) if (f.inFlight === correlationId) return retryFetchLater(ctx, key, out);
  const key = ctx.replication.alterInFlight[correlationId];
  if (key !== undefined) {
    const { [correlationId]: _, ...alterInFlight } = ctx.replication.alterInFlight;
    const c = withRep(ctx, { alterInFlight });
    const p = c.replication.leading[key];
    if (!p || !lost || lost.leaderEpoch !== p.leaderEpoch) return c;
    // NodeToControllerRequestThread puts a disconnected request back at the head of its queue and
    // sends it again as it was: the controller answers it (a stale partition epoch by then gets
    // INVALID_UPDATE_VERSION, which leaves the leader as the newer record made it)
    const id = c.replication.nextId;
    out.send(c.replication.settings.controller, 'AlterPartition', { ...lost, correlationId: id }, { timeoutMs: REPLICA_SOCKET_TIMEOUT_MS });
    return withRep(c, { alterInFlight: { ...alterInFlight, [id]: key }, nextId: id + 1 });
  }
  return null;
}

// ---- the controller's records ----

/**
 * A PartitionChange from the controller (BrokerMetadataPublisher → ReplicaManager.applyDelta):
 * becoming leader assigns the epoch start offset (its LEO) and resets the follower states
 * (Partition.makeLeader); the same leader epoch updates the ISR; otherwise the broker follows the
 * new leader (makeFollower) and the produces waiting on it end NOT_LEADER_OR_FOLLOWER.
 */
export function onPartitionChange(ctx: Ctx, change: PartitionChange & BrokerLists, now: number, out: Out): Ctx {
  const key = topicPartitionKey(change.topic, change.partition);
  const old = ctx.replication.registrations[key];
  if (old && (old.partitionEpoch > change.partitionEpoch || old.leaderEpoch > change.leaderEpoch)) return ctx;
  // the same partition epoch: no partition delta, only the brokers' fencing (KRaft's
  // BrokerRegistrationChangeRecord, which every broker applies to its metadata cache)
  if (old && old.partitionEpoch === change.partitionEpoch && old.leaderEpoch === change.leaderEpoch) return withBrokerLists(ctx, change);
  let c = withBrokerLists(ctx, change, { registrations: { ...ctx.replication.registrations, [key]: change } });
  const log = c.partitions[key];
  if (!log || !change.replicas.includes(ctx.id)) return c;
  const wasLeading = c.replication.leading[key];
  if (change.leader === ctx.id) {
    if (wasLeading && wasLeading.leaderEpoch === change.leaderEpoch) {
      const p: LeaderPartition = {
        ...wasLeading,
        isr: change.isr,
        partitionEpoch: change.partitionEpoch,
        replicas: change.replicas,
        proposedIsr: null,
      };
      return afterLeaderUpdate(withRep(c, { leading: { ...c.replication.leading, [key]: p } }), key, now, out);
    }
    const epochLog = assignEpochStartOffset(log, change.leaderEpoch);
    const minIsr = c.replication.settings.minInsyncReplicas[change.topic] ?? 1;
    const p = becomeLeader({ ...change, leader: ctx.id }, minIsr, epochLog.logEndOffset, now);
    const { [key]: _, ...following } = c.replication.following;
    c = withLog(withRep(c, { leading: { ...c.replication.leading, [key]: p }, following }), epochLog);
    return afterLeaderUpdate(c, key, now, out);
  }
  if (wasLeading) c = resign(c, key, out);
  // ReplicaManager.applyLocalFollowersDelta: in a controlled shutdown a replica out of the ISR (or
  // without a leader) stops fetching
  if (change.leader === null || (c.shutdown !== undefined && !change.isr.includes(ctx.id))) {
    const { [key]: _, ...following } = c.replication.following;
    return withRep(c, { following });
  }
  const f = c.replication.following[key];
  if (f && f.leader === change.leader && f.leaderEpoch === change.leaderEpoch) return c;
  c = withRep(c, {
    following: { ...c.replication.following, [key]: { leader: change.leader, leaderEpoch: change.leaderEpoch, inFlight: null } },
  });
  return sendReplicaFetch(c, key, out);
}

/** Leadership lost: waiting produces end NOT_LEADER_OR_FOLLOWER (the batches stay in the log); held follower fetches are answered. */
function resign(ctx: Ctx, key: string, out: Out): Ctx {
  const { [key]: _, ...leading } = ctx.replication.leading;
  const c = withRep(ctx, {
    leading,
    delayedMarkers: settleMarkers(ctx.replication.delayedMarkers, key, () => 'NOT_LEADER_OR_FOLLOWER', out),
  });
  const d = settleDelayed(c, key, out, () => 'NOT_LEADER_OR_FOLLOWER');
  const parked: ParkedReplicaFetch[] = [];
  for (const x of d.replication.replicaParked) {
    if (topicPartitionKey(x.fetch.topic, x.fetch.partition) !== key) parked.push(x);
    else {
      out.cancel(`replicaFetch:${x.id}`);
      onReplicaFetch(d, x.request, { ...x.fetch, maxWaitMs: 0 }, 0, out);
    }
  }
  const { topic, partition } = parseTopicPartition(key);
  return answerParkedOf(withRep(d, { replicaParked: parked }), out, topic, partition) as Ctx;
}

// ---- heartbeats, crash and restart ----

export function sendHeartbeat(ctx: Ctx, out: Out): Ctx {
  out.send(
    ctx.replication.settings.controller,
    'BrokerHeartbeat',
    // a controlled shutdown under way asks for it in every heartbeat (broker/controlledShutdown.ts)
    { brokerId: ctx.id, brokerEpoch: ctx.replication.brokerEpoch, ...(ctx.shutdown ? { wantShutDown: true } : {}) },
    { timeoutMs: ctx.replication.settings.heartbeatIntervalMs, background: true },
  );
  out.timer('heartbeat', 'heartbeatDue', ctx.replication.settings.heartbeatIntervalMs, {}, true);
  return ctx;
}

/** On boot: the initial partition records (every replica in the ISR, the first replica leading), the heartbeat and the ISR task. */
export function startReplication(ctx: Ctx, initial: readonly PartitionChange[], now: number, out: Out): Ctx {
  let c = ctx;
  for (const change of initial) c = onPartitionChange(c, change, now, out);
  out.timer('isrExpiration', 'isrExpiration', c.replication.settings.replicaLagTimeMaxMs / 2, {}, true);
  return sendHeartbeat(c, out);
}

/** A crash keeps the logs and loses every in-memory replica state; the metadata cache comes back from the controller. */
export function crashReplication(rep: BrokerReplication): BrokerReplication {
  return { ...initialReplication(rep.settings), brokerEpoch: rep.brokerEpoch, nextId: rep.nextId };
}

/** On restart the broker registers with a new broker epoch and waits for the controller's records. */
export function restartReplication(ctx: Ctx, out: Out): Ctx {
  const c = withRep(ctx, { brokerEpoch: ctx.replication.brokerEpoch + 1, registering: true });
  out.timer('isrExpiration', 'isrExpiration', c.replication.settings.replicaLagTimeMaxMs / 2, {}, true);
  return sendHeartbeat(c, out);
}
