/**
 * A broker: the leader of some partitions. It appends producers' batches after the idempotence
 * checks, writes transaction markers when the coordinator asks, answers fetches (holding an empty
 * fetch up to fetch.max.wait.ms, as Kafka's purgatory does), and runs the log cleaner on request.
 *
 * A crash keeps the logs (they are on disk) and loses what was in memory: held fetches. Its states
 * are its availability (online, down); [replication] adds each partition's leadership.
 */

import { setup } from 'xstate';
import type { Call, Lifecycle, Rpc, Timer } from '../actors/events';
import { handle, Out, type PendingRequest, pendingRequest } from '../actors/out';
import { type ClusterMetadata, CONSUMER_OFFSETS_TOPIC } from '../cluster/metadata';
import { BROKER_REQUEST_TIMEOUT_MS } from '../config/clusterConfig';
import type { DisconnectedEvent, RpcEvent, TimerEvent } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import { extend } from '../kernel/extend';
import { cleanLog } from '../log/logCleaner';
import { appendEpoch, appendMarker, isCompacted, lastStableOffset, type PartitionLog } from '../log/partitionLog';
import type { ControlType } from '../log/recordBatch';
import type { KafkaError } from '../protocol/errors';
import type {
  AddPartitionsToTxnBatchResponse,
  ErrorOrNone,
  FetchRequest,
  ListOffsetsRequest,
  OffsetsForLeaderEpochRequest,
  ProduceRequest,
  WriteTxnMarkersRequest,
} from '../protocol/messages';
import type { AlterPartitionResponse, BrokerHeartbeatResponse, MetadataRequest, PartitionChange } from '../protocol/replicationMessages';
import { keyOf, topicPartitionKey } from '../protocol/topicPartition';
import type { ReplicaFetchRequest, ReplicaFetchResponse } from '../replication/followerFetch';
import { notEnoughReplicasBeforeAppend } from '../replication/leaderPartition';
import { type Fact, markerAppendFact } from '../trace/facts';
import { answerFetch, fetchCompletion, fetchHoldMs, wakeParked, withParked } from './consumerFetch';
import {
  beginControlledShutdown,
  type ControlledShutdownEvent,
  onControlledShutdownTimeout,
  onHeartbeatAnswer,
} from './controlledShutdown';
import { onVerifyTxnOffsetCommit, type VerifyTxnOffsetCommitArgs } from './coordinatorVerification';
import type { MarkerWait } from './delayedMarkers';
import { onListOffsets } from './listOffsets';
import { onMetadata } from './metadataRequest';
import { onOffsetsForLeaderEpoch } from './offsetsForLeaderEpoch';
import {
  type AppendConsumerOffsetsArgs,
  groupCoordinatorFor,
  groupCoordinatorHandoffs,
  hostsGroupCoordinator,
  onAppendConsumerOffsets,
  tellMarkerWritten,
} from './offsetsHost';
import {
  type AbortSpec,
  type AbortTransactionEvent,
  type AbortTransactionRequest,
  abortRefused,
  findAbortSpec,
  leaderUnreachable,
  noLeader,
  noOpenTransaction,
} from './operatorAbort';
import { onProduce, onVerification, onVerificationLost, onVerificationRetry, type PendingVerification } from './produceRequest';
import {
  armChangedLogs,
  DEFAULT_PRODUCER_EXPIRATION,
  onProducerExpirationCheck,
  type ProducerExpirationSettings,
  reopenLogs,
} from './producerExpirationCheck';
import {
  afterLeaderUpdate,
  type BrokerReplication,
  crashReplication,
  delayMarkers,
  initialReplication,
  isReplicated,
  leadsOrUnreplicated,
  onAlterPartitionAnswer,
  onIsrExpiration,
  onMarkersTimeout,
  onPartitionChange,
  onProduceTimeout,
  onReplicaFetch,
  onReplicaFetchAnswer,
  onReplicaFetchBackoff,
  onReplicaFetchExpired,
  onReplicationRequestLost,
  type ReplicationSettings,
  restartReplication,
  sendHeartbeat,
  startReplication,
  wakeReplicaFetches,
} from './replication';
import {
  type AppendTxnStateArgs,
  coordinatorHandoffs,
  coordinatorLeaderUpdates,
  onAppendTxnState,
  onFindCoordinator,
} from './txnStateHost';
import { EMPTY_VERIFICATION_QUEUE, type VerificationQueue } from './verificationQueue';

