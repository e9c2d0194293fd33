/**
 * The transaction coordinator as Kafka runs it when `__transaction_state` is replicated
 * (transaction.state.log.replication.factor > 1): a module of every broker, here an actor of the
 * broker's process (`broker-N.txn-coordinator`), active for the `__transaction_state` partitions its
 * broker leads. The broker tells it in-process when it becomes leader of one (onElection: load the
 * partition from its own replica, COORDINATOR_LOAD_IN_PROGRESS meanwhile, then finish what was in
 * PrepareCommit/PrepareAbort) or stops leading it (onResignation: forget its transactional ids).
 * A transactional.id of a partition it does not lead gets NOT_COORDINATOR.
 *
 * Its writes are appends to the host's leader replica with acks=-1 and the partition's min ISR
 * (transaction.state.log.min.isr), answered in-process; a request's answer waits for its write
 * (txnStateWrites.ts). The request handlers are the one-replica coordinator's
 * (transactionCoordinator.machine.ts).
 */
import { setup } from 'xstate';
import type { Call, Lifecycle, Rpc, Timer } from '../actors/events';
import { handle, type Out, pendingRequest } from '../actors/out';
import { TRANSACTION_STATE_TOPIC } from '../cluster/metadata';
import type { DisconnectedEvent, RpcEvent, TimerEvent } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import { coordinatorPartitionFor } from '../producer/partitioner';
import type { KafkaError } from '../protocol/errors';
import { gatheringBatches, servingBatches } from './addPartitionsBatch';
import {
  maybeComplete,
  onMarkerReconnectBackoffOver,
  onMarkerRequestLost,
  onMarkerRetry,
  onMarkersResponse,
  onPartitionLeaderCall,
} from './markerChannel';
import { cacheWhileWriting, pendingTransitionError } from './pendingTransition';
import { armExpiration, EXPIRATION_CHECK, type ExpirationTimer, expirationOutcome, expirationTimerKey } from './transactionalIdExpiration';
import {
  armNextScan,
  finishLoaded,
  hasInvalidTransactionTimeout,
  onAddOffsets,
  onAddPartitions,
  onEndTxn,
  onInitProducerId,
  onTimeoutCheck,
  type TxnCoordinatorEvent,
} from './transactionCoordinator.machine';
import { decodeTxnRecord, type TxnMetadata } from './transactionMetadata';
import {
  appendTombstoneToHost,
  type HostedState,
  type TxnCoordinatorConfig,
  type TxnCoordinatorContext,
  type TxnDraft,
} from './txnCoordinatorContext';
import { onWriteAnswered, withDeferredWrites } from './txnStateWrites';

/** The actor id of the coordinator a broker hosts. */
export function hostedCoordinatorId(broker: ActorId): ActorId {
  return `${broker}.txn-coordinator`;
}

/**
 * The first producer id a broker's coordinator hands out. Kafka's brokers take blocks of 1000 ids
 * from the controller (ProducerIdManager, AllocateProducerIds); the model gives broker i the block
 * starting at 1000·(i+1), so no two coordinators hand out the same id.
 */
export function producerIdBlockStart(brokerIndex: number): number {
  return 1000 * (brokerIndex + 1);
}

export interface HostedTxnCoordinatorInput {
  readonly id: ActorId;
  readonly host: ActorId;
  readonly meta: TxnCoordinatorContext['meta'];
  readonly config: TxnCoordinatorConfig;
  readonly firstProducerId: number;
}

type Records = readonly { readonly key: string; readonly value: string | null }[];

export type HostedTxnCoordinatorEvent =
  | TxnCoordinatorEvent
  | Call<'becomeCoordinator', { partition: number; coordinatorEpoch: number; records: Records }>
  | Call<'resignCoordinator', { partition: number }>
  | Call<'txnStateAppended', { writeId: number; error: KafkaError | 'NONE' }>
  | Timer<'partitionLoaded', { partition: number; coordinatorEpoch: number }>
  | Timer<'completeRetry', { transactionalId: string }>
  | Timer<typeof EXPIRATION_CHECK, { transactionalId: string }>
  | Rpc<'WriteTxnMarkersResponse'>
  | DisconnectedEvent;

const hostedOf = (ctx: TxnCoordinatorContext) => ctx.hosted as HostedState;
const partitionOf = (ctx: TxnCoordinatorContext, transactionalId: string) =>
  coordinatorPartitionFor(transactionalId, ctx.meta.transactionStatePartitions);

