/**
 * `transactional.id.expiration.ms`: how long the transaction coordinator keeps a transactional.id no
 * transaction of which is open (TransactionStateManager.removeExpiredTransactionalIds, scheduled by
 * enableTransactionalIdExpiration as "transactionalId-expiration" every
 * `transaction.remove.expired.transaction.cleanup.interval.ms`, its first run one interval after the
 * coordinator's broker started — KafkaScheduler, fixed rate).
 *
 * A run expires every cached id with no pending transition whose state allows it
 * (TransactionState.isExpirationAllowed: Empty, CompleteCommit, CompleteAbort) and whose
 * `txnLastUpdateTimestamp <= now - transactional.id.expiration.ms` (shouldExpire): it writes a
 * tombstone (the id's key, a null value) to the id's `__transaction_state` partition, the id pending
 * Dead meanwhile (prepareDead), and removes the id from the cache once the write succeeded
 * (writeTombstonesForExpiredTransactionalIds' removeFromCacheCallback; a failed write only clears the
 * pending state, and the id is looked at again at the next run). A load replaying the partition drops
 * an id at its tombstone (loadTransactionMetadata). The id is then unknown: InitProducerId creates it
 * afresh with a new producer id, while AddPartitionsToTxn, AddOffsetsToTxn, EndTxn and a leader's
 * verification answer INVALID_PRODUCER_ID_MAPPING.
 *
 * Kafka runs the task whatever the cache holds; the model arms, per transactional.id, only the run
 * that can expire it — the first run at or after its last update + the expiration — as a background
 * timer (it never keeps a run going), armed again whenever the id's state or last update changes. So
 * with Kafka's defaults (7 days, checked hourly) no run falls inside a simulation.
 */
import type { Out } from '../actors/out';
import type { TimerEvent } from '../kernel/effects';
import type { TxnMetadata } from './transactionMetadata';
import type { TxnState } from './transactionState';
import type { TxnCoordinatorContext, TxnDraft } from './txnCoordinatorContext';

/** The timer event of a transactional.id's expiration run. */
export const EXPIRATION_CHECK = 'txnIdExpirationCheck';

export const expirationTimerKey = (transactionalId: string) => `txnIdExpiry:${transactionalId}`;

/** TransactionState.isExpirationAllowed: only a transactional.id with no transaction open or completing expires. */
export function isExpirationAllowed(state: TxnState): boolean {
  return state === 'Empty' || state === 'CompleteCommit' || state === 'CompleteAbort';
}

/** TransactionStateManager.shouldExpire: `isExpirationAllowed && txnLastUpdateTimestamp <= now - transactionalIdExpirationMs`. */
export function shouldExpire(m: Pick<TxnMetadata, 'state' | 'txnLastUpdateTimestamp'>, now: number, expirationMs: number): boolean {
  return isExpirationAllowed(m.state) && m.txnLastUpdateTimestamp <= now - expirationMs;
}

/** The first "transactionalId-expiration" run at or after `at`: runs are at `startedAt + k × interval`, k ≥ 1. */
export function removalRunAtOrAfter(startedAt: number, interval: number, at: number): number {
  return startedAt + Math.max(1, Math.ceil((at - startedAt) / interval)) * interval;
}

/** The run that can expire `m`: the first one after `now` at or after its last update + the expiration. */
export function expirationRunFor(ctx: Pick<TxnCoordinatorContext, 'config' | 'startedAtMs'>, m: TxnMetadata, now: number): number {
  const deadline = m.txnLastUpdateTimestamp + ctx.config.transactionalIdExpirationMs;
  return removalRunAtOrAfter(ctx.startedAtMs ?? 0, ctx.config.removeExpiredIntervalMs, Math.max(now + 1, deadline));
}

/** Arms `m`'s expiration run (replacing an earlier one) if its state allows expiration. */
export function armExpiration(ctx: Pick<TxnCoordinatorContext, 'config' | 'startedAtMs'>, m: TxnMetadata, now: number, out: Out): void {
  if (!isExpirationAllowed(m.state)) return;
  out.timer(
    expirationTimerKey(m.transactionalId),
    EXPIRATION_CHECK,
    expirationRunFor(ctx, m, now) - now,
    { transactionalId: m.transactionalId },
    true,
  );
}

/**
 * After the cache changed a transactional.id from `previous` to `next`: a state that allows expiration
 * (re)arms its run when its state or last update changed; one that does not cancels it (an Ongoing
 * transaction never expires).
 */
export function rearmOnChange(
  ctx: Pick<TxnCoordinatorContext, 'config' | 'startedAtMs'>,
  previous: TxnMetadata | undefined,
  next: TxnMetadata,
  now: number,
  out: Out,
): void {
  if (isExpirationAllowed(next.state)) {
    if (!previous || previous.state !== next.state || previous.txnLastUpdateTimestamp !== next.txnLastUpdateTimestamp)
      armExpiration(ctx, next, now, out);
  } else if (previous && isExpirationAllowed(previous.state)) out.cancel(expirationTimerKey(next.transactionalId));
}

/** What an expiration run finds for one transactional.id. */
export type ExpirationOutcome = 'absent' | 'not-allowed' | 'not-yet' | 'expire';

export function expirationOutcome(m: TxnMetadata | undefined, now: number, expirationMs: number): ExpirationOutcome {
  if (!m) return 'absent';
  if (!isExpirationAllowed(m.state)) return 'not-allowed';
  return shouldExpire(m, now, expirationMs) ? 'expire' : 'not-yet';
}

/** The `txnState` fact of an expired transactional.id: its last state → Dead (prepareDead), written as a tombstone. */
export function tellExpired(m: TxnMetadata, out: Out): void {
  out.fact({
    kind: 'txnState',
    transactionalId: m.transactionalId,
    producerId: m.producerId,
    producerEpoch: m.producerEpoch,
    from: m.state,
    to: 'Dead',
  });
}

/** The cache without `transactionalId` (removeFromCacheCallback: `metadataPerTransactionalId.remove`). */
export function forget(d: TxnDraft, transactionalId: string): void {
  const { [transactionalId]: _gone, ...txns } = d.txns;
  d.txns = txns;
}

export type ExpirationTimer = TimerEvent<{ transactionalId: string }>;