export interface ParkedFetch {
  readonly id: number;
  readonly request: PendingRequest;
  readonly fetch: FetchRequest;
}

export interface BrokerContext {
  readonly id: ActorId;
  readonly partitions: Readonly<Record<string, PartitionLog>>;
  readonly parked: readonly ParkedFetch[];
  readonly nextParkId: number;
  /** transaction.partition.verification.enable (KIP-890 part 1). */
  readonly verification: boolean;
  readonly transactionVersion: 1 | 2;
  readonly transactionCoordinator: ActorId;
  readonly verifying: readonly PendingVerification[];
  /** The verifications waiting for, or in flight to, each transaction coordinator (AddPartitionsToTxnManager). */
  readonly verificationQueue: VerificationQueue;
  readonly nextCorrelationId: number;
  /** The cluster as the scenario built it (Metadata answers for partitions with one replica). */
  readonly meta: ClusterMetadata;
  /** Its replicas, leaderships and the controller's records; absent when no topic is replicated. */
  readonly replication?: BrokerReplication;
  /** producer.id.expiration.ms and its check interval (broker/producerExpirationCheck.ts). */
  readonly producerExpiration: ProducerExpirationSettings;
  /** When its logs were opened (0 with the cluster; a restart sets it): the expiration checks count from it. */
  readonly logsOpenedAtMs: number;
  /** The expiration check armed for each log, by its time: one timer per log. */
  readonly expiryChecks: Readonly<Record<string, number>>;
  /**
   * A controlled shutdown under way (BrokerLifecycleManager's PENDING_CONTROLLED_SHUTDOWN;
   * broker/controlledShutdown.ts): when to start again after it stopped, and whether the controller
   * has answered it once.
   */
  readonly shutdown?: { readonly restartAfterMs: number | null; readonly label: string; readonly answered: boolean };
  /** It stopped cleanly (its logs closed, the clean shutdown file written): its next start recovers nothing. */
  readonly cleanShutdown?: true;
}

export interface BrokerInput {
  readonly id: ActorId;
  readonly partitions: readonly PartitionLog[];
  readonly verification: boolean;
  readonly transactionVersion: 1 | 2;
  readonly meta: ClusterMetadata;
  /** When some topic is replicated: the settings and the controller's first record of each partition it hosts. */
  readonly replication?: { readonly settings: ReplicationSettings; readonly initial: readonly PartitionChange[] };
  /** producer.id.expiration.ms and its check interval; Kafka's defaults when absent. */
  readonly producerExpiration?: ProducerExpirationSettings;
}

type ReplicatedCtx = BrokerContext & { readonly replication: BrokerReplication };
const hasReplication = (ctx: BrokerContext): ctx is ReplicatedCtx => ctx.replication !== undefined;

/** Every event a broker handles. */
export type BrokerEvent =
  | Rpc<'Produce', ProduceRequest>
  | Rpc<'AddPartitionsToTxnResponse', AddPartitionsToTxnBatchResponse>
  | DisconnectedEvent
  | Rpc<'Fetch', FetchRequest>
  | Rpc<'ListOffsets', ListOffsetsRequest>
  | Rpc<'OffsetsForLeaderEpoch', OffsetsForLeaderEpochRequest>
  | Timer<'fetchWaitExpired', { parkId: number }>
  | Rpc<'WriteTxnMarkers', WriteTxnMarkersRequest>
  | { type: 'runCleaner'; now: number; topic?: string; partition?: number }
  | (AbortTransactionEvent & { now: number })
  | Rpc<'FetchResponse', ReplicaFetchResponse & { correlationId: number }>
  | Rpc<'AlterPartitionResponse', AlterPartitionResponse & { correlationId: number }>
  | Rpc<'PartitionChange', PartitionChange>
  | Rpc<'BrokerHeartbeatResponse', BrokerHeartbeatResponse>
  | ControlledShutdownEvent
  | Timer<'controlledShutdownTimeout'>
  | Rpc<'Metadata', MetadataRequest>
  | Rpc<'FindCoordinator', { key: string; keyType: 'transaction' | 'group' }>
  | Call<'appendTxnState', AppendTxnStateArgs>
  | Call<'appendConsumerOffsets', AppendConsumerOffsetsArgs>
  | Call<'verifyTxnOffsetCommit', VerifyTxnOffsetCommitArgs>
  | Timer<'produceTimeout', { id: number }>
  | Timer<'verificationRetry', { correlationId: number }>
  | Timer<'markersTimeout', { id: number }>
  | Timer<'replicaFetchExpired', { id: number }>
  | Timer<'replicaFetchBackoff', { key: string }>
  | Timer<'isrExpiration'>
  | Timer<'heartbeatDue'>
  | Timer<'producerExpirationCheck', { key: string }>
  | Lifecycle;

