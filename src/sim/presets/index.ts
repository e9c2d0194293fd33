/**
 * The scenarios shipped with the app. Each is a scenario file (JSON) with a title, the question it
 * answers and the expected outcome; tests assert each outcome against the engine's output.
 */
import type { Scenario } from '../scenario/schema';
import acks0Loss from './acks-0-loss.json';
import appResend from './app-resend.json';
import compactionIsNotDedup from './compaction-is-not-dedup.json';
import lostAckIdempotent from './lost-ack-idempotent.json';
import lostAckNoIdempotence from './lost-ack-no-idempotence.json';
import openingStory from './opening-story.json';
import producerRestartNewPid from './producer-restart-new-pid.json';
import sequenceGap from './sequence-gap.json';

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
