/**
 * The hosted coordinator's writes to a replicated `__transaction_state` (Kafka's
 * TransactionStateManager.appendTransactionToLog): a request's handler runs as it does on the
 * one-replica coordinator, but what it does after a write — its answer, the markers, the timeout —
 * is held until the host broker answers the acks=-1 append. Then it goes out (the write succeeded)
 * or the transactional.id goes back to what it was and the client gets the append's error mapped to
 * a coordinator error (COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR).
 */
import { Out } from '../actors/out';
import type { Effect } from '../kernel/effects';
import type { KafkaError } from '../protocol/errors';
import { releaseMarkersAfterWrite } from './markerChannel';
import { armExpiration, EXPIRATION_CHECK, forget, tellExpired } from './transactionalIdExpiration';
import { armTimeout, armTimeoutRetry } from './transactionCoordinator.machine';
import type { HostedState, PendingWrite, TxnCoordinatorContext, TxnDraft } from './txnCoordinatorContext';

/** How long the coordinator waits before writing CompleteCommit/CompleteAbort again (TransactionMarkerChannelManager's retry queue). */
export const COMPLETE_RETRY_MS = 100;

/**
 * TransactionStateManager.appendTransactionToLog's mapping of the append's error to the error the
 * coordinator answers with: the log cannot take the write now → COORDINATOR_NOT_AVAILABLE (the
 * client retries); this broker no longer leads the partition → NOT_COORDINATOR (the client looks
 * the coordinator up again); too large → UNKNOWN_SERVER_ERROR; anything else as it is.
 */
export function coordinatorErrorFor(appendError: KafkaError): KafkaError {
  switch (appendError) {
    case 'UNKNOWN_TOPIC_OR_PARTITION':
    case 'NOT_ENOUGH_REPLICAS':
    case 'NOT_ENOUGH_REPLICAS_AFTER_APPEND':
    case 'REQUEST_TIMED_OUT':
      return 'COORDINATOR_NOT_AVAILABLE';
    case 'NOT_LEADER_OR_FOLLOWER':
    case 'KAFKA_STORAGE_ERROR':
      return 'NOT_COORDINATOR';
    default:
      return appendError;
  }
}

function isAppendCall(e: Effect, host: string, writeId: number): boolean {
  return e.type === 'call' && e.to === host && e.name === 'appendTxnState' && e.args?.writeId === writeId;
}

function isPendingState(e: Effect, transactionalId: string): boolean {
  return e.type === 'fact' && e.fact.kind === 'txnState' && (e.fact as { transactionalId?: string }).transactionalId === transactionalId;
}

/** The epoch a PrepareEpochFence set in memory among a write's early facts, or null. */
function epochFencedTo(early: readonly Effect[]): number | null {
  for (const e of early)
    if (e.type === 'fact' && e.fact.kind === 'txnState' && (e.fact as { to?: string }).to === 'PrepareEpochFence')
      return (e.fact as unknown as { producerEpoch: number }).producerEpoch;
  return null;
}

/**
 * Runs a request's handler and holds back what follows each write it started: effects before the
 * first write go out now; those after it (up to and including the next write's append) wait in
 * that write's `deferred`; the next write's own followers wait in its own, and so on.
 */
export function withDeferredWrites<E>(
  fn: (ctx: TxnCoordinatorContext, ev: E, out: Out) => TxnCoordinatorContext,
): (ctx: TxnCoordinatorContext, ev: E, out: Out) => TxnCoordinatorContext {
  return (ctx, ev, out) => {
    const h = ctx.hosted;
    if (!h) return fn(ctx, ev, out);
    const inner = new Out();
    const next = fn(ctx, ev, inner);
    const nh = next.hosted as HostedState;
    const started = Object.values(nh.writes)
      .filter((w) => w.id >= h.nextWriteId)
      .sort((a, b) => a.id - b.id);
    if (started.length === 0) {
      out.effects.push(...inner.effects);
      return next;
    }
    const first = started[0] as PendingWrite;
    const buckets: Effect[][] = [[]];
    let writes = { ...nh.writes };
    let current = -1;
    for (const e of inner.effects) {
      (buckets[buckets.length - 1] as Effect[]).push(e);
      const w = started.find((x) => isAppendCall(e, h.host, x.id));
      if (!w) continue;
      // the request's own view before it ran is what a failed write restores
      writes = {
        ...writes,
        [w.id]: {
          ...w,
          after: current >= 0 ? current : null,
          ...(current < 0 ? { before: ctx.txns[w.transactionalId] ?? null, markersBefore: ctx.markers[w.transactionalId] ?? null } : {}),
        },
      };
      current = w.id;
      buckets.push([]);
    }
    // a state set in memory only, before the write (PrepareEpochFence: a pending state in Kafka,
    // TransactionMetadata.pendingState), is told with the write's success: a failed write leaves
    // the transaction in the state it was in
    const early = (buckets[0] as Effect[]).filter((e) => isPendingState(e, first.transactionalId));
    // an epoch fence bumps the epoch in memory before its write (endTransaction's isEpochFence): the
    // cache holds that epoch while the write is in flight, and keeps it if the write fails
    const fencedEpoch = epochFencedTo(early);
    const head = writes[first.id];
    if (fencedEpoch !== null && head?.before)
      writes[first.id] = {
        ...head,
        before: { ...head.before, producerEpoch: fencedEpoch, lastProducerEpoch: -1, hasFailedEpochFence: true },
      };
    out.effects.push(...(buckets[0] as Effect[]).filter((e) => !isPendingState(e, first.transactionalId)));
    buckets[1] = [...early, ...(buckets[1] as Effect[])];
    started.forEach((w, i) => {
      const held = buckets[i + 1];
      if (held && writes[w.id]) writes[w.id] = { ...(writes[w.id] as PendingWrite), deferred: held };
    });
    return { ...next, hosted: { ...nh, writes } };
  };
}