/**
 * A handler whose appends (batches, markers, a follower's copies) change producer state arms that
 * log's producer expiration check (broker/producerExpirationCheck.ts).
 */
function handleArming<E extends { now: number }>(fn: (ctx: BrokerContext, ev: E, out: Out) => BrokerContext) {
  return handle((ctx: BrokerContext, ev: E, out: Out) => armChangedLogs(ctx, fn(ctx, ev, out), ev.now, out));
}

function withLog(ctx: BrokerContext, log: PartitionLog): BrokerContext {
  return { ...ctx, partitions: { ...ctx.partitions, [keyOf(log)]: log } };
}

const onFetch = (ctx: BrokerContext, ev: RpcEvent<FetchRequest>, out: Out): BrokerContext => {
  const f = ev.payload;
  const request = pendingRequest(ev);
  const replica = ev.payload as unknown as Partial<ReplicaFetchRequest>;
  if (replica.replicaId !== undefined && hasReplication(ctx))
    return onReplicaFetch(ctx, request, replica as ReplicaFetchRequest, ev.now, out);
  const completion = fetchCompletion(ctx, f);
  if (completion !== 'now') {
    // not enough to return yet (ReplicaManager.fetchMessages): hold the whole fetch until one of its
    // partitions completes it or fetch.max.wait.ms passes — only for an instant when a partition is
    // above what it may read (fetchHoldMs: DelayedFetch's case F)
    const id = ctx.nextParkId;
    out.timer(`fetch:${id}`, 'fetchWaitExpired', fetchHoldMs(completion, f), { parkId: id }, true);
    return withParked(ctx, [...ctx.parked, { id, request, fetch: f }], id + 1);
  }
  answerFetch(ctx, out, request, f);
  return ctx;
};

const onFetchWaitExpired = (ctx: BrokerContext, ev: TimerEvent<{ parkId: number }>, out: Out): BrokerContext => {
  const p = ctx.parked.find((x) => x.id === ev.data.parkId);
  if (!p) return ctx;
  answerFetch(ctx, out, p.request, p.fetch);
  return withParked(
    ctx,
    ctx.parked.filter((x) => x !== p),
    ctx.nextParkId,
  );
};

/** A transaction marker to append: what a WriteTxnMarkers entry (or an operator's abort) asks. */
interface TxnMarker {
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly result: ControlType;
  readonly coordinatorEpoch: number;
}

/**
 * One transaction marker appended to a partition (KafkaApis.handleWriteTxnMarkersRequest's append,
 * requiredAcks = -1; shared by WriteTxnMarkers and an operator's `kafka-transactions.sh abort`):
 * only where this broker leads (NOT_LEADER_OR_FOLLOWER), after the min ISR check on a replicated
 * partition (NOT_ENOUGH_REPLICAS, nothing written), then appendMarker's epoch and coordinator-epoch
 * checks. `offset`: where the marker went (null: not written, `error` says why); `wait`: on a
 * replicated partition, the high watermark the answer waits for.
 */
