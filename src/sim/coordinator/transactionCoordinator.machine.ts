/**
 * The transaction coordinator (Kafka's TransactionCoordinator) as an XState machine: it hands out
 * producer ids and epochs (InitProducerId), tracks each transactional.id's state
 * (Empty → Ongoing → PrepareCommit/PrepareAbort → CompleteCommit/CompleteAbort, and
 * PrepareEpochFence when a newer instance fences an open transaction), writes every change to
 * `__transaction_state`, answers EndTxn as soon as PrepareX is written, then sends WriteTxnMarkers
 * to every partition of the transaction and writes CompleteX once all are acknowledged. It aborts
 * transactions left Ongoing past transaction.timeout.ms.
 *
 * The machine's own states are its availability: serving, loading (after a failover it replays
 * `__transaction_state`, answering COORDINATOR_LOAD_IN_PROGRESS meanwhile) and down. In Kafka the
 * coordinator is a module of the broker leading the `__transaction_state` partition; here it is an
 * actor of its own, and producer ids come from it too (in Kafka, from the controller).
 *
 * Its parts: the context and the writes to `__transaction_state` (txnCoordinatorContext.ts), the
 * markers (markerChannel.ts), each transactional.id's allowed transitions (transactionState.ts).
 */
import { setup } from 'xstate';
import type { Call, Lifecycle, Rpc, Timer } from '../actors/events';
import { handle, type Out, pendingRequest } from '../actors/out';
import { TRANSACTION_STATE_TOPIC } from '../cluster/metadata';
import type { DisconnectedEvent, RpcEvent, TimerEvent } from '../kernel/effects';
import { coordinatorPartitionFor } from '../producer/partitioner';
import type { KafkaError } from '../protocol/errors';
import type {
  AddOffsetsToTxnRequest,
  AddPartitionsToTxnRequest,
  EndTxnRequest,
  InitProducerIdRequest,
  WriteTxnMarkersResponse,
} from '../protocol/messages';
import type { MetadataResponse } from '../protocol/replicationMessages';
import { keyOf, topicPartitionKey } from '../protocol/topicPartition';
import { servingBatches } from './addPartitionsBatch';
import {
  flushMarkers,
  type MarkerRetryData,
  maybeComplete,
  onLeaderLookupAnswered,
  onMarkerReconnectBackoffOver,
  onMarkerRequestLost,
  onMarkerRetry,
  onMarkersResponse,
  onPartitionLeaderCall,
  type PartitionLeaderArgs,
  startMarkers,
} from './markerChannel';
import { onLeaderLookupLost } from './markerMetadata';
import {
  armExpiration,
  EXPIRATION_CHECK,
  type ExpirationTimer,
  expirationOutcome,
  forget,
  isExpirationAllowed,
  tellExpired,
} from './transactionalIdExpiration';
import { decodeTxnRecord, type TxnMetadata } from './transactionMetadata';
import type { TxnState } from './transactionState';
import {
  appendStateRecord,
  cacheWhileWriting,
  type TxnDraft as Draft,
  persist,
  setState,
  type TxnCoordinatorContext,
  type TxnCoordinatorInput,
} from './txnCoordinatorContext';

export {
  DEFAULT_TXN_COORDINATOR_CONFIG,
  type TxnCoordinatorConfig,
  type TxnCoordinatorContext,
  type TxnCoordinatorInput,
} from './txnCoordinatorContext';

/** Every event the transaction coordinator handles. */
export type TxnCoordinatorEvent =
  | Rpc<'InitProducerId', InitProducerIdRequest>
  | Rpc<'AddPartitionsToTxn', AddPartitionsToTxnRequest>
  | Rpc<'AddOffsetsToTxn', AddOffsetsToTxnRequest>
  | Rpc<'EndTxn', EndTxnRequest>
  | Rpc<'WriteTxnMarkersResponse', WriteTxnMarkersResponse>
  | Rpc<'MetadataResponse', MetadataResponse & { correlationId: number }>
  | Call<'partitionLeader', PartitionLeaderArgs>
  | DisconnectedEvent
  | Timer<'markerRetry', MarkerRetryData>
  | Timer<'reconnectBackoffExpired', { node: string }>
  | Timer<'txnTimeoutCheck' | 'loaded'>
  | Timer<typeof EXPIRATION_CHECK, { transactionalId: string }>
  | Lifecycle;

