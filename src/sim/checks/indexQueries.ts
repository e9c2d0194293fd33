/**
 * What the verdict's findings ask of a run as of one step (docs/architecture.md, "Views as
 * accumulators"): each question answered either from a RunIndex gathered in full (`queriesOfIndex`,
 * linear in the run: hand-made traces, fast mode, the whole summary) or from the journal's
 * accumulators in bounded time (./journalQueries). The findings (verdictTopics, verdictReaders,
 * verdict.ts) read nothing else, so both give the same verdict.
 */

import type { PartitionRow, RecordRow } from '../trace/logView';
import type { OperatorAbort, ProducerExpiry } from './indexJournal';
import type { Occurrence, RawCopy, SendResult, TxnStep } from './verdictIndex';
import type { CopyState } from './verdictTypes';

/** A partition as the findings read it: its offsets, not its records (those by range, `recordsIn`). */
export type PartitionHead = Omit<PartitionRow, 'records' | 'replication'>;

/** A record a group or a sink should have taken in: a committed or plain record of its topics. */
export interface DueRecord {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly key: string;
  readonly eventId: string | null;
}

/**
 * Events received more than once by one reader, with every occurrence; or processed again by an
 * application instance, with every processing of the event in its group (`by`: the instance of each).
 */
export interface Repeated {
  readonly key: string;
  readonly topic: string;
  readonly list: readonly Occurrence[];
  readonly by?: readonly string[];
}

export interface TopicTally {
  /** Business events in the topic (copies of any state). */
  readonly events: number;
  readonly copyCounts: Readonly<Record<CopyState, number>>;
  /** The clients whose send() wrote a copy. */
  readonly writers: Iterable<string>;
}

/** An event a writer should have put in a topic (a send() answered, a script's send, a processed input, an outbox row). */
export interface Expected {
  readonly eventId: string;
  readonly by: string | null;
  readonly via: 'producer' | 'app' | 'relay' | 'log';
}

export interface IndexQueries {
  readonly stepTime: (step: number) => number;
  /** Topics that hold data, in partitionRows order. */
  readonly partitions: readonly PartitionHead[];
  /** The rows of a partition's records at offsets in [from, to), control records included. */
  recordsIn(topic: string, partition: number, from: number, to: number): readonly RecordRow[];
  copyAt(topic: string, partition: number, offset: number): RawCopy | undefined;
  /** Whether anything happened: a copy, a send() result, a delivery or a processing. */
  anything(): boolean;

  /** Topics with copies, and topics with send() results. */
  copyTopics(): Iterable<string>;
  resultTopics(): Iterable<string>;
  tally(topic: string): TopicTally;
  /**
   * The events of a topic whose copies say more than "written once" (more than one copy, a copy not
   * committed or plain, or a retry the broker recognised), in the order of their first copy.
   */
  notable(topic: string): Iterable<readonly [string, readonly RawCopy[]]>;
  copiesOf(topic: string, key: string): readonly RawCopy[];
  /** Retries of an event the broker recognised in a topic. */
  deduplicated(topic: string, key: string): number;
  /** Events the topic's writers should have put in it that have no copy there, first reason first. */
  missing(
    topic: string,
    writers: readonly { topic: string; writer: string; kind: string; sink?: string }[],
    intended: readonly { client: string; topic: string; eventId: string }[],
  ): Map<string, Expected>;
  /** The last result of each send() that carried the event to the topic. */
  resultsOf(topic: string, eventId: string): readonly SendResult[];
  /**
   * The events of the topic some send() of which was told a failure after the record had left
   * send() (not `beforeAppend`), in the order of the first such failure: the candidates for
   * "written although its send() failed".
   */
  failedSendEvents(topic: string): Iterable<string>;

  /** Producer sessions of a client that began at or before `step`. */
  sessionsUpTo(client: string, step: number): number;
  transactionalId(producerId: number): string | null;
  lastTxnState(producerId: number): TxnStep | undefined;
  /** The step of the producer's last transition to `to`. */
  lastTxnStep(producerId: number, to: string): number | undefined;
  /** The step of the producer's first transition to `to` at or after `step`. */
  firstTxnStepFrom(producerId: number, to: string, step: number): number | undefined;
  /** Whether the coordinator timed out a transaction of the id between `from` and `to` (inclusive). */
  timedOutBetween(transactionalId: string, from: number, to: number): boolean;
  stopNote(client: string): { text: string; step: number } | undefined;
  fatalError(client: string): { error: string; step: number } | undefined;
  /** Whether the partition had an unclean leader election after `step`. */
  uncleanAfter(topic: string, partition: number, step: number): boolean;
  /**
   * The steps that cut the record at `offset` of a partition, appended at `step`: the first leader
   * election after it (the first unclean one when `unclean`) — the leader chosen lacked it — then the
   * first truncation of a replica's log after it that cut that offset. Either may be missing.
   */
  cutBy(topic: string, partition: number, offset: number, step: number, unclean: boolean): number[];
  /**
   * The first expiration check after step `from` and before step `to` that dropped `producerId` from
   * the partition (producer.id.expiration.ms), if one did.
   */
  expiredBetween(topic: string, partition: number, producerId: number, from: number, to: number): ProducerExpiry | undefined;
  /** The first operator's abort of producerId on the partition whose ABORT marker lies after `offset`, if one did. */
  operatorAbortAfter(topic: string, partition: number, producerId: number, offset: number): OperatorAbort | undefined;
  committed(groupId: string, topic: string, partition: number): { offset: number; step: number } | undefined;

  /** Whether a reader received or an application processed the event of a topic. */
  seen(topic: string, key: string): boolean;
  /** Records received, distinct events received, events received more than once. */
  deliveries(reader: string): { received: number; events: number };
  repeatedDeliveries(reader: string): readonly Repeated[];
  /** Received records whose copy is aborted or open now. */
  uncommittedDelivered(reader: string): number;
  processings(app: string): { processed: number; events: number };
  /**
   * The events `app` processed again: an event it processed after an earlier processing of it —
   * its own (a restart) or another instance's of its group (`members`, itself among them: after a
   * rebalance or a task migration) —, with every processing of the event by the members, in step
   * order (`by` says whose), in the order of the app's first processing of each.
   */
  repeatedProcessings(app: string, members: readonly string[]): readonly Repeated[];
  /** Of the members, the one that last received or processed from the partition (the first one on a tie). */
  lastReader(members: readonly string[], topic: string, partition: number): string | undefined;
  /** The lowest offset of the partition the members received or processed (Infinity: none). */
  firstReadOffset(members: readonly string[], topic: string, partition: number): number;
  /** Whether one of the members processed the event of the topic (any topic when `topic` is null). */
  processedBy(members: readonly string[], topic: string | null, key: string): boolean;
  /**
   * Committed or plain records of the topics, in partition and offset order, among which are all that
   * none of `members` processed (`unapplied`: all whose event took no effect in the sink), and maybe others.
   */
  dueCandidates(members: readonly string[], topics: ReadonlySet<string>, unapplied?: string): readonly DueRecord[];

  sinkNames(): readonly string[];
  /** Whether the sink saw an effect (applied or not) of the event. */
  hasEffect(sink: string, eventId: string): boolean;
  sinkTally(sink: string): { events: number; skipped: number; repeated: readonly { eventId: string; applied: readonly number[] }[] };

  readonly counts: { committed: number; aborted: number; fenced: number; fatal: number; commitFailures: number; inboxConflicts: number };
  /** Records that repeat a send() already in the log (a retry nothing recognised). */
  retriesWrittenTwice(): number;
  /** Events an application processed more than once. */
  eventsProcessedTwice(): number;
}
