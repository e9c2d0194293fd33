/**
 * The shapes of the layered verdict (computeVerdict in verdict.ts): per layer and subject, a status
 * and the structured facts behind its sentence — what each copy of an event in a topic is, what a
 * reader received, where a reader is stalled and what pins the LSO, and each loss with its kind and
 * cause. Sentences in English and Korean are made from these (verdictText.ts).
 */

export type WriterKind = 'producer' | 'app' | 'relay';

export type LayerId = 'log' | 'output' | 'delivery' | 'processing' | 'sink' | 'loss';

/**
 * 'above-hw': a topic's event whose committed or plain copies are all in the leader's log at or
 * above the high watermark — not committed in Kafka's sense: no reader of either isolation level
 * sees it, a later leader may truncate it, or it becomes committed when the ISR catches up. Neither
 * "once" nor "lost". Also an event with one committed copy and a second one above the HW (a
 * duplicate once the HW passes it), and the records of a committed transaction whose COMMIT marker
 * is at or above the HW (read_committed readers wait for the marker to be replicated).
 */
export type Status = 'once' | 'more-than-once' | 'lost' | 'stalled' | 'above-hw' | 'not-applicable';

/** What one record of an event is in its topic's log. */
export type CopyState =
  /** in a committed transaction */
  | 'committed'
  /** written outside any transaction */
  | 'plain'
  /** in an aborted transaction: only read_uncommitted readers see it */
  | 'aborted'
  /** in a transaction that has not ended (no marker yet) */
  | 'open'
  /** appended, then gone from the log: cleaned by compaction, or truncated by a leader change */
  | 'removed';

/** Why a copy exists next to an earlier copy of the same event in the same topic. */
export type CopyCause =
  | 'first'
  /** the same send() written again by a producer retry (no idempotence, or a rewritten sequence) */
  | 'retry'
  /** a separate send() by the same producer session */
  | 'resend'
  /** the same client in a new producer session (a restart: a new producerId or a new initTransactions) */
  | 'new-session'
  /** another client wrote it */
  | 'other-writer';

export interface Copy {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly state: CopyState;
  readonly cause: CopyCause;
  /** The client whose send() wrote it (a simulator annotation), if known. */
  readonly writer: string | null;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly transactionalId: string | null;
  /** The step that appended it. */
  readonly step: number | null;
  /** A removed copy cut by truncation after a leader change says so; absent: cleaned by compaction. */
  readonly removedBy?: 'truncation';
  /**
   * A committed or plain copy no reader may count yet (verdictTopics `pendingOf`): 'log', it is at
   * or above its partition's high watermark; 'marker', it is below it but its transaction's COMMIT
   * marker is not (ProducerStateManager.unreplicatedTxns). Absent: committed.
   */
  readonly aboveHighWatermark?: AboveHighWatermarkReason;
}

/** Why a committed or plain copy is not committed yet: itself, or its transaction's marker, at or above the HW. */
export type AboveHighWatermarkReason = 'log' | 'marker';

/** One event of a topic whose copies say more than "written once". */
export interface TopicEvent {
  readonly eventId: string;
  readonly copies: readonly Copy[];
  /** Retries the broker recognised (same producerId, epoch and sequence) and answered with the original offset. */
  readonly deduplicated: number;
  /** For a topic an application writes: committed or plain copies of the event in its input topics. */
  readonly inputCopies: number;
  /**
   * A retry copy in the same epoch as an earlier copy of its producer: the broker had dropped that
   * producer's state in between (producer.id.expiration.ms), so the retry met no sequences. Absent otherwise.
   */
  readonly producerExpired?: { readonly broker: string; readonly step: number; readonly expirationMs: number };
}

export type LossKind =
  /** acknowledged to the application (acks=0: on the wire), then nowhere in the log */
  | 'acked-then-lost'
  /** sent, never acknowledged: the send failed (delivery.timeout.ms, a fenced epoch …) and the record is not in the log */
  | 'not-acked'
  /** the application never sent it: it stopped first (fenced, a fatal error, a crash), or send() refused it (max.block.ms, max.request.size) */
  | 'never-sent'
  /** every copy is in an aborted transaction */
  | 'aborted-only'
  /** every copy is in a transaction that never ended */
  | 'open-only'
  /** removed by compaction before any reader received it */
  | 'compacted'
  /** in the outbox table, never published by the relay */
  | 'not-published'
  /** processed by the application that writes the topic, but no copy was written */
  | 'not-written'
  /** no application of the group processed it */
  | 'not-processed'
  /** the system outside Kafka never took it in */
  | 'not-applied';

/**
 * An event of a topic whose committed or plain copies are all in the leader's log at or above the
 * partition's high watermark (the last of them named): appended, not committed.
 */