/** Epochs are shorts; Kafka moves to a new producer id when an epoch would pass this. */
const MAX_EPOCH = 32766;

function allocateProducerId(d: Draft): number {
  const pid = d.nextProducerId;
  d.nextProducerId += 1;
  return pid;
}

/**
 * The cleanup runs (abortTimedOutTransactions) are at a fixed rate from the broker's start, the first
 * one interval after it (`scheduler.schedule("transaction-abort", …, interval, interval)`): the first
 * run at or after `at`.
 */
function cleanupRunAtOrAfter(d: Draft, at: number): number {
  const start = d.startedAtMs ?? 0;
  const interval = d.config.cleanupIntervalMs;
  return start + Math.max(1, Math.ceil((at - start) / interval)) * interval;
}

/** The first instant at which `txnStartTimestamp + txnTimeoutMs < now` holds (timedOutTransactions). */
const timedOutFrom = (m: TxnMetadata): number => m.txnStartTimestamp + m.txnTimeoutMs + 1;

/** The first cleanup run that finds the transaction timed out. */
function timeoutTick(d: Draft, m: TxnMetadata): number {
  return cleanupRunAtOrAfter(d, timedOutFrom(m));
}

/**
 * The transaction's timeout check at the first cleanup run that finds it timed out: at its start,
 * the run after its deadline; after a load, an overdue one at the next run (not at once).
 */
export function armTimeout(d: Draft, m: TxnMetadata, now: number, out: Out): void {
  out.timer(`txnTimeout:${m.transactionalId}`, 'txnTimeoutCheck', cleanupRunAtOrAfter(d, Math.max(now, timedOutFrom(m))) - now, {
    transactionalId: m.transactionalId,
    txnStartTimestamp: m.txnStartTimestamp,
  });
}

/**
 * TransactionCoordinator.abortTimedOutTransactions is a scan of the cache every cleanup interval
 * (TransactionStateManager.timedOutTransactions), not a one-shot deadline: a transaction that is
 * still Ongoing past its timeout — its abort's write to __transaction_state failed, or a client's
 * EndTxn write failed after the deadline — is found again at the next run. Armed only once the
 * deadline has passed (before it, the transaction's own timer is still pending).
 */
export function armTimeoutRetry(d: Draft, m: TxnMetadata, now: number, out: Out): void {
  if (m.state !== 'Ongoing' || now < timeoutTick(d, m)) return;
  armNextScan(d, m, now, out);
}

/** The transaction's timeout check again at the next cleanup run after `now`. */
export function armNextScan(d: Draft, m: TxnMetadata, now: number, out: Out): void {
  const next = cleanupRunAtOrAfter(d, now + 1);
  out.timer(`txnTimeout:${m.transactionalId}`, 'txnTimeoutCheck', next - now, {
    transactionalId: m.transactionalId,
    txnStartTimestamp: m.txnStartTimestamp,
  });
}

/** Ongoing → PrepareCommit/PrepareAbort, persisted; then markers to every partition. */
function prepareEnd(d: Draft, m: TxnMetadata, result: 'COMMIT' | 'ABORT', now: number, out: Out): void {
  const prepared: TxnMetadata = { ...m, state: result === 'COMMIT' ? 'PrepareCommit' : 'PrepareAbort', txnLastUpdateTimestamp: now };
  persist(d, prepared, now, out);
  out.cancel(`txnTimeout:${m.transactionalId}`);
  startMarkers(d, prepared, result, now, out);
}

/**
 * Fence the current epoch (PrepareEpochFence, epoch+1) and abort: a newer instance or a timeout.
 * Protocol v1: the last epoch becomes −1 (TransactionMetadata.prepareFenceProducerEpoch, and
 * endTransaction's isEpochFence), so the fenced producer's KIP-360 InitProducerId with its old epoch
 * is PRODUCER_FENCED. Protocol v2 (4.0.1+, KAFKA-19367): the abort's own bump is the only one,
 * prepareAbortOrCommit, which records the old epoch as the last.
 */
function fenceAndAbort(d: Draft, m: TxnMetadata, now: number, out: Out): void {
  // after a fence whose write failed the epoch is already bumped in memory (prepareFenceProducerEpoch)
  const producerEpoch = m.hasFailedEpochFence ? m.producerEpoch : m.producerEpoch + 1;
  const lastProducerEpoch = d.config.transactionVersion === 2 ? producerEpoch - 1 : -1;
  const fenced: TxnMetadata = { ...m, state: 'PrepareEpochFence', lastProducerEpoch, producerEpoch };
  setState(d, fenced, out);
  prepareEnd(d, fenced, 'ABORT', now, out);
}