/**
 * A timeout check held with the write that started its transaction. Its delay was counted from the
 * request, but the cleanup runs (abortTimedOutTransactions) keep the broker's fixed-rate schedule,
 * whatever a write is doing: armed again now, it goes to the first run at or after the transaction's
 * deadline, the run the request aimed at (the write's acks wait is the transaction's timeout,
 * appendTransactionToLog, so a write that succeeded ended before the deadline). Released as it was,
 * it fired the write's latency after that run.
 */
function rearmTimeoutCheck(d: TxnDraft, held: { transactionalId: string; txnStartTimestamp: number }, now: number, out: Out): void {
  const m = d.txns[held.transactionalId];
  if (m && m.state === 'Ongoing' && m.txnStartTimestamp === held.txnStartTimestamp) armTimeout(d, m, now, out);
}

/**
 * A successful write's cache update (appendTransactionToLog's updateCacheCallback): getTransactionState
 * first — COORDINATOR_LOAD_IN_PROGRESS while the partition loads (it moved away and back), NOT_COORDINATOR
 * when it is not led here — then NOT_COORDINATOR if the coordinator epoch changed meanwhile.
 */
export function cacheErrorAfterWrite(owned: HostedState['owned'][number] | undefined, writeEpoch: number): KafkaError | 'NONE' {
  if (!owned) return 'NOT_COORDINATOR';
  if (owned.loading) return 'COORDINATOR_LOAD_IN_PROGRESS';
  return owned.coordinatorEpoch === writeEpoch ? 'NONE' : 'NOT_COORDINATOR';
}

/**
 * The answer to an expired transactional.id's tombstone (writeTombstonesForExpiredTransactionalIds'
 * removeFromCacheCallback): the id leaves the cache if the append succeeded, this coordinator epoch
 * still leads the loaded partition and the id's epoch is the one expired; otherwise Kafka logs
 * "Failed to remove expired transactionalId" and clears the pending Dead — the id stays, and the next
 * run looks at it again.
 */
function onTombstoneAnswered(
  d: TxnDraft,
  w: PendingWrite,
  appendError: KafkaError | 'NONE',
  owned: HostedState['owned'][number] | undefined,
  now: number,
  out: Out,
): void {
  const m = d.txns[w.transactionalId];
  const led = owned !== undefined && !owned.loading && owned.coordinatorEpoch === w.coordinatorEpoch;
  if (appendError === 'NONE' && led && m && m.producerEpoch === w.metadata.producerEpoch) {
    tellExpired(m, out);
    forget(d, w.transactionalId);
    return;
  }
  out.fact({
    kind: 'note',
    actor: d.id,
    text: `failed to remove expired transactionalId ${w.transactionalId} from the cache (tombstone append error ${appendError === 'NONE' ? 'NONE, but the coordinator epoch changed' : appendError}): it stays, and the next transactionalId-expiration run looks at it again`,
  });
  if (led && m) armExpiration(d, m, now, out);
}

/**
 * The host's answer to a write (the acks=-1 append completed): on NONE, the held effects go out; on
 * an error, the transactional.id's state and markers go back to what they were before the request,
 * the request's answer carries the mapped error, and the rest (markers, timers, a chained write) is
 * dropped. A failed CompleteCommit/CompleteAbort is written again later while this broker still
 * leads the partition (TransactionMarkerChannelManager.tryAppendToLog retries on COORDINATOR_NOT_AVAILABLE);
 * a transaction left Ongoing past its timeout is aborted again at the next cleanup run.
 */
