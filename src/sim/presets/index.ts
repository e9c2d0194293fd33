/**
 * The scenarios shipped with the app. Each is a scenario file (JSON) with a title, the question it
 * answers, the expected outcome in words (`expected`) and as data (`expectedVerdict`: the verdict
 * finding by finding); tests assert both against the engine's output. The expected verdict stays in
 * the preset: the scenario a preset runs (and a share link carries) leaves it out.
 */
import { type ExpectedFinding, type Scenario, withoutPresetFields } from '../scenario/schema';
import abortHiddenFromReadCommitted from './abort-hidden-from-read-committed.json';
import acks0Loss from './acks-0-loss.json';
import acks1LeaderFailoverLoss from './acks-1-leader-failover-loss.json';
import apiIdempotencyKey from './api-idempotency-key.json';
import apiLookupBeforeRetry from './api-lookup-before-retry.json';
import apiLostResponse from './api-lost-response.json';
import appResend from './app-resend.json';
import atLeastOnceConsumerCrash from './at-least-once-consumer-crash.json';
import atMostOnceConsumerCrash from './at-most-once-consumer-crash.json';
import autoCommitPitfall from './auto-commit-pitfall.json';
import businessIdIsNotTransactionalId from './business-id-is-not-transactional-id.json';
import commitLastInsteadOfNext from './commit-last-instead-of-next.json';
import commitTwoPartitions from './commit-two-partitions.json';
import compactionErasesEvents from './compaction-erases-events.json';
import compactionIsNotDedup from './compaction-is-not-dedup.json';
import coordinatorFailoverMidCommit from './coordinator-failover-mid-commit.json';
import counterSetVsIncr from './counter-set-vs-incr.json';
import ctpExactlyOnceCrash from './ctp-exactly-once-crash.json';
import ctpWithoutTransactionsCrash from './ctp-without-transactions-crash.json';
import dbSinkDuplicate from './db-sink-duplicate.json';
import dbSinkInbox from './db-sink-inbox.json';
import dbSinkOffsetsInDb from './db-sink-offsets-in-db.json';
import dbSinkUpsert from './db-sink-upsert.json';
import deliveryTimeoutWritten from './delivery-timeout-written.json';
import eosAutoCommitRebalance from './eos-auto-commit-rebalance.json';
import epochBumpDuplicate from './epoch-bump-duplicate.json';
import hangingTransaction from './hanging-transaction.json';
import hwBehindLeoSlowFollower from './hw-behind-leo-slow-follower.json';
import idempotenceSurvivesFailover from './idempotence-survives-failover.json';
import lateDuplicateAfterExpiry from './late-duplicate-after-expiry.json';
import lostAckIdempotent from './lost-ack-idempotent.json';
import lostAckNoIdempotence from './lost-ack-no-idempotence.json';
import minInsyncBlocksWrites from './min-insync-blocks-writes.json';
import offsetResetReplaysOutput from './offset-reset-replays-output.json';
import openTransactionPinsLso from './open-transaction-pins-lso.json';
import openingStory from './opening-story.json';
import outboxCdc from './outbox-cdc.json';
import producerCloseTimeoutZero from './producer-close-timeout-zero.json';
import producerRestartNewPid from './producer-restart-new-pid.json';
import producerStateExpired from './producer-state-expired.json';
import rebalanceZombieFenced from './rebalance-zombie-fenced.json';
import rekeyByEventId from './rekey-by-event-id.json';
import retryMintsNewEventId from './retry-mints-new-event-id.json';
import rollingRestartAcks1 from './rolling-restart-acks-1.json';
import samePayloadTwiceInOneTransaction from './same-payload-twice-in-one-transaction.json';
import sequenceGap from './sequence-gap.json';
import streamsAlosCrashDuplicate from './streams-alos-crash-duplicate.json';
import streamsEosCrashRestore from './streams-eos-crash-restore.json';
import streamsEosRepartition from './streams-eos-repartition.json';
import streamsTaskMigration from './streams-task-migration.json';
import throughputAtLeastOnce from './throughput-at-least-once.json';
import throughputExactlyOnce from './throughput-exactly-once.json';
import transactionStateUnderReplicated from './transaction-state-under-replicated.json';
import transactionTimeout from './transaction-timeout.json';
import transactionalIdExpired from './transactional-id-expired.json';
import uncleanElectionLosesCommitted from './unclean-election-loses-committed.json';
import upstreamDuplicateEventId from './upstream-duplicate-event-id.json';
import zombieFencing from './zombie-fencing.json';