function reply(out: Out, ev: RpcEvent<unknown>, rpc: Parameters<Out['reply']>[1], payload: object): void {
  out.reply(pendingRequest(ev), rpc, payload);
}

/**
 * TransactionStateManager.validateTransactionTimeoutMs: 0 < timeout ≤ transaction.max.timeout.ms.
 * handleInitProducerId checks it before it looks the transactional.id up (getTransactionState), so
 * INVALID_TRANSACTION_TIMEOUT comes before NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS and
 * CONCURRENT_TRANSACTIONS.
 */
export function hasInvalidTransactionTimeout(
  ctx: Pick<TxnCoordinatorContext, 'config'>,
  req: { readonly transactionalId?: string | null; readonly transactionTimeoutMs?: number },
): boolean {
  if (req.transactionalId === null || req.transactionalId === undefined || req.transactionTimeoutMs === undefined) return false;
  return req.transactionTimeoutMs <= 0 || req.transactionTimeoutMs > ctx.config.maxTimeoutMs;
}

export const onInitProducerId = (ctx: TxnCoordinatorContext, ev: RpcEvent<InitProducerIdRequest>, out: Out): TxnCoordinatorContext => {
  const d: Draft = { ...ctx };
  const req = ev.payload;
  const answer = (error: KafkaError, producerId = -1, producerEpoch = -1) =>
    reply(out, ev, 'InitProducerIdResponse', { error, producerId, producerEpoch });
  if (req.transactionalId === null) {
    // an idempotent producer without transactional.id: a fresh producer id, epoch 0, every time
    answer('NONE', allocateProducerId(d), 0);
    return d;
  }
  if (hasInvalidTransactionTimeout(d, req)) {
    answer('INVALID_TRANSACTION_TIMEOUT');
    return d;
  }
  const id = req.transactionalId;
  let m = d.txns[id];
  if (!m) {
    m = {
      transactionalId: id,
      producerId: allocateProducerId(d),
      producerEpoch: -1,
      lastProducerEpoch: -1,
      txnTimeoutMs: req.transactionTimeoutMs,
      state: 'Empty',
      partitions: [],
      txnStartTimestamp: -1,
      txnLastUpdateTimestamp: ev.now,
    };
  }
  const expected = req.producerId >= 0 ? { producerId: req.producerId, epoch: req.producerEpoch } : null;
  // prepareInitProducerIdTransit: a transition in progress comes first — all through PrepareCommit,
  // PrepareAbort and PrepareEpochFence the pending state is set (CompleteX): CONCURRENT_TRANSACTIONS,
  // whichever producer id the request names
  if (m.state === 'PrepareCommit' || m.state === 'PrepareAbort' || m.state === 'PrepareEpochFence') {
    answer('CONCURRENT_TRANSACTIONS');
    return d;
  }
  // then isValidProducerId: a request naming another producer id is fenced
  // (Kafka also accepts the previous producer id with an exhausted epoch; the model keeps no previous id)
  if (expected && m.producerEpoch !== -1 && expected.producerId !== m.producerId) {
    answer('PRODUCER_FENCED');
    return d;
  }
  switch (m.state) {
    case 'Empty':
    case 'CompleteCommit':
    case 'CompleteAbort': {
      const exhausted = m.producerEpoch >= MAX_EPOCH && (!expected || expected.epoch === m.producerEpoch);
      // prepareProducerIdRotation: a new producer id at epoch 0, recording the old epoch only for a KIP-360 request
      const epochs = exhausted
        ? { producerEpoch: 0, lastProducerEpoch: expected ? m.producerEpoch : -1 }
        : incrementProducerEpoch(m, expected?.epoch ?? null);
      if (epochs === null) {
        answer('PRODUCER_FENCED');
        return d;
      }
      const next: TxnMetadata = {
        ...m,
        producerId: exhausted ? allocateProducerId(d) : m.producerId,
        ...epochs,
        txnTimeoutMs: req.transactionTimeoutMs,
        state: 'Empty',
        partitions: [],
        // prepareIncrementProducerEpoch / prepareProducerIdRotation: no transaction has started
        txnStartTimestamp: -1,
        txnLastUpdateTimestamp: ev.now,
      };
      persist(d, next, ev.now, out);
      answer('NONE', next.producerId, next.producerEpoch);
      return d;
    }
    case 'Ongoing':
      // a newer instance: fence the old epoch and abort its transaction; the client retries
      fenceAndAbort(d, m, ev.now, out);
      answer('CONCURRENT_TRANSACTIONS');
      return d;
    default:
      answer('CONCURRENT_TRANSACTIONS');
      return d;
  }
};