function appendTxnMarker(
  ctx: BrokerContext,
  tp: { readonly topic: string; readonly partition: number },
  m: TxnMarker,
  now: number,
  out: Out,
): { ctx: BrokerContext; error: ErrorOrNone; offset: number | null; wait: MarkerWait | null } {
  const log = ctx.partitions[keyOf(tp)];
  if (!log || !leadsOrUnreplicated(ctx, log)) return { ctx, error: 'NOT_LEADER_OR_FOLLOWER', offset: null, wait: null };
  const leader = hasReplication(ctx) && isReplicated(log) ? ctx.replication.leading[keyOf(tp)] : undefined;
  // a hosted group coordinator's partition takes its markers with acks=1 (CoordinatorPartitionWriter)
  const acks = tp.topic === CONSUMER_OFFSETS_TOPIC && hostsGroupCoordinator(ctx) ? 1 : -1;
  if (leader && notEnoughReplicasBeforeAppend(leader, acks) !== null)
    return { ctx, error: 'NOT_ENOUGH_REPLICAS', offset: null, wait: null };
  const r = appendMarker(
    log,
    { producerId: m.producerId, producerEpoch: m.producerEpoch, controlType: m.result, coordinatorEpoch: m.coordinatorEpoch },
    now,
  );
  if (r.outcome.kind === 'rejected') return { ctx, error: r.outcome.error, offset: null, wait: null };
  if (r.outcome.kind !== 'appended') return { ctx, error: 'NONE', offset: null, wait: null };
  out.fact(markerAppendFact(tp, r.outcome, m, appendEpoch(r.log)));
  tellMarkerWritten(ctx, tp, { producerId: m.producerId, result: m.result }, out);
  const wait = leader
    ? { producerId: m.producerId, topic: tp.topic, partition: tp.partition, requiredOffset: r.outcome.lastOffset + 1 }
    : null;
  return { ctx: withLog(ctx, r.log), error: 'NONE', offset: r.outcome.baseOffset, wait };
}

/** After markers were appended: fetches held on those partitions wake, and on a replicated one the followers' fetches and the HW move. */
function afterMarkerAppends(
  ctx: BrokerContext,
  touched: readonly { readonly topic: string; readonly partition: number }[],
  now: number,
  out: Out,
): BrokerContext {
  let next = ctx;
  for (const tp of touched) {
    next = wakeParked(next, out, tp.topic, tp.partition);
    if (hasReplication(next) && isReplicated(next.partitions[keyOf(tp)]))
      next = afterLeaderUpdate(wakeReplicaFetches(next, keyOf(tp), out), keyOf(tp), now, out);
  }
  return next;
}

/**
 * WriteTxnMarkers (KafkaApis.handleWriteTxnMarkersRequest): each marker is appended with
 * requiredAcks = -1. On a replicated partition that means the min ISR check before the append
 * (NOT_ENOUGH_REPLICAS, nothing written) and an answer only once the HW passes the marker; the
 * response goes when every partition has its result.
 */
const onWriteTxnMarkers = (ctx: BrokerContext, ev: RpcEvent<WriteTxnMarkersRequest>, out: Out): BrokerContext => {
  let next = ctx;
  const results: { producerId: number; partitions: { topic: string; partition: number; error: ErrorOrNone }[] }[] = [];
  const touched: { topic: string; partition: number }[] = [];
  const waiting: MarkerWait[] = [];
  for (const m of ev.payload.markers) {
    const partitions: { topic: string; partition: number; error: ErrorOrNone }[] = [];
    for (const tp of m.partitions) {
      const r = appendTxnMarker(next, tp, m, ev.now, out);
      next = r.ctx;
      if (r.offset !== null) touched.push(tp);
      if (r.wait) waiting.push(r.wait);
      partitions.push(extend(tp, { error: r.offset !== null && r.wait ? ('REQUEST_TIMED_OUT' as const) : r.error }));
    }
    results.push({ producerId: m.producerId, partitions });
  }
  if (waiting.length > 0 && hasReplication(next))
    next = delayMarkers(next, pendingRequest(ev), results, waiting, BROKER_REQUEST_TIMEOUT_MS, out);
  else out.reply(pendingRequest(ev), 'WriteTxnMarkersResponse', { markers: results });
  return afterMarkerAppends(next, touched, ev.now, out);
};

/**
 * An operator's `kafka-transactions.sh abort --start-offset N` reaching the partition's leader
 * (broker/operatorAbort.ts): the open transaction starting at N, then its ABORT marker through the
 * same append as WriteTxnMarkers. What came of it is an `operatorAbort` fact.
 */
