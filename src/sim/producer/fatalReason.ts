/**
 * Why the producer is in FATAL_ERROR, in the words of a call refused there (producer.machine.ts
 * `rejectWhenFatal`, `sendWhenFatal`; a module of its own, so that the narration and the actor details
 * translate the same words without loading the producer's machine). The model's words:
 * maybeFailWithError wraps every cause but three in KafkaException "Cannot execute transactional method
 * because we are in an error state", with the cause as its cause). One reason per error the model's
 * producer can become fatal with (TransactionManager's handlers: `fatalError`, and
 * `maybeTransitionToErrorState` for a batch; Sender.run's poisoned invalid transition):
 * - PRODUCER_FENCED, and INVALID_PRODUCER_EPOCH from a coordinator (every handler makes it
 *   `Errors.PRODUCER_FENCED.exception()`; the model's onCoordinatorResponse does the same): fenced — a
 *   newer epoch of the transactional.id exists (a newer instance's InitProducerId, or the coordinator's
 *   own epoch bump when it aborted the transaction).
 * - INVALID_PRODUCER_ID_MAPPING (fatal in Kafka 4.0, KAFKA-18019): not fenced — the coordinator no
 *   longer knows its producer id (its transactional.id expired, transactional.id.expiration.ms).
 * - INVALID_TXN_STATE (EndTxnHandler, AddPartitionsToTxnHandler, AddOffsetsToTxnHandler: `fatalError`):
 *   the coordinator holds the transaction in a state that does not allow the request — in the model an
 *   EndTxn whose transaction the coordinator had already ended otherwise.
 * - INVALID_TRANSACTION_TIMEOUT (InitProducerIdHandler: "Unexpected error in InitProducerIdResponse"):
 *   transaction.timeout.ms above the brokers' transaction.max.timeout.ms.
 * - IllegalStateException: an invalid transition on the Sender thread poisoned the producer
 *   (sendOutsideTransaction.ts; maybeFailWithError throws Kafka's own message for it).
 * Any other error is named as it is.
 */
export function fatalReason(cause: string | null): string {
  const words = cause !== null && Object.hasOwn(FATAL_CAUSE_WORDS, cause) ? FATAL_CAUSE_WORDS[cause as FatalCause] : cause;
  return `The producer is in a fatal error state (${words ?? 'unknown error'}) and must be closed`;
}

/** The words of each fatal cause in fatalReason (narration/notes.ts translates each). */
export const FATAL_CAUSE_WORDS = {
  PRODUCER_FENCED: 'fenced',
  INVALID_PRODUCER_EPOCH: 'fenced',
  ProducerFencedException: 'fenced',
  INVALID_PRODUCER_ID_MAPPING:
    'INVALID_PRODUCER_ID_MAPPING: its producer id is no longer known to the coordinator, its transactional.id expired',
  INVALID_TXN_STATE:
    'INVALID_TXN_STATE: the transaction coordinator refused its request in the state it holds the transaction in — it had already ended the transaction otherwise',
  INVALID_TRANSACTION_TIMEOUT: "INVALID_TRANSACTION_TIMEOUT: its transaction.timeout.ms is above the brokers' transaction.max.timeout.ms",
  IllegalStateException: 'IllegalStateException: an invalid state transition on its Sender thread',
} as const satisfies Readonly<Record<string, string>>;

export type FatalCause = keyof typeof FATAL_CAUSE_WORDS;