/**
 * TransactionMetadata.prepareIncrementProducerEpoch (KIP-360). Without an expected epoch (a new
 * instance) the epoch goes up and the last epoch becomes −1. With one (the producer bumping its own
 * epoch after an error): the current epoch, or no epoch yet, goes up and becomes the last epoch; the
 * last epoch is a retry whose answer was lost, so the current epoch is returned unchanged; any other
 * epoch has been fenced (null: PRODUCER_FENCED).
 */
export function incrementProducerEpoch(
  m: Pick<TxnMetadata, 'producerEpoch' | 'lastProducerEpoch'>,
  expectedEpoch: number | null,
): { producerEpoch: number; lastProducerEpoch: number } | null {
  if (expectedEpoch === null) return { producerEpoch: m.producerEpoch + 1, lastProducerEpoch: -1 };
  if (m.producerEpoch === -1 || expectedEpoch === m.producerEpoch)
    return { producerEpoch: m.producerEpoch + 1, lastProducerEpoch: m.producerEpoch };
  if (expectedEpoch === m.lastProducerEpoch) return { producerEpoch: m.producerEpoch, lastProducerEpoch: m.lastProducerEpoch };
  return null;
}

/** Common checks of AddPartitionsToTxn / AddOffsetsToTxn / EndTxn (protocol v1). */
function validateProducer(m: TxnMetadata | undefined, producerId: number, producerEpoch: number): KafkaError | null {
  if (!m || m.producerId !== producerId) return 'INVALID_PRODUCER_ID_MAPPING';
  if (producerEpoch !== m.producerEpoch) return 'PRODUCER_FENCED';
  return null;
}

function addPartitions(
  d: Draft,
  ev: RpcEvent<unknown>,
  transactionalId: string,
  producerId: number,
  producerEpoch: number,
  added: readonly string[],
  rpc: 'AddPartitionsToTxnResponse' | 'AddOffsetsToTxnResponse',
  echo: object,
  out: Out,
): void {
  const m = d.txns[transactionalId];
  const fail = (error: KafkaError) => reply(out, ev, rpc, { error, ...echo });
  // handleAddPartitionsToTransaction checks the pending transition first — all through PrepareX the
  // completion is pending — before the producer id and epoch (KAFKA-18660, picked to 4.0: "rearrange
  // the concurrent transaction handling so that we don't self-fence when we start the new transaction
  // with the new producer ID")
  if (m && (m.state === 'PrepareCommit' || m.state === 'PrepareAbort' || m.state === 'PrepareEpochFence')) {
    fail('CONCURRENT_TRANSACTIONS');
    return;
  }
  const invalid = validateProducer(m, producerId, producerEpoch);
  if (invalid || !m) {
    fail(invalid ?? 'INVALID_PRODUCER_ID_MAPPING');
    return;
  }
  if (m.state === 'Ongoing' && added.every((p) => m.partitions.includes(p))) {
    reply(out, ev, rpc, { error: 'NONE', ...echo });
    return;
  }
  const starting = m.state !== 'Ongoing';
  const next: TxnMetadata = {
    ...m,
    state: 'Ongoing',
    partitions: [...m.partitions, ...added.filter((p) => !m.partitions.includes(p))],
    txnStartTimestamp: starting ? ev.now : m.txnStartTimestamp,
    txnLastUpdateTimestamp: ev.now,
  };
  persist(d, next, ev.now, out);
  if (starting) armTimeout(d, next, ev.now, out);
  reply(out, ev, rpc, { error: 'NONE', ...echo });
}

