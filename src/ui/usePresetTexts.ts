/**
 * The shipped presets' Korean title, question and expected outcome are loaded only when the page
 * speaks Korean: they are a sizeable table that an English reader never needs, and the initial
 * JavaScript has a budget. Until they arrive a preset shows its English words.
 */
import { useEffect, useState } from 'react';
import { type PresetText, type ScenarioTexts, type ScenarioWords, scenarioTexts } from '../sim';
import type { Language } from '../store/simStore';

type Table = Readonly<Record<string, PresetText>>;

let loaded: Table | null = null;
let loading: Promise<Table> | null = null;

export function loadPresetTextsKo(): Promise<Table> {
  loading ??= import('../sim/presets/ko').then((m) => {
    loaded = m.PRESET_TEXT_KO;
    return loaded;
  });
  return loading;
}

/** The Korean table if it has loaded, else null (for code outside React). */
export function presetTextsKoIfLoaded(): Table | null {
  return loaded;
}

/** The Korean table while the page speaks Korean and once it has loaded; null otherwise. */
export function usePresetTextsKo(language: Language): Table | null {
  const [table, setTable] = useState<Table | null>(loaded);
  useEffect(() => {
    if (language !== 'ko' || table) return;
    let live = true;
    void loadPresetTextsKo().then((t) => {
      if (live) setTable(t);
    });
    return () => {
      live = false;
    };
  }, [language, table]);
  return language === 'ko' ? table : null;
}

/** A scenario's title, question and expected outcome in the page's language (see scenarioTexts). */
export function useScenarioTexts(scenario: ScenarioWords, language: Language): ScenarioTexts;
export function useScenarioTexts(scenario: ScenarioWords | null | undefined, language: Language): ScenarioTexts | null;
export function useScenarioTexts(scenario: ScenarioWords | null | undefined, language: Language): ScenarioTexts | null {
  const korean = usePresetTextsKo(language);
  return scenario ? scenarioTexts(scenario, language, korean) : null;
}
