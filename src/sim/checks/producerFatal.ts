/**
 * Which client errors end a producer, and which of those are a fence — one rule for the verdict's
 * counters, the checklist's `observed` item and the verdict panel's step links.
 *
 * A `clientError` fact is fatal when the client can only be closed after it. For a producer the
 * fences are PRODUCER_FENCED, INVALID_PRODUCER_EPOCH (Kafka's TransactionManager turns a coordinator's
 * into PRODUCER_FENCED) and INVALID_TXN_STATE (the coordinator ended the transaction under a newer
 * epoch, e.g. after transaction.timeout.ms); any other fatal error of a producer — INVALID_PRODUCER_ID_MAPPING
 * when its transactional.id expired, INVALID_TRANSACTION_TIMEOUT, an IllegalStateException that
 * poisoned it — ends it without a fence (producer/fatalReason.ts words each cause). A consumer's
 * fatal errors come from its group requests and commitSync (narration/facts.ts
 * CONSUMER_GROUP_CALLS), never a producer's.
 */

export const FENCING_ERRORS: ReadonlySet<string> = new Set(['PRODUCER_FENCED', 'INVALID_PRODUCER_EPOCH', 'INVALID_TXN_STATE']);

const CONSUMER_CALLS: ReadonlySet<string> = new Set(['JoinGroup', 'SyncGroup', 'Heartbeat', 'commitSync']);

/** What the rule reads of a `clientError` fact. */
export interface ClientErrorLike {
  readonly fatal: boolean;
  readonly error: string;
  readonly during: string;
}

/** A fatal error that fences the producer it reached. */
export const isFence = (f: ClientErrorLike): boolean => f.fatal && FENCING_ERRORS.has(f.error);

/** A producer's fatal error that is no fence: the producer can only be closed, though nothing fenced it. */
export const isProducerFatalNotFence = (f: ClientErrorLike): boolean =>
  f.fatal && !FENCING_ERRORS.has(f.error) && !CONSUMER_CALLS.has(f.during);
