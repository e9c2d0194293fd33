/**
 * KafkaProducer.close(Duration timeout) with a finite timeout: `initiateClose()`, then
 * `ioThread.join(timeoutMs)`; a Sender thread still alive after it — or a timeout of 0, which does not
 * wait at all — is closed forcefully (`Sender.forceClose()`: "Proceeding to force close the producer
 * since pending requests could not be completed within timeout N ms"). `forceClose` makes `Sender.run`
 * skip its loops (send what is held, wait for the requests in flight, abort an open transaction), then:
 * - `TransactionManager.close()` fails every transactional request still queued (`pendingRequests`,
 *   each handler's `fatalError`) and the pending transition's result with KafkaException("The
 *   producer closed forcefully"); a request in flight is abandoned when the client closes;
 * - `RecordAccumulator.abortIncompleteBatches()` → `abortBatches(new KafkaException("Producer is closed
 *   forcefully."))` fails every incomplete batch, those still in the accumulator *and* those already
 *   in flight (the `incomplete` set): a record whose Produce was appended is reported failed all the
 *   same;
 * - no EndTxn(ABORT): the open transaction is left to the coordinator's transaction.timeout.ms or the
 *   next InitProducerId of its transactional.id.
 * The model's close(Duration) arms a kernel timer at close + timeout (CLOSE_TIMEOUT_TIMER), cancelled
 * by a close that finishes in time (producer.machine.ts `closeNow`).
 */
import type { Out } from '../actors/out';
import type { ProducerContext } from './producerContext';

export const CLOSE_TIMEOUT_TIMER = 'closeTimeout';

/** RecordAccumulator.abortBatches' KafkaException message on a forced close (abortIncompleteBatches). */
export const FORCE_CLOSE_MESSAGE = 'Producer is closed forcefully.';

/** TransactionManager.close()'s KafkaException message. */
export const TXN_FORCE_CLOSE_MESSAGE = 'The producer closed forcefully';

/** close()'s argument: `timeoutMs` for close(Duration.ofMillis(timeoutMs)), absent for close(). */
export interface CloseArgs {
  readonly timeoutMs?: number;
}

/** The request the TransactionManager would send next (TransactionManager.nextRequest's order in the model). */
function nextTransactionalRequest(ctx: ProducerContext): string | null {
  if (ctx.initPending || ctx.epochBumpInit) return 'InitProducerId';
  if (ctx.pendingPartitions.length > 0) return 'AddPartitionsToTxn';
  if (ctx.pendingOffsets)
    return ctx.pendingOffsets.phase === 'AddOffsetsToTxn' && ctx.transactionVersion === 1 ? 'AddOffsetsToTxn' : 'TxnOffsetCommit';
  if (ctx.endTxn) return `EndTxn(${ctx.endTxn})`;
  return null;
}

/**
 * The transactional requests queued and not in flight — TransactionManager.pendingRequests, which
 * `close()` fails: one re-enqueued for a retry (its backoff running, or behind a FindCoordinator),
 * and the handlers a call enqueues at once (initTransactions' InitProducerId, sendOffsetsToTransaction's
 * AddOffsetsToTxn / TxnOffsetCommit, commitTransaction's or abortTransaction's EndTxn, which waits for
 * the records). AddPartitionsToTxn is made by nextRequest as it is sent, so only a retried one is queued.
 */
export function pendingTransactionalRequests(ctx: ProducerContext): string[] {
  if (!ctx.idempotent) return [];
  const inFlight = ctx.coordinatorRequest?.rpc ?? null;
  const retrying = ctx.txnRetryArmed || (ctx.retryAfterLookup === true && inFlight === 'FindCoordinator');
  const next = nextTransactionalRequest(ctx);
  if (retrying) return next ? [next] : [];
  const queued: string[] = [];
  if ((ctx.initPending || ctx.epochBumpInit) && inFlight !== 'InitProducerId') queued.push('InitProducerId');
  if (ctx.pendingOffsets) {
    const rpc = ctx.pendingOffsets.phase === 'AddOffsetsToTxn' && ctx.transactionVersion === 1 ? 'AddOffsetsToTxn' : 'TxnOffsetCommit';
    if (inFlight !== rpc) queued.push(rpc);
  }
  if (ctx.endTxn && inFlight !== 'EndTxn') queued.push(`EndTxn(${ctx.endTxn})`);
  return queued;
}

/** The note a forced close leaves: what forceClose skips and what it fails (narration/producerClose.ts has its Korean). */
export function forceCloseNote(ctx: ProducerContext, timeoutMs: number, records: number): string {
  const failed =
    records === 0
      ? 'no record was still owed a result'
      : `${records === 1 ? '1 record' : `${records} records`} still owed a result, sent or not, ${records === 1 ? 'fails' : 'fail'} with KafkaException "Producer is closed forcefully."`;
  const txn = !ctx.inTransaction
    ? ''
    : ctx.endTxn === null
      ? '; the open transaction is not aborted (no EndTxn): the coordinator aborts it after transaction.timeout.ms, or the next InitProducerId of this transactional.id does'
      : `; the EndTxn(${ctx.endTxn}) begun is not waited for`;
  return `close(Duration.ofMillis(${timeoutMs})): "Proceeding to force close the producer since pending requests could not be completed within timeout ${timeoutMs} ms" — Sender.forceClose: the Sender sends nothing more and waits for no answer; ${failed}${txn}`;
}

/** TransactionManager.close(): the queued transactional requests fail (a clientError fact, if there are any). */
export function failPendingTransactionalRequests(ctx: ProducerContext, out: Out): void {
  const pending = pendingTransactionalRequests(ctx);
  if (pending.length === 0) return;
  out.fact({
    kind: 'clientError',
    client: ctx.client,
    error: 'KafkaException',
    during: `close: ${TXN_FORCE_CLOSE_MESSAGE} (${pending.join(', ')} never sent)`,
    fatal: false,
  });
}