const onAbortTransaction = (ctx: BrokerContext, ev: AbortTransactionEvent & { now: number }, out: Out): BrokerContext => {
  // the tool's admin client is still waiting for a reachable leader (operatorAbort.ts routeAbort)
  if (ev.retrying) return ctx;
  if (ev.unreachable !== undefined) {
    out.fact(operatorAbortFact(ctx.id, ev, null, null, 'leader-unreachable', leaderUnreachable(ev), ev.unreachable));
    return ctx;
  }
  const log = ctx.partitions[topicPartitionKey(ev.topic, ev.partition)];
  if (ev.leader !== ctx.id || !log || !leadsOrUnreplicated(ctx, log)) {
    out.fact(operatorAbortFact(ctx.id, ev, null, null, 'no-leader', noLeader(ev)));
    return ctx;
  }
  const spec = findAbortSpec(log, ev.startOffset);
  if (!spec) {
    out.fact(operatorAbortFact(ctx.id, ev, null, null, 'no-open-transaction', noOpenTransaction(ev)));
    return ctx;
  }
  return abortWithSpec(ctx, ev, spec, ev.now, out);
};

/** AbortTransactionHandler: the spec's ABORT marker on its one partition; a refusal is what the tool prints. */
export function abortWithSpec(ctx: BrokerContext, req: AbortTransactionRequest, spec: AbortSpec, now: number, out: Out): BrokerContext {
  const tp = { topic: req.topic, partition: req.partition };
  // what the tool did is told before the append it caused (the marker's own fact follows)
  const append = new Out();
  const r = appendTxnMarker(ctx, tp, { ...spec, result: 'ABORT' }, now, append);
  if (r.offset === null) {
    const error = r.error as KafkaError;
    out.fact(operatorAbortFact(ctx.id, req, spec, null, error, abortRefused(req, spec, error)));
    return ctx;
  }
  out.fact(operatorAbortFact(ctx.id, req, spec, r.offset, null, null));
  out.effects.push(...append.effects);
  return afterMarkerAppends(r.ctx, [tp], now, out);
}

function operatorAbortFact(
  broker: ActorId,
  req: AbortTransactionRequest,
  spec: AbortSpec | null,
  markerOffset: number | null,
  failure: Extract<Fact, { kind: 'operatorAbort' }>['failure'],
  printed: string | null,
  unreachable?: ActorId,
): Fact {
  return {
    kind: 'operatorAbort',
    broker,
    topic: req.topic,
    partition: req.partition,
    startOffset: req.startOffset,
    spec: spec ? { ...spec } : null,
    markerOffset,
    printed,
    failure,
    ...(unreachable !== undefined ? { unreachable } : {}),
  };
}

const onRunCleaner = (ctx: BrokerContext, ev: { now: number; topic?: string; partition?: number }, out: Out): BrokerContext => {
  let next = ctx;
  for (const log of Object.values(ctx.partitions)) {
    if (!isCompacted(log.topicConfig)) continue;
    if (ev.topic !== undefined && ev.topic !== log.topic) continue;
    if (ev.partition !== undefined && ev.partition !== log.partition) continue;
    const r = cleanLog(log, ev.now);
    out.fact({
      kind: 'cleaned',
      topic: log.topic,
      partition: log.partition,
      removed: r.removed,
      cleanedUpTo: r.cleanableUpTo,
      ...(r.markersRemoved > 0 ? { markers: r.markersRemoved } : {}),
      ...(r.abortedRemoved > 0 ? { aborted: r.abortedRemoved } : {}),
      ...(r.tombstonesRemoved > 0 ? { tombstones: r.tombstonesRemoved } : {}),
    });
    next = withLog(next, r.log);
  }
  return next;
};