export interface Preset {
  readonly id: string;
  readonly title: string;
  readonly question: string;
  readonly expected: string;
  /** The verdict this preset must end with, finding by finding. */
  readonly expectedVerdict: readonly ExpectedFinding[];
  readonly scenario: Scenario;
}

const all: unknown[] = [
  openingStory,
  lostAckIdempotent,
  lostAckNoIdempotence,
  appResend,
  producerRestartNewPid,
  sequenceGap,
  acks0Loss,
  compactionIsNotDedup,
  commitTwoPartitions,
  abortHiddenFromReadCommitted,
  openTransactionPinsLso,
  transactionTimeout,
  zombieFencing,
  samePayloadTwiceInOneTransaction,
  coordinatorFailoverMidCommit,
  hangingTransaction,
  atMostOnceConsumerCrash,
  atLeastOnceConsumerCrash,
  ctpWithoutTransactionsCrash,
  ctpExactlyOnceCrash,
  commitLastInsteadOfNext,
  autoCommitPitfall,
  dbSinkDuplicate,
  dbSinkInbox,
  dbSinkOffsetsInDb,
  apiLostResponse,
  apiIdempotencyKey,
  rebalanceZombieFenced,
  streamsEosCrashRestore,
  streamsAlosCrashDuplicate,
  streamsEosRepartition,
  upstreamDuplicateEventId,
  outboxCdc,
  // the syllabus: every item of the seed articles, runnable
  dbSinkUpsert,
  apiLookupBeforeRetry,
  counterSetVsIncr,
  lateDuplicateAfterExpiry,
  retryMintsNewEventId,
  businessIdIsNotTransactionalId,
  rekeyByEventId,
  compactionErasesEvents,
  eosAutoCommitRebalance,
  streamsTaskMigration,
  // an operator's kafka-consumer-groups --reset-offsets: outside every guarantee's boundary
  offsetResetReplaysOutput,
  // [your-data] what a guarantee costs: the same pipeline without and with transactions
  throughputAtLeastOnce,
  throughputExactlyOnce,
  // [replication] three brokers, replication factor 3
  minInsyncBlocksWrites,
  acks1LeaderFailoverLoss,
  idempotenceSurvivesFailover,
  hwBehindLeoSlowFollower,
  // [replication] two brokers, replication factor 2, unclean.leader.election.enable=true
  uncleanElectionLosesCommitted,
  transactionStateUnderReplicated,
  // the idempotent producer's limit: an epoch bump rewrites a batch whose first copy is already in the log
  epochBumpDuplicate,
  // and its memory: producer.id.expiration.ms shorter than a retry
  producerStateExpired,
  // close(Duration) that runs out: a forced close fails records the broker wrote
  producerCloseTimeoutZero,
  // a send() told TimeoutException (delivery.timeout.ms) whose record the broker had written
  deliveryTimeoutWritten,
  // a rolling restart (controlled shutdowns): acks=all keeps every write, acks=1 loses the leader's last one
  rollingRestartAcks1,
  // the coordinator's memory: transactional.id.expiration.ms shorter than a producer's idle time
  transactionalIdExpired,
];

export const PRESETS: readonly Preset[] = /* @__PURE__ */ all.map((raw) => {
  const file = raw as Scenario;
  const scenario = withoutPresetFields(file);
  return {
    id: scenario.id ?? '',
    title: scenario.title ?? '',
    question: scenario.question ?? '',
    expected: scenario.expected ?? '',
    expectedVerdict: file.expectedVerdict ?? [],
    scenario,
  };
});

export { DEFAULT_PRESET_ID } from './defaultId';

export function findPreset(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}

/**
 * What an error about an unknown preset id shows: the id as typed (cut at 40 characters, it may come
 * from a URL) and three ids that do exist, for the page's `#preset=` links and the embed's lookups alike.
 */
export function unknownPresetHint(id: string): { readonly shown: string; readonly examples: string } {
  return {
    shown: id.length > 40 ? `${id.slice(0, 40)}…` : id,
    examples: PRESETS.slice(0, 3)
      .map((p) => p.id)
      .join(', '),
  };
}