export interface AboveHighWatermark {
  readonly eventId: string;
  readonly topic: string;
  readonly partition: number;
  /** The copy not committed yet (of several, the last). */
  readonly offset: number;
  readonly highWatermark: number;
  /** 'log': the copy is at or above the HW; 'marker': its transaction's COMMIT marker is. */
  readonly reason: AboveHighWatermarkReason;
  /** For 'marker': the offset of that COMMIT marker. */
  readonly markerOffset?: number;
  /** The event also has one committed copy: this one is a second copy, a duplicate once the HW passes it. */
  readonly secondCopy: boolean;
  /** The client whose send() wrote it (a simulator annotation), if known. */
  readonly writer: string | null;
  /** What that send() was told at the step described: 'acknowledged', its error code, or null (no answer yet). */
  readonly told: string | null;
}

/**
 * An event whose send() was told it failed (after the record had left send()) although a copy that
 * send wrote is committed in the log: the answer did not say what the broker did (a lost
 * acknowledgement, a request timeout, NOT_ENOUGH_REPLICAS_AFTER_APPEND, a forced close).
 */
export interface WrittenThoughFailed {
  readonly eventId: string;
  readonly topic: string;
  /** The committed copy that send wrote (of several, the first). */
  readonly partition: number;
  readonly offset: number;
  /** The client whose send() was told it failed. */
  readonly writer: string;
  /** What it was told: the error code or exception. */
  readonly error: string;
  /** A forced close failed it (close(Duration)'s timeout). */
  readonly closedForcefully?: true;
}

export interface Loss {
  readonly eventId: string;
  /** The layer and subject where it was lost: a topic (log/output), an application (processing) or a sink. */
  readonly layer: Exclude<LayerId, 'delivery' | 'loss'>;
  readonly subject: string;
  readonly kind: LossKind;
  /**
   * Why, as a code the sentences explain: 'acked' | 'truncated' (acked-then-lost: cut from the log's
   * end by a leader change) | 'unclean-election' (cut because an out-of-sync replica was elected
   * leader, unclean.leader.election.enable=true), an error code (not-acked), 'fenced' | 'fatal' | 'down' |
   * 'ended' | an exception send() refused the record with (never-sent), 'ended' (not-published), 'timeout' | 'fenced' | 'application' | 'operator' | 'operator-split' (aborted-only: an operator's
   * kafka-transactions.sh abort; split: the coordinator then committed the transaction elsewhere),
   * 'hanging' | 'open' (open-only), 'committed-past' | 'stopped' | 'down' | 'ended' (not-processed),
   * 'not-processed' | 'no-call' (not-applied).
   */
  readonly cause: string;
  /** Who: the client, application or relay concerned. */
  readonly actor: string | null;
  /** A number the cause refers to: the committed offset, the surviving offset, the aborting epoch … */
  readonly offset: number | null;
  readonly steps: readonly number[];
}

/** A read_committed reader that cannot read past an open transaction. */
export interface Stall {
  readonly topic: string;
  readonly partition: number;
  readonly lastStableOffset: number;
  readonly highWatermark: number;
  /** Data records at or above the LSO the reader cannot read (the open transaction's own included). */
  readonly blocked: number;
  readonly blockedEventIds: readonly string[];
  /** When the LSO was pinned: the append of the open transaction's first batch (virtual time and step). */
  readonly sinceTime: number;
  readonly sinceStep: number | null;
  /** What pins the LSO, as kafka-transactions.sh find-hanging names it. */
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly firstOffset: number;
  readonly transactionalId: string | null;
  /** The coordinator's last state for this producer (null: it never heard of it). */
  readonly coordinatorState: string | null;
  /** True when the coordinator tracks no open transaction for it: nothing will ever end it. */
  readonly hanging: boolean;
  /**
   * The transaction has ended, but its marker (at this offset, COMMIT or ABORT) is at or above the
   * high watermark: the LSO moves once the followers copy it (ProducerStateManager.unreplicatedTxns).
   */
  readonly marker?: { readonly offset: number; readonly type: 'COMMIT' | 'ABORT' };
}

interface FindingBase {
  readonly layer: LayerId;
  /** The topic (log, output), consumer (delivery), application (processing) or sink; null for losses. */
  readonly subject: string | null;
  readonly status: Status;
  /** The finding in English (verdictText.ts gives it in Korean too). */
  readonly sentence: string;
  /** Event ids concerned: duplicated, lost or blocked ones. */
  readonly eventIds: readonly string[];
  /** Trace steps that caused what the sentence reports. */
  readonly steps: readonly number[];
}

export interface TopicFinding extends FindingBase {
  readonly layer: 'log' | 'output';
  readonly subject: string;
  /** The clients, applications or relays that wrote to the topic. */
  readonly writers: readonly string[];
  /** What kind of writer each is: a producer application, a processing application or Streams, an outbox relay. */
  readonly writerKinds: Readonly<Record<string, WriterKind>>;
  /** Business events in the topic (copies of any state). */
  readonly events: number;
  /** Copies by state, over the whole topic. */
  readonly copyCounts: Readonly<Record<CopyState, number>>;
  /** Events with more than one copy, or a copy that is not committed/plain, or a retry the broker recognised. */
  readonly notable: readonly TopicEvent[];
  readonly losses: readonly Loss[];
  /**
   * Events in the leader's log only at or above the high watermark: not committed, neither once nor
   * lost. Absent when there are none (so a verdict without any reads as it did before the field).
   */
  readonly aboveHighWatermark?: readonly AboveHighWatermark[];
  /**
   * Events committed in the topic that a send() was told had failed. Absent when there are none (so
   * a verdict without any reads as it did before the field).
   */
  readonly writtenThoughFailed?: readonly WrittenThoughFailed[];
}