export const brokerMachine = setup({
  types: {} as { context: BrokerContext; input: BrokerInput; events: BrokerEvent },
}).createMachine({
  id: 'broker',
  context: ({ input }) => ({
    id: input.id,
    partitions: Object.fromEntries(input.partitions.map((p) => [keyOf(p), p])),
    parked: [],
    nextParkId: 0,
    verification: input.verification,
    transactionVersion: input.transactionVersion,
    transactionCoordinator: input.meta.transactionCoordinator,
    verifying: [],
    verificationQueue: EMPTY_VERIFICATION_QUEUE,
    nextCorrelationId: 0,
    meta: input.meta,
    producerExpiration: input.producerExpiration ?? DEFAULT_PRODUCER_EXPIRATION,
    logsOpenedAtMs: 0,
    expiryChecks: {},
    ...(input.replication
      ? { replication: initialReplication(input.replication.settings), initialRecords: input.replication.initial }
      : {}),
  }),
  initial: 'online',
  states: {
    online: {
      on: {
        Produce: { actions: handleArming(onProduce) },
        AddPartitionsToTxnResponse: { actions: handleArming(onVerification) },
        verificationRetry: { actions: handleArming(onVerificationRetry) },
        disconnected: { actions: handleArming(onRequestLost) },
        boot: { actions: handleArming(onBoot) },
        Metadata: {
          actions: handleArming((ctx: BrokerContext, ev: RpcEvent<MetadataRequest>, out: Out) =>
            onMetadata(ctx, pendingRequest(ev), ev.payload, out),
          ),
        },
        FindCoordinator: {
          actions: handleArming((ctx: BrokerContext, ev: RpcEvent<{ key: string; keyType: 'transaction' | 'group' }>, out: Out) =>
            onFindCoordinator(
              ctx,
              pendingRequest(ev),
              ev.payload.key,
              out,
              ev.payload.keyType === 'group' ? groupCoordinatorFor(ctx, ev.payload.key) : undefined,
            ),
          ),
        },
        appendConsumerOffsets: {
          actions: handleArming((ctx: BrokerContext, ev: { from: string; args: AppendConsumerOffsetsArgs; now: number }, out: Out) =>
            onAppendConsumerOffsets(ctx, ev.from, ev.args, ev.now, out),
          ),
        },
        verifyTxnOffsetCommit: {
          actions: handleArming((ctx: BrokerContext, ev: { from: string; args: VerifyTxnOffsetCommitArgs; now: number }, out: Out) =>
            onVerifyTxnOffsetCommit(ctx, ev.from, ev.args, ev.now, out),
          ),
        },
        appendTxnState: {
          actions: handleArming((ctx: BrokerContext, ev: { from: string; args: AppendTxnStateArgs; now: number }, out: Out) =>
            onAppendTxnState(ctx, ev.from, ev.args, ev.now, out),
          ),
        },
        FetchResponse: {
          actions: handleArming(
            replicated((ctx, ev: RpcEvent<ReplicaFetchResponse & { correlationId: number }>, out) =>
              onReplicaFetchAnswer(ctx, ev.payload, out, ev.now),
            ),
          ),
        },
        AlterPartitionResponse: {
          actions: handleArming(
            replicated((ctx, ev: RpcEvent<AlterPartitionResponse & { correlationId: number }>, out) =>
              onAlterPartitionAnswer(ctx, ev.payload, ev.now, out),
            ),
          ),
        },
        PartitionChange: {
          actions: handleArming(replicated((ctx, ev: RpcEvent<PartitionChange>, out) => onPartitionChangeRequest(ctx, ev, out))),
        },
        produceTimeout: {
          actions: handleArming(replicated((ctx, ev: TimerEvent<{ id: number }>, out) => onProduceTimeout(ctx, ev.data.id, out))),
        },
        markersTimeout: {
          actions: handleArming(replicated((ctx, ev: TimerEvent<{ id: number }>, out) => onMarkersTimeout(ctx, ev.data.id, out))),
        },
        replicaFetchExpired: {
          actions: handleArming(replicated((ctx, ev: TimerEvent<{ id: number }>, out) => onReplicaFetchExpired(ctx, ev.data.id, out))),
        },
        replicaFetchBackoff: {
          actions: handleArming(replicated((ctx, ev: TimerEvent<{ key: string }>, out) => onReplicaFetchBackoff(ctx, ev.data.key, out))),
        },
        isrExpiration: { actions: handleArming(replicated((ctx, ev: TimerEvent, out) => onIsrExpiration(ctx, ev.now, out))) },
        heartbeatDue: { actions: handleArming(replicated((ctx, _ev: TimerEvent, out) => sendHeartbeat(ctx, out))) },
        Fetch: { actions: handleArming(onFetch) },
        ListOffsets: { actions: handleArming(onListOffsets) },
        OffsetsForLeaderEpoch: { actions: handleArming(onOffsetsForLeaderEpoch) },
        fetchWaitExpired: { actions: handleArming(onFetchWaitExpired) },
        WriteTxnMarkers: { actions: handleArming(onWriteTxnMarkers) },
        operatorAbortTransaction: { actions: handleArming(onAbortTransaction) },
        runCleaner: { actions: handleArming(onRunCleaner) },
        producerExpirationCheck: { actions: handle(onProducerExpirationCheck) },
        controlledShutdown: { actions: handleArming(beginControlledShutdown) },
        controlledShutdownTimeout: { actions: handleArming(onControlledShutdownTimeout) },
        BrokerHeartbeatResponse: { actions: handleArming(onHeartbeatAnswer) },
        crash: {
          target: 'down',
          // the logs are on disk; held fetches and transaction verifications were only in memory
          actions: handle((ctx: BrokerContext) => ({
            ...ctx,
            // a controlled shutdown under way ends unclean (its timers die with the process)
            ...(ctx.shutdown ? { shutdown: undefined } : {}),
            parked: [],
            verifying: [],
            verificationQueue: EMPTY_VERIFICATION_QUEUE,
            ...(ctx.replication ? { replication: crashReplication(ctx.replication) } : {}),
            // its timers died with it; the restart opens the logs again
            expiryChecks: {},
            partitions: Object.fromEntries(
              Object.entries(ctx.partitions).map(([k, log]) => [
                k,
                log.verificationStates.size ? { ...log, verificationStates: new Map() } : log,
              ]),
            ),
          })),
        },
      },
    },
    /** The broker's process is down (one word for a crashed process, as every machine uses). */
    down: {
      on: {
        restart: {
          target: 'online',
          actions: handle((ctx: BrokerContext, ev: Lifecycle, out: Out) =>
            replicated((c, _ev: Lifecycle, o) => restartReplication(c, o))(reopenLogs(ctx, ev.now, out), ev, out),
          ),
        },
      },
    },
  },
});