export const onAddPartitions = (ctx: TxnCoordinatorContext, ev: RpcEvent<AddPartitionsToTxnRequest>, out: Out): TxnCoordinatorContext => {
  const d: Draft = { ...ctx };
  const req = ev.payload;
  const names = req.partitions.map(keyOf);
  if (req.verifyOnly) {
    // a leader checking, before it accepts a transactional batch, that the partition is in the transaction,
    // against the cache as it is (handleVerifyPartitionsInTransaction: "Pending state is not checked"):
    // with a write in flight that is the metadata from before it (completeTransitionTo applies the new one)
    const during = cacheWhileWriting(d, req.transactionalId);
    const m = during === undefined ? d.txns[req.transactionalId] : (during ?? undefined);
    const invalid = validateProducer(m, req.producerId, req.producerEpoch);
    const busy = m && (m.state === 'PrepareCommit' || m.state === 'PrepareAbort') ? 'CONCURRENT_TRANSACTIONS' : null;
    const error = invalid ?? busy;
    reply(out, ev, 'AddPartitionsToTxnResponse', {
      error: error ?? 'NONE',
      partitions: req.partitions.map((p, i) => ({
        ...p,
        error: error ?? (m?.state === 'Ongoing' && m.partitions.includes(names[i] as string) ? 'NONE' : 'TRANSACTION_ABORTABLE'),
      })),
    });
    return d;
  }
  addPartitions(
    d,
    ev,
    req.transactionalId,
    req.producerId,
    req.producerEpoch,
    names,
    'AddPartitionsToTxnResponse',
    { partitions: req.partitions },
    out,
  );
  return d;
};

export const onAddOffsets = (ctx: TxnCoordinatorContext, ev: RpcEvent<AddOffsetsToTxnRequest>, out: Out): TxnCoordinatorContext => {
  const d: Draft = { ...ctx };
  const req = ev.payload;
  // the group's __consumer_offsets partition joins the transaction, so it gets a marker too
  const offsetsPartition = topicPartitionKey('__consumer_offsets', coordinatorPartitionFor(req.groupId, d.meta.consumerOffsetsPartitions));
  addPartitions(d, ev, req.transactionalId, req.producerId, req.producerEpoch, [offsetsPartition], 'AddOffsetsToTxnResponse', {}, out);
  return d;
};

/**
 * endTransaction's `isValidEpoch`: under protocol v1 the current epoch only (endTransactionWithTV1);
 * under v2 (every EndTxn bumps the epoch) by state — Ongoing and Empty the current epoch, PrepareX a
 * retry one epoch behind, CompleteX a retry or the current epoch. Anything else is PRODUCER_FENCED.
 */
export function isValidEndTxnEpoch(m: Pick<TxnMetadata, 'state' | 'producerEpoch'>, epoch: number, transactionVersion: 1 | 2): boolean {
  const current = epoch === m.producerEpoch;
  if (transactionVersion === 1) return current;
  const retry = epoch === m.producerEpoch - 1;
  switch (m.state) {
    case 'PrepareCommit':
    case 'PrepareAbort':
      return retry;
    case 'CompleteCommit':
    case 'CompleteAbort':
      return retry || current;
    default:
      return current;
  }
}

/**
 * EndTxn under protocol v2 (KIP-890), once its epoch is valid (isValidEndTxnEpoch): every EndTxn
 * bumps the epoch (the markers carry the new one, so a late produce of the old epoch is fenced), and a
 * request one epoch behind is a retry.
 */