/**
 * Before a request reaches the handlers (TransactionStateManager.getTransactionState): a
 * transactional.id of a partition this broker does not lead → NOT_COORDINATOR; one still loading →
 * COORDINATOR_LOAD_IN_PROGRESS (an InitProducerId with an invalid transaction.timeout.ms is refused
 * by its handler first); one with a write in flight → CONCURRENT_TRANSACTIONS, after the checks
 * that come before it (pendingTransition.ts) — except a broker's verification
 * (AddPartitionsToTxn verifyOnly: handleVerifyPartitionsInTransaction, "Pending state is not checked
 * since there is a final validation on the append to the log"). InitProducerId without a
 * transactional.id is served by any broker.
 */
export function refusal(ctx: TxnCoordinatorContext, request: RpcEvent<HostedRequestPayload>): KafkaError | null {
  const transactionalId = request.payload.transactionalId;
  if (transactionalId === null || transactionalId === undefined) return null;
  // handleInitProducerId refuses an invalid transaction.timeout.ms before it looks the id up
  if (request.type === 'InitProducerId' && hasInvalidTransactionTimeout(ctx, request.payload)) return null;
  const owned = hostedOf(ctx).owned[partitionOf(ctx, transactionalId)];
  if (!owned) return 'NOT_COORDINATOR';
  if (owned.loading) return 'COORDINATOR_LOAD_IN_PROGRESS';
  if (request.payload.verifyOnly === true) return null;
  const cache = cacheWhileWriting(ctx, transactionalId);
  if (cache === undefined) return null;
  return pendingTransitionError(cache, { type: request.type, ...request.payload }, ctx.config.transactionVersion);
}

/** The fields of a client request the refusals read. */
type HostedRequestPayload = {
  transactionalId?: string | null;
  verifyOnly?: boolean;
  producerId?: number;
  producerEpoch?: number;
  transactionTimeoutMs?: number;
};

/** A client request on the hosted coordinator: refused (refusal), or handled with its answer held until its write (withDeferredWrites). */
export function serveRequest<P extends HostedRequestPayload>(
  fn: (ctx: TxnCoordinatorContext, ev: RpcEvent<P>, out: Out) => TxnCoordinatorContext,
): (ctx: TxnCoordinatorContext, ev: RpcEvent<P>, out: Out) => TxnCoordinatorContext {
  const deferred = withDeferredWrites(fn);
  return (ctx, ev, out) => {
    const error = refusal(ctx, ev);
    if (error === null) return deferred(ctx, ev, out);
    out.reply(pendingRequest(ev), `${ev.type}Response` as Parameters<Out['reply']>[1], {
      error,
      producerId: -1,
      producerEpoch: -1,
      partitions: [],
    });
    return ctx;
  };
}

const serve = <P extends HostedRequestPayload>(fn: (ctx: TxnCoordinatorContext, ev: RpcEvent<P>, out: Out) => TxnCoordinatorContext) =>
  handle(serveRequest(fn));

/** A timer or response about a transactional.id is acted on only while its partition is led and loaded here. */
function whileLoaded<E>(
  idOf: (ctx: TxnCoordinatorContext, ev: E) => string | null,
  fn: (ctx: TxnCoordinatorContext, ev: E, out: Out) => TxnCoordinatorContext,
) {
  const deferred = withDeferredWrites(fn);
  return handle((ctx: TxnCoordinatorContext, ev: E, out: Out): TxnCoordinatorContext => {
    const id = idOf(ctx, ev);
    if (id !== null) {
      const owned = hostedOf(ctx).owned[partitionOf(ctx, id)];
      if (!owned || owned.loading) return ctx;
    }
    return deferred(ctx, ev, out);
  });
}

/**
 * The timeout scan skips a transactional.id with a write in flight (TransactionStateManager
 * .timedOutTransactions: `if (txnMetadata.pendingTransitionInProgress) false`) and looks at it again
 * at the next cleanup run: the abort never races the write (whose failure would put the cache back
 * to the state before it, under the abort's records).
 */
export function onTimeoutCheckUnlessWriting(
  ctx: TxnCoordinatorContext,
  ev: TimerEvent<{ transactionalId: string; txnStartTimestamp: number }>,
  out: Out,
): TxnCoordinatorContext {
  const id = ev.data.transactionalId;
  const m = ctx.txns[id];
  if (m && cacheWhileWriting(ctx, id) !== undefined) {
    const d: TxnDraft = { ...ctx };
    armNextScan(d, m, ev.now, out);
    return d;
  }
  return onTimeoutCheck(ctx, ev, out);
}