/** A PartitionChange is applied and acknowledged (the controller resends it until it is answered). */
function onPartitionChangeRequest(ctx: ReplicatedCtx, ev: RpcEvent<PartitionChange>, out: Out): BrokerContext {
  const { topic, partition, partitionEpoch } = ev.payload;
  out.reply(pendingRequest(ev), 'PartitionChangeResponse', { topic, partition, partitionEpoch });
  const next = onPartitionChange(ctx, ev.payload, ev.now, out);
  coordinatorHandoffs(ctx, next, out);
  groupCoordinatorHandoffs(ctx, next, out);
  coordinatorLeaderUpdates(ctx, next, out);
  return next;
}

/** A handler that runs only when the cluster replicates (the broker has replica state). */
function replicated<E>(fn: (ctx: ReplicatedCtx, ev: E, out: Out) => BrokerContext): (ctx: BrokerContext, ev: E, out: Out) => BrokerContext {
  return (ctx, ev, out) => (hasReplication(ctx) ? fn(ctx, ev, out) : ctx);
}

/** Boot (replication only): the controller's first records, the heartbeat, the ISR task. */
function onBoot(ctx: BrokerContext, ev: Lifecycle, out: Out): BrokerContext {
  if (!hasReplication(ctx)) return ctx;
  const initial = (ctx as { initialRecords?: readonly PartitionChange[] }).initialRecords ?? [];
  const { initialRecords: _, ...rest } = ctx as ReplicatedCtx & { initialRecords?: unknown };
  const next = startReplication(rest, initial, ev.now, out);
  coordinatorHandoffs(rest, next, out);
  groupCoordinatorHandoffs(rest, next, out);
  return next;
}

/** A request of the broker's that ended unanswered: a replica Fetch or AlterPartition, else a transaction verification. */
function onRequestLost(ctx: BrokerContext, ev: DisconnectedEvent, out: Out): BrokerContext {
  if (hasReplication(ctx)) {
    const handled = onReplicationRequestLost(ctx, (ev.payload as { correlationId?: number }).correlationId, out, ev.payload);
    if (handled) return handled;
  }
  return onVerificationLost(ctx, ev, out);
}

/** The LSO of a partition as this broker sees it (for views). */
export function brokerLso(ctx: BrokerContext, topic: string, partition: number): number | null {
  const log = ctx.partitions[topicPartitionKey(topic, partition)];
  return log ? lastStableOffset(log) : null;
}