function endTxnV2(d: Draft, ev: RpcEvent<EndTxnRequest>, m: TxnMetadata, result: 'COMMIT' | 'ABORT', out: Out): void {
  const retry = ev.payload.producerEpoch === m.producerEpoch - 1;
  const answer = (error: KafkaError) => {
    const now = d.txns[m.transactionalId] ?? m;
    reply(out, ev, 'EndTxnResponse', endTxnAnswer(error, now));
  };
  const bumpAndEnd = (from: TxnMetadata, partitionsToo: boolean) => {
    const bumped: TxnMetadata = {
      ...from,
      state: result === 'COMMIT' ? 'PrepareCommit' : 'PrepareAbort',
      lastProducerEpoch: from.producerEpoch,
      producerEpoch: from.producerEpoch + 1,
      partitions: partitionsToo ? from.partitions : [],
      // prepareAbortOrCommit(…, noPartitionAdded): an abort of no partitions starts now
      txnStartTimestamp: partitionsToo ? from.txnStartTimestamp : ev.now,
      txnLastUpdateTimestamp: ev.now,
    };
    persist(d, bumped, ev.now, out);
    // sendTxnMarkersCallback answers as soon as PrepareX is written ("we can respond to the client
    // immediately"), then addTxnMarkersToSend: an abort of no partitions writes CompleteAbort after
    // the answer, and a failure of that write is retried by the coordinator, never seen by the client
    answer('NONE');
    out.cancel(`txnTimeout:${m.transactionalId}`);
    startMarkers(d, bumped, result, ev.now, out);
    maybeComplete(d, m.transactionalId, ev.now, out);
  };
  // all through PrepareX the completion is pending (see onEndTxn), and under protocol v2 endTransaction
  // answers a pending transition CONCURRENT_TRANSACTIONS before it checks the epoch (KAFKA-18464, in
  // 4.0.0: "return the concurrent transactions error when we have pending state and do the epoch check
  // second"), whatever the result asked for — so a producer that commits and at once aborts its next
  // (empty) transaction, at the epoch the commit returned, retries instead of fencing itself
  if (m.state === 'PrepareCommit' || m.state === 'PrepareAbort') {
    answer('CONCURRENT_TRANSACTIONS');
    return;
  }
  if (!isValidEndTxnEpoch(m, ev.payload.producerEpoch, 2)) {
    answer('PRODUCER_FENCED');
    return;
  }
  switch (m.state) {
    case 'Ongoing':
      bumpAndEnd(m, true);
      return;
    case 'Empty':
      if (result === 'ABORT') bumpAndEnd(m, false);
      else answer('INVALID_TXN_STATE');
      return;
    case 'CompleteAbort':
    case 'CompleteCommit': {
      const same = (m.state === 'CompleteCommit') === (result === 'COMMIT');
      if (retry) answer(same ? 'NONE' : 'INVALID_TXN_STATE');
      else if (result === 'ABORT') bumpAndEnd(m, false);
      else answer('INVALID_TXN_STATE');
      return;
    }
    default:
      answer('INVALID_TXN_STATE');
  }
}

/**
 * An EndTxn answer: the producer id and epoch only with NONE; an error carries −1/−1
 * (endTransaction: `responseCallback(err, RecordBatch.NO_PRODUCER_ID, RecordBatch.NO_PRODUCER_EPOCH)`).
 */
function endTxnAnswer(error: KafkaError, m: TxnMetadata | undefined) {
  const ok = error === 'NONE' && m !== undefined;
  return { error, producerId: ok ? m.producerId : -1, producerEpoch: ok ? m.producerEpoch : -1 };
}

export const onEndTxn = (ctx: TxnCoordinatorContext, ev: RpcEvent<EndTxnRequest>, out: Out): TxnCoordinatorContext => {
  const d: Draft = { ...ctx };
  const req = ev.payload;
  const m = d.txns[req.transactionalId];
  const result = req.committed ? 'COMMIT' : 'ABORT';
  const answer = (error: KafkaError) => reply(out, ev, 'EndTxnResponse', endTxnAnswer(error, m));
  if (!m || m.producerId !== req.producerId) {
    answer('INVALID_PRODUCER_ID_MAPPING');
    return d;
  }
  if (d.config.transactionVersion === 2) {
    endTxnV2(d, ev, m, result, out);
    return d;
  }
  if (!isValidEndTxnEpoch(m, req.producerEpoch, 1)) {
    answer('PRODUCER_FENCED');
    return d;
  }
  switch (m.state) {
    case 'Ongoing':
      prepareEnd(d, m, result, ev.now, out);
      // answered as soon as PrepareCommit/PrepareAbort is written: the markers follow
      answer('NONE');
      return d;
    case 'CompleteCommit':
      answer(result === 'COMMIT' ? 'NONE' : 'INVALID_TXN_STATE');
      return d;
    case 'CompleteAbort':
      answer(result === 'ABORT' ? 'NONE' : 'INVALID_TXN_STATE');
      return d;
    case 'PrepareCommit':
    case 'PrepareAbort':
      // from the PrepareX write until CompleteX is written the coordinator has a
      // transition pending (prepareComplete sets it when PrepareX is written, and when a loaded
      // PrepareX resumes), and endTransaction answers a pending transition CONCURRENT_TRANSACTIONS
      // before it looks at the state — so the other result is refused as retriable too, not as
      // INVALID_TXN_STATE (that cell of Kafka's state table is never reached)
      answer('CONCURRENT_TRANSACTIONS');
      return d;
    default:
      answer('INVALID_TXN_STATE');
      return d;
  }
};

