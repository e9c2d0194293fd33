/**
 * Facts: what actors observed and did, recorded on the trace step where it happened. Narration,
 * the verdict, the invariants and the readiness checklist are all computed from facts.
 */
import type { ControlType, Headers, RecordBatch, RecordOrigin } from '../log/recordBatch';
import type { ClientException, KafkaError } from '../protocol/errors';

export type Fact =
  /** The leader appended a batch (data or a transaction marker). */
  | {
      kind: 'append';
      topic: string;
      partition: number;
      baseOffset: number;
      lastOffset: number;
      producerId: number;
      producerEpoch: number;
      baseSequence: number;
      lastSequence: number;
      transactional: boolean;
      control: ControlType | null;
      eventIds: readonly (string | null)[];
      /** The send() each record came from (client, ref), for telling retries from resends. */
      origins: readonly (RecordOrigin | null)[];
      /**
       * Replicated partitions only: the leader epoch the batch was written in (its partitionLeaderEpoch).
       * An offset and its epoch name one append on every replica (a deposed leader's append at an offset
       * the new leader writes again carries the older epoch).
       */
      leaderEpoch?: number;
    }
  /** The leader recognised a retried batch and appended nothing. */
  | {
      kind: 'duplicate';
      topic: string;
      partition: number;
      producerId: number;
      producerEpoch: number;
      baseSequence: number;
      lastSequence: number;
      baseOffset: number;
    }
  /** The leader refused a batch. */
  | {
      kind: 'rejected';
      topic: string;
      partition: number;
      producerId: number;
      producerEpoch: number;
      baseSequence: number;
      error: KafkaError;
      reason: string;
    }
  /** A client saw an error (a Kafka error code or a client-side exception). */
  | { kind: 'clientError'; client: string; error: KafkaError | ClientException; during: string; fatal: boolean }
  /** How a client's configuration was resolved (e.g. idempotence silently disabled). */
  | { kind: 'config'; client: string; level: 'info' | 'warn'; message: string }
  /** A producer got a producer id / epoch. */
  | { kind: 'producerId'; client: string; producerId: number; producerEpoch: number; transactionalId: string | null }
  /** A producer's send was acknowledged (or failed) — one fact per record. */
  | {
      kind: 'sendResult';
      client: string;
      ref: number;
      topic: string;
      partition: number;
      offset: number | null;
      error: KafkaError | ClientException | null;
      eventId: string | null;
      /**
       * The record failed inside send() before it reached the accumulator (KafkaProducer.doSend's
       * catch: waitOnMetadata gave up after max.block.ms, the record is larger than max.request.size):
       * it never left the producer. Absent otherwise.
       */
      beforeAppend?: true;
      /** Kafka's exception message, where the model gives one (a forced close: "Producer is closed forcefully."). Absent otherwise. */
      message?: string;
    }
  /** A consumer's poll returned a record to the application. */
  | {
      kind: 'delivered';
      consumer: string;
      groupId: string | null;
      isolationLevel: string;
      topic: string;
      partition: number;
      offset: number;
      key: string | null;
      value: string | null;
      headers: Headers;
    }
  /** A read_committed consumer skipped an aborted batch or a marker (its position still moves). */
  | {
      kind: 'skipped';
      consumer: string;
      topic: string;
      partition: number;
      baseOffset: number;
      lastOffset: number;
      reason: 'aborted' | 'control';
    }
  /** The application's processing function ran on a record. */
  | { kind: 'processed'; app: string; topic: string; partition: number; offset: number; eventId: string | null; key: string | null }
  /** A side effect outside Kafka (a database row, an API call) took effect. */
  | { kind: 'sideEffect'; sink: string; effect: string; eventId: string | null; app: string; applied: boolean; note: string }
  /** A transaction coordinator state transition. */
  | { kind: 'txnState'; transactionalId: string; producerId: number; producerEpoch: number; from: string; to: string }
  /** A group's committed offsets changed (OffsetCommit, or a TxnOffsetCommit materialised by a COMMIT marker). */
  | {
      kind: 'offsetsCommitted';
      groupId: string;
      generationId: number;
      /** `committedLeaderEpoch`: the epoch the commit carried (OffsetCommitValue.leaderEpoch), absent for none. */
      offsets: readonly { topic: string; partition: number; offset: number; committedLeaderEpoch?: number }[];
      transactional: boolean;
      /** An operator's kafka-consumer-groups --reset-offsets set them (coordinator/offsetReset.ts). */
      operatorReset?: true;
    }
  /** The group rebalanced. */
  | { kind: 'rebalance'; groupId: string; generationId: number; members: readonly string[]; reason: string }
  /**
   * A static member (group.instance.id) joined without a member id and took the place of the member
   * its instance id was mapped to (ClassicGroup.replaceStaticMember): in a Stable group without a
   * rebalance (the generation stays), in CompletingRebalance with one, in PreparingRebalance within
   * the rebalance under way. The old member id is fenced from then on (FENCED_INSTANCE_ID).
   */
  | {
      kind: 'staticMemberReplaced';
      groupId: string;
      groupInstanceId: string;
      oldMemberId: string;
      newMemberId: string;
      generationId: number;
      state: 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable' | 'Dead';
    }
  /** The log cleaner compacted a partition: `removed` data records and (when any) `markers` transaction markers went. */
  | {
      kind: 'cleaned';
      topic: string;
      partition: number;
      removed: number;
      cleanedUpTo: number;
      markers?: number;
      /** Of `removed`: records of aborted transactions, and tombstones past their delete horizon (when any). */
      aborted?: number;
      tombstones?: number;
    }
  /**
   * A broker's PeriodicProducerExpirationCheck dropped producers idle for `producer.id.expiration.ms`
   * from its copy of a partition (ProducerStateManager.removeExpiredProducers): their epoch and
   * sequences are forgotten there. The same run drops transaction verification entries created at least
   * that long ago (`verifications`, present when any; `producers` may then be empty).
   */
  | {
      kind: 'producerStateExpired';
      broker: string;
      topic: string;
      partition: number;
      producers: readonly { producerId: number; producerEpoch: number; lastTimestamp: number }[];
      verifications?: readonly { producerId: number; producerEpoch: number; createdAt: number }[];
      expirationMs: number;
    }
  /**
   * A broker rebuilt a partition's producer state from its latest snapshot (`snapshotOffset`, null:
   * none) and the batches from `replayedFrom` (UnifiedLog.rebuildProducerState) — at a `restart`
   * (LogLoader.load) or after a `truncation` (UnifiedLog.truncateTo) — and it differs from the state
   * the broker had (a restart) or a replay of the whole log would give (a truncation): `dropped` —
   * left out as idle for `expirationMs` (loadFromSnapshot filters isProducerExpired); `restored` —
   * dropped by an expiration check, back from a batch still in the log (a restart); `lastBatchOnly` —
   * loaded from the snapshot, which keeps one batch per producer, so only a retry of that batch is
   * recognised. Emitted only when one is non-empty.
   */
  | {
      kind: 'producerStateLoaded';
      /** cleanRestart: a restart after a clean (controlled) shutdown, which recovers nothing. */
      cause: 'restart' | 'cleanRestart' | 'truncation';
      broker: string;
      topic: string;
      partition: number;
      snapshotOffset: number | null;
      replayedFrom: number;
      dropped: readonly { producerId: number; producerEpoch: number; lastTimestamp: number }[];
      restored: readonly { producerId: number; producerEpoch: number; lastTimestamp: number }[];
      lastBatchOnly: readonly { producerId: number; producerEpoch: number; lastTimestamp: number }[];
      expirationMs: number;
    }
  /**
   * A replica cut records from its log to follow a new leader (UnifiedLog.truncateTo on a
   * DivergingEpoch): offsets [fromOffset, toOffset) are gone from `broker`'s copy.
   */
  | {
      kind: 'truncated';
      broker: string;
      topic: string;
      partition: number;
      fromOffset: number;
      toOffset: number;
      leaderEpoch: number;
      eventIds: readonly (string | null)[];
      /** The replica's high watermark before the cut: records below it had been committed. */
      highWatermark: number;
      /** The batches cut (the first may start below fromOffset), for the log view's struck-through cells. */
      batches: readonly RecordBatch[];
    }
  /**
   * A broker stopped at the end of its controlled shutdown, its logs closed cleanly: the controller
   * granted it (`granted`), the wait for that ran out (`timedOut`), or there was nothing to move (no
   * replication: `unreplicated`). `notRegistered`: a restarted broker not registered yet (not
   * RUNNING) skips the controlled shutdown and stops at once, its logs not closed (its next start
   * recovers them). It restarts `restartAfterMs` later (null: it stays down).
   */
  | {
      kind: 'brokerStopped';
      broker: string;
      reason: 'granted' | 'timedOut' | 'unreplicated' | 'notRegistered';
      restartAfterMs: number | null;
    }
  /** The controller changed a partition's leader (an election, or no leader: offline). */
  | {
      kind: 'leaderChange';
      topic: string;
      partition: number;
      leader: string | null;
      leaderEpoch: number;
      isr: readonly string[];
      election: 'clean' | 'unclean' | 'preferred' | null;
    }
  /**
   * An operator's `kafka-transactions.sh abort --topic t --partition p --start-offset N`
   * (broker/operatorAbort.ts) at the partition's leader `broker` (or, with no leader, the broker that
   * reports it): the transaction found (`spec`: its producerId, epoch, coordinator epoch; null: none),
   * where its ABORT marker went (null: nothing written), and what the tool printed when it failed
   * (null: it aborted). The transaction coordinator is not told.
   */
  | {
      kind: 'operatorAbort';
      broker: string;
      topic: string;
      partition: number;
      startOffset: number;
      spec: { producerId: number; producerEpoch: number; coordinatorEpoch: number } | null;
      markerOffset: number | null;
      printed: string | null;
      /**
       * Why it failed: no leader, a leader that accepts no connection (down, or not yet unfenced after
       * a restart: the admin client timed out), no open transaction at N, or the leader's error for
       * the marker (null: it aborted).
       */
      failure: 'no-leader' | 'leader-unreachable' | 'no-open-transaction' | KafkaError | null;
      /** leader-unreachable: the broker the admin client could not connect to. */
      unreachable?: string;
    }
  /** Anything else worth a sentence in the narration. */
  | { kind: 'note'; actor: string; text: string };

export type FactKind = Fact['kind'];

/** The append fact of a transaction marker (COMMIT or ABORT) the leader wrote at `baseOffset..lastOffset`. */
export function markerAppendFact(
  tp: { readonly topic: string; readonly partition: number },
  at: { readonly baseOffset: number; readonly lastOffset: number },
  marker: { readonly producerId: number; readonly producerEpoch: number; readonly result: ControlType },
  leaderEpoch: number | null = null,
): Fact {
  return {
    kind: 'append',
    topic: tp.topic,
    partition: tp.partition,
    baseOffset: at.baseOffset,
    lastOffset: at.lastOffset,
    producerId: marker.producerId,
    producerEpoch: marker.producerEpoch,
    baseSequence: -1,
    lastSequence: -1,
    transactional: true,
    control: marker.result,
    eventIds: [],
    origins: [],
    ...(leaderEpoch === null ? {} : { leaderEpoch }),
  };
}
