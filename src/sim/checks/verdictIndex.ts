/**
 * What the verdict gathers from a run's facts and partition logs (built by ./indexJournal): every copy of every
 * business event per topic (present now, or appended and later removed), what each send() was told,
 * what each consumer received, each application processed and each sink took in, the transaction
 * coordinator's states per producer, and the offsets each group committed.
 */
import { recordAddress } from '../protocol/topicPartition';
import type { PartitionRow } from '../trace/logView';
import type { OperatorAbort, ProducerExpiry, Truncation } from './indexJournal';
import type { CopyState } from './verdictTypes';

/** A business event's identity: its event_id header, else its place in the log. */
export function eventKey(eventId: string | null | undefined, topic: string, partition: number, offset: number): string {
  return eventId ?? recordAddress(topic, partition, offset);
}

export interface RawCopy {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly key: string;
  readonly state: CopyState;
  readonly origin: string | null;
  readonly writer: string | null;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly transactional: boolean;
  readonly step: number | null;
}

export interface SendResult {
  readonly client: string;
  readonly topic: string;
  readonly eventId: string | null;
  readonly offset: number | null;
  readonly error: string | null;
  readonly step: number;
  /** send() refused the record before it reached the accumulator: it never left the producer. */
  readonly beforeAppend?: true;
  /** A forced close failed it (close(Duration)'s timeout: KafkaException "Producer is closed forcefully."). */
  readonly closedForcefully?: true;
}

export interface Occurrence {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly key: string;
  readonly eventId: string | null;
  readonly step: number;
}

export interface TxnStep {
  readonly transactionalId: string;
  readonly producerEpoch: number;
  readonly from: string;
  readonly to: string;
  readonly step: number;
}

export interface RunIndex {
  readonly stepTime: (step: number) => number;
  /** Copies per topic, then per event key, in append order (removed ones included). */
  readonly copies: ReadonlyMap<string, ReadonlyMap<string, RawCopy[]>>;
  /** The copy at an offset, if one was appended there. */
  readonly copyAt: (topic: string, partition: number, offset: number) => RawCopy | undefined;
  /** Every copy, in append order (records no append fact announced last). */
  readonly allCopies: readonly RawCopy[];
  /** Topics that hold data (now or once), with their partitions' current rows. */
  readonly partitions: readonly PartitionRow[];
  /** Broker-recognised retries per "topic|key": how many, and where. */
  readonly deduplicated: ReadonlyMap<string, number[]>;
  /** The last result of each send(). */
  readonly sendResults: readonly SendResult[];
  /** The same results by "topic|eventId", and by topic. */
  readonly resultsByEvent: ReadonlyMap<string, readonly SendResult[]>;
  readonly resultsByTopic: ReadonlyMap<string, readonly SendResult[]>;
  readonly delivered: ReadonlyMap<string, Occurrence[]>;
  readonly processed: ReadonlyMap<string, Occurrence[]>;
  /** Per sink, per event id: effects that took effect and attempts that changed nothing. */
  readonly sideEffects: ReadonlyMap<string, Map<string, { applied: number[]; skipped: number[]; apps: Set<string> }>>;
  readonly inboxConflicts: number;
  /** Coordinator transitions per producerId. */
  readonly txnStates: ReadonlyMap<number, TxnStep[]>;
  /** transactional.id per producerId (from InitProducerId results and coordinator states). */
  readonly transactionalIds: ReadonlyMap<number, string>;
  /** Steps at which each client got a producer id with initTransactions (a new transactional session). */
  readonly sessions: ReadonlyMap<string, number[]>;
  /** Steps where the coordinator timed out a transaction, by transactional.id. */
  readonly timedOut: ReadonlyMap<string, number[]>;
  /** Notes of applications that stopped ("… this instance was fenced and stops"), by client. */
  readonly stopNotes: ReadonlyMap<string, { text: string; step: number }>;
  /** Fatal client errors, by client. */
  readonly fatalErrors: ReadonlyMap<string, { error: string; step: number }>;
  /** Highest committed offset per group and "topic-partition", with the step it was committed at. */
  readonly committed: ReadonlyMap<string, Map<string, { offset: number; step: number }>>;
  /** Steps of unclean leader elections (an out-of-sync replica made leader), per "topic-partition". */
  readonly uncleanElections: ReadonlyMap<string, readonly number[]>;
  /** Steps of every leader election, per "topic-partition". */
  readonly elections: ReadonlyMap<string, readonly number[]>;
  /** Replicas' truncations, per "topic-partition". */
  readonly truncations: ReadonlyMap<string, readonly Truncation[]>;
  /** Producers brokers' expiration checks dropped, per "topic-partition". */
  readonly expiries: ReadonlyMap<string, readonly ProducerExpiry[]>;
  /** Operators' transaction aborts that wrote a marker, per "topic-partition". */
  readonly operatorAborts: ReadonlyMap<string, readonly OperatorAbort[]>;
  readonly counts: { committed: number; aborted: number; fenced: number; fatal: number; commitFailures: number };
}

/** The send() results that carried an event to a topic. */
export function resultsOf(index: RunIndex, topic: string, eventId: string): readonly SendResult[] {
  return index.resultsByEvent.get(`${topic}|${eventId}`) ?? [];
}