/** TransactionCoordinator.onElection: load the partition from this broker's replica (to its log end offset). */
export function onBecomeCoordinator(
  ctx: TxnCoordinatorContext,
  args: { partition: number; coordinatorEpoch: number; records: Records },
  out: Out,
): TxnCoordinatorContext {
  const h = hostedOf(ctx);
  out.timer(`load:${args.partition}`, 'partitionLoaded', ctx.config.loadTimeMs, {
    partition: args.partition,
    coordinatorEpoch: args.coordinatorEpoch,
  });
  return {
    ...ctx,
    coordinatorEpoch: args.coordinatorEpoch,
    hosted: { ...h, owned: { ...h.owned, [args.partition]: { coordinatorEpoch: args.coordinatorEpoch, loading: args.records } } },
  };
}

/** The load finished: each transactional.id's last record is its state; prepared transactions are completed. */
export function onPartitionLoaded(
  ctx: TxnCoordinatorContext,
  ev: { now: number; data: { partition: number; coordinatorEpoch: number } },
  out: Out,
): TxnCoordinatorContext {
  const h = hostedOf(ctx);
  const owned = h.owned[ev.data.partition];
  if (!owned?.loading || owned.coordinatorEpoch !== ev.data.coordinatorEpoch) return ctx;
  const loaded: Record<string, TxnMetadata> = {};
  for (const r of owned.loading) {
    // a tombstone: the transactional.id expired (loadTransactionMetadata: `loadedTransactions.remove`)
    if (r.value === null) {
      delete loaded[r.key];
      continue;
    }
    const m = decodeTxnRecord(r.key, r.value);
    if (m) loaded[r.key] = m;
  }
  const d: TxnDraft = {
    ...ctx,
    txns: { ...ctx.txns, ...loaded },
    hosted: { ...h, owned: { ...h.owned, [ev.data.partition]: { ...owned, loading: null } } },
  };
  out.fact({
    kind: 'note',
    actor: ctx.id,
    text: `loaded ${Object.keys(loaded).length} transactional id(s) from its replica of ${TRANSACTION_STATE_TOPIC}-${ev.data.partition} (coordinator epoch ${owned.coordinatorEpoch})`,
  });
  finishLoaded(d, Object.values(loaded), ev.now, out);
  return d;
}

/** TransactionCoordinator.onResignation: the partition's transactional ids, markers and writes are forgotten here. */
export function onResignCoordinator(ctx: TxnCoordinatorContext, partition: number, out: Out): TxnCoordinatorContext {
  const h = hostedOf(ctx);
  if (!h.owned[partition]) return ctx;
  const mine = (id: string) => partitionOf(ctx, id) !== partition;
  const { [partition]: _gone, ...owned } = h.owned;
  for (const id of Object.keys(ctx.txns))
    if (!mine(id)) {
      out.cancel(`txnTimeout:${id}`);
      out.cancel(expirationTimerKey(id));
    }
  return {
    ...ctx,
    txns: Object.fromEntries(Object.entries(ctx.txns).filter(([id]) => mine(id))),
    markers: Object.fromEntries(Object.entries(ctx.markers).filter(([id]) => mine(id))),
    hosted: { ...h, owned, writes: Object.fromEntries(Object.entries(h.writes).filter(([, w]) => w.partition !== partition)) },
  };
}

/**
 * A "transactionalId-expiration" run for one transactional.id of a partition led and loaded here
 * (transactionalIdExpiration.ts): one with a write in flight is skipped (removeExpiredTransactionalIds:
 * `txnMetadata.pendingState.isEmpty`) and looked at again at the next run; an expired one's tombstone
 * goes to the host (acks=-1) while the cache keeps it pending Dead — requests for it meanwhile are
 * refused as for any pending transition — and leaves the cache when the write succeeds
 * (txnStateWrites.ts onTombstoneAnswered).
 */
export function onHostedExpirationCheck(ctx: TxnCoordinatorContext, ev: ExpirationTimer, out: Out): TxnCoordinatorContext {
  const id = ev.data.transactionalId;
  const m = ctx.txns[id];
  const outcome = expirationOutcome(m, ev.now, ctx.config.transactionalIdExpirationMs);
  if (!m || outcome === 'absent' || outcome === 'not-allowed') return ctx;
  if (outcome === 'not-yet' || cacheWhileWriting(ctx, id) !== undefined) {
    armExpiration(ctx, m, ev.now, out);
    return ctx;
  }
  const d: TxnDraft = { ...ctx };
  appendTombstoneToHost(d, hostedOf(ctx), m, out);
  return d;
}