export interface ReaderEvent {
  readonly eventId: string;
  readonly topic: string;
  /** Offsets received, in order (the same offset twice: a redelivery). */
  readonly offsets: readonly number[];
  /** States of the copies received, in the same order. */
  readonly states: readonly CopyState[];
}

export interface DeliveryFinding extends FindingBase {
  readonly layer: 'delivery';
  readonly subject: string;
  readonly isolationLevel: string;
  /** Records received (redeliveries included). */
  readonly received: number;
  /** Distinct events received. */
  readonly events: number;
  /** Events received more than once. */
  readonly repeated: readonly ReaderEvent[];
  /** Aborted or open copies a read_uncommitted reader received. */
  readonly uncommittedCopies: number;
  readonly stalls: readonly Stall[];
}

/** One key of a Kafka Streams count's store. */
export interface StoreKey {
  readonly key: string;
  /** The task whose store holds this count (`0_2`), given only for a key counted by more than one task. */
  readonly task?: string;
  /** Its count in the store, as a restore reads the changelog. */
  readonly count: number;
  /** Distinct events (event_id, else the record's address) with this key in the counted topic. */
  readonly events: number;
  /** Records with this key in the counted topic (more than `events` when the input repeats an event). */
  readonly records: number;
}

/** A Kafka Streams count's store against the events it counted (checks/verdictStore.ts). */
export interface StoreCheck {
  readonly changelogTopic: string;
  readonly countedTopic: string;
  readonly keys: readonly StoreKey[];
  /** Keys whose count is above their events: an event counted more than once. */
  readonly inflated: readonly StoreKey[];
  /** At the end of the run, keys whose count is below their events: counts lost. */
  readonly short: readonly StoreKey[];
}

export interface ProcessingFinding extends FindingBase {
  readonly layer: 'processing';
  readonly subject: string;
  readonly groupId: string | null;
  /** A Kafka Streams count's store, for the first instance of its application (absent otherwise). */
  readonly store?: StoreCheck;
  /** Distinct events processed. */
  readonly events: number;
  /**
   * Events this instance processed again — after its own processing (a restart) or another
   * instance's of its group (a rebalance, a task migration) —: `times` is every processing of the
   * event in the group, `others` the other instances among them (absent: none).
   */
  readonly repeated: readonly { eventId: string; topic: string; times: number; others?: readonly string[] }[];
  readonly losses: readonly Loss[];
  readonly stalls: readonly Stall[];
}

export interface SinkFinding extends FindingBase {
  readonly layer: 'sink';
  readonly subject: string;
  /** Events that took effect. */
  readonly events: number;
  readonly repeated: readonly { eventId: string; times: number }[];
  /** Attempts that changed nothing (a replay, an upsert of an existing row, an inbox conflict). */
  readonly skipped: number;
  readonly losses: readonly Loss[];
}

export interface LossFinding extends FindingBase {
  readonly layer: 'loss';
  readonly subject: null;
  readonly losses: readonly Loss[];
}

export type LayerFinding = TopicFinding | DeliveryFinding | ProcessingFinding | SinkFinding | LossFinding;

export interface EventVerdict {
  readonly eventId: string;
  /** Separate send() calls that produced this event to a source topic. */
  readonly sends: number;
  /** Data records with this event_id in source topics, as the log holds them now. */
  readonly appended: number;
  /** Records that are a second append of the same send (a producer retry without idempotence, or one an epoch bump rewrote). */
  readonly retryDuplicates: number;
  /** Records received, per consumer (every topic). */
  readonly deliveries: Readonly<Record<string, number>>;
  readonly processed: Readonly<Record<string, number>>;
  /** Copies in output topics a read_committed reader sees (null: no output topic). */
  readonly committedOutput: number | null;
  /** All copies in output topics, aborted and open included (what read_uncommitted sees). */
  readonly outputAll: number | null;
  /** Per sink: side effects that took effect, and attempts that wrote nothing (replays, conflicts). */
  readonly sideEffects: Readonly<Record<string, { applied: number; skipped: number }>>;
}

export interface Counters {
  readonly transactionsCommitted: number;
  readonly transactionsAborted: number;
  readonly producersFenced: number;
  /** Producers that failed fatally without a fence (an expired transactional.id …): closed, their open work lost. */
  readonly producersFatal: number;
  readonly commitFailures: number;
  readonly retryDuplicates: number;
  readonly duplicateEventIdsSeenByApplications: number;
  readonly inboxConflicts: number;
  readonly consumerLag: Readonly<Record<string, number>>;
}

export interface Verdict {
  readonly events: readonly EventVerdict[];
  readonly layers: readonly LayerFinding[];
  readonly counters: Counters;
  /** One plain sentence per finding, in order. */
  readonly summary: readonly string[];
}

/** The verdict as a view shows it: the findings and counters, without the row of every event. */
export type VerdictView = Omit<Verdict, 'events'>;