export const onTimeoutCheck = (
  ctx: TxnCoordinatorContext,
  ev: TimerEvent<{ transactionalId: string; txnStartTimestamp: number }>,
  out: Out,
): TxnCoordinatorContext => {
  const d: Draft = { ...ctx };
  const m = d.txns[ev.data.transactionalId];
  if (!m || m.state !== 'Ongoing' || m.txnStartTimestamp !== ev.data.txnStartTimestamp) return ctx;
  if (!(m.txnStartTimestamp + m.txnTimeoutMs < ev.now)) {
    armTimeout(d, m, ev.now, out);
    return d;
  }
  out.fact({
    kind: 'note',
    actor: d.id,
    text: `transaction of ${m.transactionalId} has been open ${ev.now - m.txnStartTimestamp} ms, more than transaction.timeout.ms=${m.txnTimeoutMs}: fencing epoch ${m.producerEpoch} and aborting`,
  });
  fenceAndAbort(d, m, ev.now, out);
  return d;
};

/**
 * A "transactionalId-expiration" run (TransactionStateManager.removeExpiredTransactionalIds) for one
 * transactional.id (transactionalIdExpiration.ts): past transactional.id.expiration.ms since its last
 * update, in Empty/CompleteCommit/CompleteAbort, its tombstone is appended to its __transaction_state
 * partition and it leaves the cache (the one-replica log takes the write at once); updated since, its
 * run is armed again; in a transaction, nothing (its next Empty/CompleteX arms it).
 */
export const onExpirationCheck = (ctx: TxnCoordinatorContext, ev: ExpirationTimer, out: Out): TxnCoordinatorContext => {
  const m = ctx.txns[ev.data.transactionalId];
  const outcome = expirationOutcome(m, ev.now, ctx.config.transactionalIdExpirationMs);
  if (!m || outcome === 'absent' || outcome === 'not-allowed') return ctx;
  if (outcome === 'not-yet') {
    armExpiration(ctx, m, ev.now, out);
    return ctx;
  }
  const d: Draft = { ...ctx };
  appendStateRecord(d, m.transactionalId, null, ev.now);
  tellExpired(m, out);
  forget(d, m.transactionalId);
  return d;
};

const notServing = (error: KafkaError) =>
  handle((ctx: TxnCoordinatorContext, ev: RpcEvent, out: Out) => {
    const rpc = `${ev.type}Response` as Parameters<Out['reply']>[1];
    out.reply(pendingRequest(ev), rpc, { error, producerId: -1, producerEpoch: -1, partitions: [] });
    return ctx;
  });

/** After a failover: rebuild every transactional.id from the last record in `__transaction_state`, and finish what was prepared. */
const onLoaded = (ctx: TxnCoordinatorContext, ev: { now: number }, out: Out): TxnCoordinatorContext => {
  const d: Draft = { ...ctx, txns: {}, markers: {} };
  const loaded: Record<string, TxnMetadata> = {};
  for (const log of Object.values(d.logs))
    for (const b of log.batches)
      for (const r of b.records) {
        if (r.key === null) continue;
        // a tombstone: the transactional.id expired (loadTransactionMetadata: `loadedTransactions.remove`)
        if (r.value === null) {
          delete loaded[r.key];
          continue;
        }
        const m = decodeTxnRecord(r.key, r.value);
        if (m) loaded[r.key] = m;
      }
  d.txns = loaded;
  out.fact({
    kind: 'note',
    actor: d.id,
    text: `loaded ${Object.keys(loaded).length} transactional id(s) from ${TRANSACTION_STATE_TOPIC} (coordinator epoch ${d.coordinatorEpoch})`,
  });
  finishLoaded(d, Object.values(loaded), ev.now, out);
  return d;
};

/**
 * After a load: what was prepared gets its markers again (and then CompleteX); what is open gets its
 * timeout. The markers of every prepared transaction are queued before the channel's loop runs
 * (TransactionCoordinator.onElection queues them all from one load): one request per broker.
 */
export function finishLoaded(d: Draft, loaded: readonly TxnMetadata[], now: number, out: Out): void {
  for (const m of loaded) {
    if (m.state === 'PrepareCommit' || m.state === 'PrepareAbort')
      startMarkers(d, m, m.state === 'PrepareCommit' ? 'COMMIT' : 'ABORT', now, out, false);
    else if (m.state === 'Ongoing') armTimeout(d, m, now, out);
    else if (isExpirationAllowed(m.state)) armExpiration(d, m, now, out);
  }
  flushMarkers(d, now, out);
}

