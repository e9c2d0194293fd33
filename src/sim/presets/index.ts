/**
 * The scenarios shipped with the app. Each is a scenario file (JSON) with a title, the question it
 * answers and the expected outcome; tests assert each outcome against the engine's output.
 */
import type { Scenario } from '../scenario/schema';
import abortHiddenFromReadCommitted from './abort-hidden-from-read-committed.json';
import acks0Loss from './acks-0-loss.json';
import appResend from './app-resend.json';
import commitTwoPartitions from './commit-two-partitions.json';
import compactionIsNotDedup from './compaction-is-not-dedup.json';
import coordinatorFailoverMidCommit from './coordinator-failover-mid-commit.json';
import hangingTransaction from './hanging-transaction.json';
import lostAckIdempotent from './lost-ack-idempotent.json';
import lostAckNoIdempotence from './lost-ack-no-idempotence.json';
import openTransactionPinsLso from './open-transaction-pins-lso.json';
import openingStory from './opening-story.json';
import producerRestartNewPid from './producer-restart-new-pid.json';
import samePayloadTwiceInOneTransaction from './same-payload-twice-in-one-transaction.json';
import sequenceGap from './sequence-gap.json';
import transactionTimeout from './transaction-timeout.json';
import zombieFencing from './zombie-fencing.json';

export interface Preset {
  readonly id: string;
  readonly title: string;
  readonly question: string;
  readonly expected: string;
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
];

export const PRESETS: readonly Preset[] = all.map((raw) => {
  const scenario = raw as Scenario;
  return {
    id: scenario.id ?? '',
    title: scenario.title ?? '',
    question: scenario.question ?? '',
    expected: scenario.expected ?? '',
    scenario,
  };
});

export const DEFAULT_PRESET_ID = 'opening-story';

export function findPreset(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}