export function onWriteAnswered(
  ctx: TxnCoordinatorContext,
  writeId: number,
  appendError: KafkaError | 'NONE',
  now: number,
  out: Out,
): TxnCoordinatorContext {
  const h = ctx.hosted;
  const w = h?.writes[writeId];
  if (!h || !w) return ctx;
  const { [writeId]: _done, ...writes } = h.writes;
  const d: TxnDraft = { ...ctx, hosted: { ...h, writes } };
  const owned = h.owned[w.partition];
  if (w.metadata.state === 'Dead') {
    onTombstoneAnswered(d, w, appendError, owned, now, out);
    return d;
  }
  // the transactional.id goes back to its state before the request only while this coordinator epoch
  // lasts and the cache is readable (getTransactionState answers no error)
  const restores = owned !== undefined && !owned.loading && owned.coordinatorEpoch === w.coordinatorEpoch;
  const error: KafkaError | 'NONE' =
    appendError !== 'NONE' ? coordinatorErrorFor(appendError) : cacheErrorAfterWrite(owned, w.coordinatorEpoch);
  if (error === 'NONE') {
    for (const e of w.deferred) {
      if (e.type === 'timer' && e.name === 'txnTimeoutCheck') {
        rearmTimeoutCheck(d, e.data as { transactionalId: string; txnStartTimestamp: number }, now, out);
        continue;
      }
      if (e.type === 'timer' && e.name === EXPIRATION_CHECK) {
        // the expiration runs keep the broker's fixed-rate schedule too: armed from the write's success
        const m = d.txns[(e.data as { transactionalId: string }).transactionalId];
        if (m) armExpiration(d, m, now, out);
        continue;
      }
      out.effects.push(e);
    }
    releaseMarkersAfterWrite(d, w.transactionalId, now, out);
    return d;
  }
  out.fact({
    kind: 'note',
    actor: ctx.id,
    text: `writing ${w.metadata.state} of ${w.transactionalId} to __transaction_state-${w.partition} failed: ${appendError === 'NONE' ? (error === 'COORDINATOR_LOAD_IN_PROGRESS' ? 'the partition is loading again' : 'the coordinator epoch changed') : appendError} → ${error}${restores && w.before?.hasFailedEpochFence ? `; the fenced epoch ${w.before.producerEpoch} stays in memory (hasFailedEpochFence)` : ''}`,
  });
  // chained writes that never went out go with it
  const dropped = new Set([writeId]);
  for (const x of Object.values(writes).sort((a, b) => a.id - b.id))
    if (x.after !== null && dropped.has(x.after)) {
      dropped.add(x.id);
      const { [x.id]: _gone, ...rest } = (d.hosted as HostedState).writes;
      d.hosted = { ...(d.hosted as HostedState), writes: rest };
    }
  const completing = w.metadata.state === 'CompleteCommit' || w.metadata.state === 'CompleteAbort';
  if (restores) {
    const { [w.transactionalId]: _t, ...txns } = d.txns;
    // a new transactional.id: handleInitProducerId put its metadata in the cache
    // (putTransactionStateIfNotExists) before the append, so a failed write leaves it Empty at epoch
    // −1 with its producer id, which the retry reuses
    const kept = w.before ?? (w.metadata.state === 'Empty' ? { ...w.metadata, producerEpoch: -1, lastProducerEpoch: -1 } : null);
    d.txns = kept ? { ...txns, [w.transactionalId]: kept } : txns;
    const { [w.transactionalId]: _m, ...markers } = d.markers;
    d.markers = w.markersBefore ? { ...markers, [w.transactionalId]: w.markersBefore } : markers;
    // back to Ongoing past its timeout (e.g. the timeout's own PrepareAbort failed): the next abortTimedOutTransactions run tries again
    if (w.before) armTimeoutRetry(d, w.before, now, out);
    // back to an idle state: its expiration run is the one its last update gives (the next run if overdue)
    if (w.before) armExpiration(d, w.before, now, out);
    if (completing && error === 'COORDINATOR_NOT_AVAILABLE') {
      // every marker is written: only CompleteX is missing
      const work = w.markersBefore ?? {
        result: w.metadata.state === 'CompleteCommit' ? ('COMMIT' as const) : ('ABORT' as const),
        producerId: w.metadata.producerId,
        producerEpoch: w.metadata.producerEpoch,
        remaining: [],
        inFlight: [],
      };
      d.markers = { ...d.markers, [w.transactionalId]: { ...work, remaining: [], inFlight: [] } };
      out.timer(`completeRetry:${w.transactionalId}`, 'completeRetry', COMPLETE_RETRY_MS, { transactionalId: w.transactionalId });
    }
  }
  for (const e of w.deferred)
    if (e.type === 'send' && e.inReplyTo !== undefined) {
      // InitProducerId's and EndTxn's error answers carry no producer (responseCallback(error, NO_PRODUCER_ID, NO_PRODUCER_EPOCH))
      const failed = e.rpc === 'InitProducerIdResponse' || e.rpc === 'EndTxnResponse' ? { producerId: -1, producerEpoch: -1 } : {};
      out.effects.push({ ...e, payload: { ...e.payload, ...failed, error } });
    }
  return d;
}
