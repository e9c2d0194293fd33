/** The narration line: what the step on screen did and why, in the chosen language. */

import { useMemo } from 'react';
import { groupDigits } from '../../sim/views';
import { useSim } from '../../store/useSim';
import { useStrings } from '../i18n';
import { useNarrator } from '../useNarrator';
import { useScenarioTexts } from '../usePresetTexts';
import { useThrottled } from '../useThrottled';

export function Narration() {
  const t = useStrings();
  const trace = useSim((s) => s.trace);
  const playing = useSim((s) => s.playing);
  // while playing, a few sentences a second (nobody reads 64 a second; each one may replay payloads)
  const liveStep = useSim((s) => s.step);
  const step = useThrottled(liveStep, 250, playing);
  const language = useSim((s) => s.language);
  const narrator = useNarrator();
  const scenario = useSim((s) => s.scenario);
  // the title as the header shows it: a shipped scenario's Korean title when the page speaks Korean
  const title = useScenarioTexts(scenario, language)?.title;
  const text = useMemo(() => {
    if (!trace || !narrator) return '';
    return step === 0
      ? narrator.narrateStart(trace, language, title ?? trace.scenario.id ?? '')
      : narrator.narrate(trace, step - 1, language);
  }, [trace, step, language, narrator, title]);
  const current = trace && step > 0 ? trace.steps.at(step - 1) : undefined;
  const atEnd = trace !== null && step > 0 && step >= trace.steps.length;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the narration box has a fixed height and scrolls when a sentence is long (axe: scrollable-region-focusable)
    <section className="narration" aria-label={t.narration} tabIndex={0}>
      <p className="narration-meta">
        {current ? `#${step} · ${groupDigits(current.t)} ms · ${current.actor}` : t.startOfRun}
        {current && current.faults.length > 0 && <span className="badge fault">{t.fault}</span>}
      </p>
      {/* announced when a person steps; silent while playing, so a screen reader is not flooded */}
      <p className="narration-text" data-testid="narration" lang={language} aria-live={playing ? 'off' : 'polite'}>
        {text}
      </p>
      {atEnd && trace && narrator && (
        <p className="narration-end" data-testid="narration-end" lang={language}>
          {narrator.narrateEnd(trace, language)}
        </p>
      )}
    </section>
  );
}