export const transactionCoordinatorMachine = setup({
  types: {} as { context: TxnCoordinatorContext; input: TxnCoordinatorInput; events: TxnCoordinatorEvent },
}).createMachine({
  id: 'transactionCoordinator',
  context: ({ input }) => ({
    id: input.id,
    meta: input.meta,
    config: input.config,
    nextProducerId: 1000,
    coordinatorEpoch: 0,
    txns: {},
    logs: Object.fromEntries(input.logs.map((l) => [keyOf(l), l])),
    markers: {},
    nextCorrelationId: 0,
  }),
  initial: 'serving',
  states: {
    serving: {
      on: {
        InitProducerId: { actions: handle(onInitProducerId) },
        AddPartitionsToTxn: { actions: handle(servingBatches(onAddPartitions)) },
        AddOffsetsToTxn: { actions: handle(onAddOffsets) },
        EndTxn: { actions: handle(onEndTxn) },
        WriteTxnMarkersResponse: { actions: handle(onMarkersResponse) },
        disconnected: [
          { guard: ({ event }) => event.rpc === 'Metadata', actions: handle(onLeaderLookupLost) },
          { actions: handle(onMarkerRequestLost) },
        ],
        MetadataResponse: { actions: handle(onLeaderLookupAnswered) },
        partitionLeader: { actions: handle(onPartitionLeaderCall) },
        markerRetry: { actions: handle(onMarkerRetry) },
        reconnectBackoffExpired: { actions: handle(onMarkerReconnectBackoffOver) },
        txnTimeoutCheck: { actions: handle(onTimeoutCheck) },
        [EXPIRATION_CHECK]: { actions: handle(onExpirationCheck) },
        crash: 'down',
      },
    },
    loading: {
      entry: handle((ctx: TxnCoordinatorContext, _ev: unknown, out: Out) => {
        out.timer('load', 'loaded', ctx.config.loadTimeMs);
        return ctx;
      }),
      on: {
        // an idempotent producer's (no transactional.id) is answered from the producer id manager,
        // which needs no transaction log (handleInitProducerId never looks the cache up for it); an
        // invalid transaction.timeout.ms is refused before the lookup too
        InitProducerId: [
          {
            guard: ({ context, event }) => event.payload.transactionalId === null || hasInvalidTransactionTimeout(context, event.payload),
            actions: handle(onInitProducerId),
          },
          { actions: notServing('COORDINATOR_LOAD_IN_PROGRESS') },
        ],
        AddPartitionsToTxn: { actions: notServing('COORDINATOR_LOAD_IN_PROGRESS') },
        AddOffsetsToTxn: { actions: notServing('COORDINATOR_LOAD_IN_PROGRESS') },
        EndTxn: { actions: notServing('COORDINATOR_LOAD_IN_PROGRESS') },
        loaded: { target: 'serving', actions: handle(onLoaded) },
        // its broker's metadata cache is kept current whatever the coordinator is doing
        partitionLeader: { actions: handle(onPartitionLeaderCall) },
        crash: 'down',
      },
    },
    down: {
      // the log is durable; the cache, the markers in progress and a leader lookup in flight were in
      // memory (a crash completes no request: the lookup's answer never comes, and Kafka reads its
      // metadata cache afresh for every marker it queues)
      entry: handle((ctx: TxnCoordinatorContext) => ({
        ...ctx,
        txns: {},
        markers: {},
        // the marker channel's NetworkClient starts afresh with the broker
        markerConnections: undefined,
        markerSends: undefined,
        ...(ctx.leaderLookup ? { leaderLookup: { turn: ctx.leaderLookup.turn } } : {}),
      })),
      on: {
        restart: {
          target: 'loading',
          actions: handle((ctx: TxnCoordinatorContext, ev: Lifecycle) => ({
            ...ctx,
            coordinatorEpoch: ctx.coordinatorEpoch + 1,
            startedAtMs: ev.now,
            // the leader moves told while it was down were missed (markerMetadata.ts askLeaders)
            leadersMissed: true as const,
          })),
        },
      },
    },
  },
});

export type { TxnState };
