/**
 * max.block.ms for the producer's blocking transactional calls. KafkaProducer.initTransactions,
 * sendOffsetsToTransaction, commitTransaction and abortTransaction each end with
 * `result.await(maxBlockTimeMs, …)`: TransactionalRequestResult.await throws TimeoutException
 * ("Timeout expired after <max.block.ms>ms while awaiting <operation>") while the request goes on.
 *
 * TransactionManager.handleCachedTransactionRequestResult keeps the timed-out call's result
 * (`pendingTransition`, cleared once a call has returned with it — `isAcked`): calling the same method
 * again waits for that result — done meanwhile, it returns (or throws its error) at once — while another
 * transactional call throws IllegalStateException ("… timed out and must be retried"; also
 * throwIfPendingState for beginTransaction and sendOffsetsToTransaction). sendOffsetsToTransaction keeps
 * no pending transition: its request goes on, and nothing refers to it.
 */
import type { Out } from '../actors/out';
import type { ActorId } from '../kernel/envelope';
import type { PendingTransition } from './producerContext';
import type { ProducerDraft } from './sender';

/** The calls that block at most max.block.ms (KafkaProducer's `result.await(maxBlockTimeMs, …)`). */
const BOUNDED = new Set(['initTransactions', 'sendOffsetsToTransaction', 'commitTransaction', 'abortTransaction']);

/** The calls whose result TransactionManager keeps when they time out (handleCachedTransactionRequestResult). */
const CACHED = new Set<string>(['initTransactions', 'commitTransaction', 'abortTransaction']);

/** Whether `call` is one whose result TransactionManager keeps as its pending transition. */
export const isCachedCall = (call: string): boolean => CACHED.has(call);

export const MAX_BLOCK_TIMER = 'maxBlock';

/** Arms the deadline of a bounded call that is still waiting after its event (once per call). */
export function armMaxBlock(d: ProducerDraft, now: number, out: Out): void {
  const w = d.waiting;
  if (!w || w.deadline !== undefined || !BOUNDED.has(w.call)) return;
  const ms = d.config['max.block.ms'];
  d.waiting = { ...w, deadline: now + ms };
  out.timer(MAX_BLOCK_TIMER, 'maxBlockExpired', ms, { call: w.call });
}

/**
 * The waiting call's result is done (or failed): its deadline is cancelled, and a pending transition
 * it resumed is acknowledged. With no call waiting, the result is the timed-out call's: it is kept
 * for that call's retry.
 */
export function completeResult(d: ProducerDraft, out: Out, ok: boolean, error: string | null): boolean {
  if (d.waiting) {
    if (d.waiting.deadline !== undefined) out.cancel(MAX_BLOCK_TIMER);
    if (d.pendingTransition?.call === d.waiting.call) d.pendingTransition = null;
    return true;
  }
  if (d.pendingTransition && d.pendingTransition.result === null) d.pendingTransition = { ...d.pendingTransition, result: { ok, error } };
  return false;
}

/** TransactionalRequestResult's operation: the name of the handler whose result the call awaits. */
function awaitedOperation(d: ProducerDraft, call: string): string {
  if (call === 'initTransactions') return 'InitProducerId';
  if (call === 'commitTransaction') return 'EndTxn(true)';
  // protocol v1 after an error: beginCompletingTransaction returns the epoch bump's result
  if (call === 'abortTransaction') return d.clientEpochBumpRequired || d.epochBumpInit ? 'InitProducerId' : 'EndTxn(false)';
  // protocol v2 sends TxnOffsetCommit alone (its handler's own result); v1 awaits AddOffsetsToTxn's
  return d.transactionVersion === 2 ? 'TxnOffsetCommitHandler' : 'AddOffsetsToTxn';
}

export function timeoutMessage(d: ProducerDraft, call: string): string {
  return `Timeout expired after ${d.config['max.block.ms']}ms while awaiting ${awaitedOperation(d, call)}`;
}

/**
 * The deadline of the waiting call: it throws TimeoutException and returns; what it waited for goes
 * on. The TransactionManager's lastError is not touched (the exception is the await's own).
 */
export function onMaxBlockExpired(d: ProducerDraft, ev: { now: number; data: { call: string } }, out: Out): void {
  const w = d.waiting;
  if (!w || w.call !== ev.data.call || w.deadline !== ev.now) return;
  const message = timeoutMessage(d, w.call);
  out.fact({ kind: 'clientError', client: d.client, error: 'TimeoutException', during: `${w.call}: ${message}`, fatal: false });
  out.call(w.from, 'reply', { call: w.call, ok: false, error: 'TimeoutException', message });
  if (CACHED.has(w.call)) d.pendingTransition = { call: w.call as PendingTransition['call'], result: null };
  d.waiting = null;
}

/** The call retries the timed-out one (handleCachedTransactionRequestResult returns its result). */
export const retriesPending = (ctx: { pendingTransition: PendingTransition | null }, call: string): boolean =>
  ctx.pendingTransition?.call === call;

/** Another transactional call while a timed-out one is pending. */
export const otherThanPending = (ctx: { pendingTransition: PendingTransition | null }, call: string): boolean =>
  ctx.pendingTransition !== null && ctx.pendingTransition.call !== call;

/** The same call again: its result at once if it is done, else it waits (max.block.ms again). */
export function resumePending(d: ProducerDraft, call: { type: string; from: ActorId }, out: Out): void {
  const p = d.pendingTransition as PendingTransition;
  if (p.result === null) {
    d.waiting = { call: p.call, from: call.from };
    return;
  }
  d.pendingTransition = null;
  out.call(call.from, 'reply', { call: p.call, ok: p.result.ok, error: p.result.error });
}

/** TransactionManager's IllegalStateException for a different call while one must be retried. */
export function pendingRefusal(d: ProducerDraft, call: string): string {
  return `Cannot attempt operation \`${call}\` because the previous call to \`${d.pendingTransition?.call}\` timed out and must be retried`;
}
