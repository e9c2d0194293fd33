/**
 * Record batches as the broker stores them (Kafka's RecordBatch v2 header fields that matter here).
 *
 * A control batch (a transaction marker) holds one record and occupies exactly one offset.
 */
export type Headers = Readonly<Record<string, string>>;

/**
 * One empty headers object for every record without headers: a producer's pending records and a
 * checkpoint that keeps them last a whole run, and an empty object each is ~56 bytes a record.
 * Frozen, as records are never changed.
 */
export const NO_HEADERS: Headers = Object.freeze({});

/** `h`, or NO_HEADERS when it is empty. */
export function sharedHeaders(h: Headers): Headers {
  for (const _ in h) return h;
  return NO_HEADERS;
}

/**
 * Which application send() a record came from. Not part of Kafka's record format: the simulator
 * carries it so that it can tell a retry (same send) from a second send of the same event.
 */
export interface RecordOrigin {
  readonly client: string;
  readonly ref: number;
}

export interface LogRecord {
  readonly offset: number;
  readonly key: string | null;
  /** null is a tombstone (a delete on a compacted topic). */
  readonly value: string | null;
  readonly headers: Headers;
  readonly timestamp: number;
  readonly origin?: RecordOrigin;
}

export type ControlType = 'COMMIT' | 'ABORT';

/** Kafka's "no producer id" values for a batch written without idempotence. */
export const NO_PRODUCER_ID = -1;
export const NO_PRODUCER_EPOCH = -1;
export const NO_SEQUENCE = -1;

export interface RecordBatch {
  readonly baseOffset: number;
  readonly lastOffset: number;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly baseSequence: number;
  readonly lastSequence: number;
  readonly isTransactional: boolean;
  readonly isControl: boolean;
  readonly controlType: ControlType | null;
  readonly records: readonly LogRecord[];
  /** Virtual time at which the broker appended the batch. */
  readonly appendTime: number;
  /**
   * The batch header's deleteHorizonMs (KIP-534): set by the first cleaning that keeps a tombstone of
   * this batch, to that cleaning's time + delete.retention.ms; the tombstone goes once it has passed.
   */
  readonly deleteHorizonMs?: number;
  /** The leader epoch the batch was written in (a replicated partition only; absent with one replica). */
  readonly partitionLeaderEpoch?: number;
  /**
   * A control batch's marker (EndTransactionMarker, the control record's value): the coordinator
   * epoch of the transaction coordinator that wrote it. A follower, and a replay after truncation,
   * take the producer's coordinator epoch from it (ProducerAppendInfo.appendEndTxnMarker), so a new
   * leader still fences a zombie coordinator's late marker.
   */
  readonly coordinatorEpoch?: number;
}

/** What a producer puts on the wire: records without offsets, plus the idempotence header. */
export interface ProducedRecord {
  readonly key: string | null;
  readonly value: string | null;
  readonly headers: Headers;
  readonly timestamp: number;
  readonly origin?: RecordOrigin;
}

export interface ProducedBatch {
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly baseSequence: number;
  readonly isTransactional: boolean;
  readonly records: readonly ProducedRecord[];
}

export function lastSequenceOf(batch: { baseSequence: number; records: readonly unknown[] }): number {
  if (batch.baseSequence === NO_SEQUENCE) return NO_SEQUENCE;
  // sequences wrap after Integer.MAX_VALUE, as in DefaultRecordBatch.incrementSequence
  const last = batch.baseSequence + batch.records.length - 1;
  return last > 2147483647 ? last - 2147483648 : last;
}
