/**
 * The title, question and expected outcome to show for a scenario in the reader's language. A shipped
 * preset's own words are swapped for its Korean ones only while the scenario still carries the
 * preset's English words: a title the user edited, or a file or link with other words under a preset's
 * id, is shown as it is. The result is plain strings, for the UI to render as text.
 */
import type { Language } from '../narration/language';
import { findPreset } from './index';
import type { PresetText } from './ko';

export interface ScenarioWords {
  readonly id?: string;
  readonly title?: string;
  readonly question?: string;
  readonly expected?: string;
}

export interface ScenarioTexts {
  readonly title: string | undefined;
  readonly question: string | undefined;
  readonly expected: string | undefined;
  /** The language the texts are known to be in: a preset's English or Korean; null for the scenario's own words. */
  readonly language: Language | null;
}

/**
 * `korean` is the table of Korean preset texts (src/sim/presets/ko.ts), passed in so that the page can
 * load it only when it speaks Korean; without it a preset shows its English words.
 */
export function scenarioTexts(
  scenario: ScenarioWords,
  language: Language,
  korean: Readonly<Record<string, PresetText>> | null,
): ScenarioTexts {
  const own = { title: scenario.title, question: scenario.question, expected: scenario.expected };
  const preset = scenario.id === undefined ? undefined : findPreset(scenario.id);
  const unedited =
    preset !== undefined &&
    (scenario.title ?? '') === preset.title &&
    (scenario.question ?? '') === preset.question &&
    (scenario.expected ?? '') === preset.expected;
  if (!unedited) return { ...own, language: null };
  const ko = language === 'ko' ? korean?.[preset.id] : undefined;
  return ko ? { ...ko, language: 'ko' } : { ...own, language: 'en' };
}