const onCompleteRetry = (ctx: TxnCoordinatorContext, ev: TimerEvent<{ transactionalId: string }>, out: Out): TxnCoordinatorContext => {
  const d: TxnDraft = { ...ctx };
  maybeComplete(d, ev.data.transactionalId, ev.now, out);
  return d;
};

export const hostedTxnCoordinatorMachine = setup({
  types: {} as { context: TxnCoordinatorContext; input: HostedTxnCoordinatorInput; events: HostedTxnCoordinatorEvent },
}).createMachine({
  id: 'hostedTransactionCoordinator',
  context: ({ input }) => ({
    id: input.id,
    meta: input.meta,
    config: input.config,
    nextProducerId: input.firstProducerId,
    coordinatorEpoch: 0,
    txns: {},
    logs: {},
    markers: {},
    nextCorrelationId: 0,
    hosted: { host: input.host, owned: {}, writes: {}, nextWriteId: 0 },
  }),
  initial: 'active',
  states: {
    /** The broker is up: the coordinator serves the partitions its broker leads (possibly none). */
    active: {
      on: {
        InitProducerId: { actions: serve(onInitProducerId) },
        AddPartitionsToTxn: { actions: handle(servingBatches(serveRequest(onAddPartitions))) },
        AddOffsetsToTxn: { actions: serve(onAddOffsets) },
        EndTxn: { actions: serve(onEndTxn) },
        // a request carries the markers of several transactions: each is acted on only while its
        // partition is led and loaded here (markerChannel.ts servedHere)
        WriteTxnMarkersResponse: { actions: whileLoaded(() => null, onMarkersResponse) },
        disconnected: { actions: whileLoaded(() => null, onMarkerRequestLost) },
        markerRetry: { actions: whileLoaded(() => null, onMarkerRetry) },
        reconnectBackoffExpired: { actions: whileLoaded(() => null, onMarkerReconnectBackoffOver) },
        completeRetry: {
          actions: whileLoaded((_c, ev: TimerEvent<{ transactionalId: string }>) => ev.data.transactionalId, onCompleteRetry),
        },
        txnTimeoutCheck: {
          actions: whileLoaded(
            (_c, ev: TimerEvent<{ transactionalId: string; txnStartTimestamp: number }>) => ev.data.transactionalId,
            onTimeoutCheckUnlessWriting,
          ),
        },
        [EXPIRATION_CHECK]: {
          actions: whileLoaded((_c, ev: ExpirationTimer) => ev.data.transactionalId, onHostedExpirationCheck),
        },
        becomeCoordinator: {
          actions: handle((ctx: TxnCoordinatorContext, ev: { args: Parameters<typeof onBecomeCoordinator>[1] }, out: Out) =>
            onBecomeCoordinator(ctx, ev.args, out),
          ),
        },
        resignCoordinator: {
          actions: handle((ctx: TxnCoordinatorContext, ev: { args: { partition: number } }, out: Out) =>
            onResignCoordinator(ctx, ev.args.partition, out),
          ),
        },
        partitionLeader: { actions: handle(onPartitionLeaderCall) },
        partitionLoaded: { actions: whileLoaded(() => null, onPartitionLoaded) },
        txnStateAppended: {
          // a transaction of a broker's AddPartitionsToTxn answered after its write joins the batch's answer
          actions: handle(
            gatheringBatches(
              (ctx: TxnCoordinatorContext, ev: { now: number; args: { writeId: number; error: KafkaError | 'NONE' } }, out: Out) =>
                onWriteAnswered(ctx, ev.args.writeId, ev.args.error, ev.now, out),
            ),
          ),
        },
        crash: 'down',
      },
    },
    down: {
      // the broker's process is down: its leaderships, the cache and the writes in flight are gone
      entry: handle(({ addPartitionsBatches: _unanswered, ...ctx }: TxnCoordinatorContext) => ({
        ...ctx,
        txns: {},
        markers: {},
        markerConnections: undefined,
        markerSends: undefined,
        hosted: { ...hostedOf(ctx), owned: {}, writes: {} },
      })),
      // the broker's TransactionCoordinator starts again: its cleanup runs count from now
      on: {
        restart: {
          target: 'active',
          actions: handle((ctx: TxnCoordinatorContext, ev: Lifecycle) => ({ ...ctx, startedAtMs: ev.now })),
        },
      },
    },
  },
});
