/**
 * The scenarios shipped with the app. Each is a scenario file (JSON) with a title, the question it
 * answers and the expected outcome; tests assert each outcome against the engine's output.
 */
import type { Scenario } from '../scenario/schema';
import openingStory from './opening-story.json';

export interface Preset {
  readonly id: string;
  readonly title: string;
  readonly question: string;
  readonly expected: string;
  readonly scenario: Scenario;
}

const all: unknown[] = [openingStory];

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
