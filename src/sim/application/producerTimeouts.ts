/**
 * What the model's applications do when a blocking producer call throws TimeoutException after
 * max.block.ms (maxBlock.ts in the producer): KafkaProducer's javadoc says initTransactions(),
 * commitTransaction() and abortTransaction() are safe to retry, and that a different operation — an
 * abortTransaction() after a commitTransaction() that timed out — is not possible ("the commit may
 * already be in the progress of completing"). So they call the same method again.
 */
import type { Out } from '../actors/out';
import type { ActorId } from '../kernel/envelope';

/** The calls retried after a TimeoutException; sendOffsetsToTransaction's is followed by an abort (no pending transition). */
const RETRIED_ON_TIMEOUT = new Set(['initTransactions', 'commitTransaction', 'abortTransaction']);

/**
 * The blocking call threw TimeoutException: the application calls it again. Like a Java application
 * catching TimeoutException, it cannot tell max.block.ms's (the retry waits for the same result) from
 * a failed transaction's — commitTransaction() throws an expired batch's TimeoutException as its
 * abortable error — where the retry throws KafkaException, and the application aborts then.
 */
export function retryAfterTimeout(self: ActorId, producer: ActorId, call: string, out: Out): void {
  out.fact({
    kind: 'note',
    actor: self,
    text: `${call}() threw TimeoutException; the application calls ${call}() again, as KafkaProducer's javadoc says it safely may`,
  });
  // `again`: read by the narration only (the producer knows the retry by its pending transition)
  out.call(producer, call, { again: true });
}

/** A reply that is a TimeoutException of a call the application retries. */
export const timedOutRetriable = (r: { call: string; ok: boolean; error?: string | null }): boolean =>
  !r.ok && r.error === 'TimeoutException' && RETRIED_ON_TIMEOUT.has(r.call);
