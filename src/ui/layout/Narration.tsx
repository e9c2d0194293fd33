/** The narration line: what the step on screen did and why, in the chosen language. */

import { type RefObject, useLayoutEffect, useMemo, useRef } from 'react';
import { groupDigits } from '../../sim/views';
import { useSim } from '../../store/useSim';
import { useStrings } from '../i18n';
import { useNarrator } from '../useNarrator';
import { useScenarioTexts } from '../usePresetTexts';
import { useThrottled } from '../useThrottled';

/**
 * Keeps the element at the tallest height it has had since the run or the language last changed, at its current width:
 * on a phone the narration is as tall as its sentence, and following each one moved the timeline
 * below it up and down at every step while the run played. It grows when a sentence needs more room
 * than any before; a new run, another language or another width starts from the sentence's own height.
 * (On a wide screen the box has a fixed height, which this leaves as it is.)
 */
function useTallestHeight(ref: RefObject<HTMLElement | null>, run: unknown, language: string): void {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    void run; // a new run or language: measured afresh
    void language;
    let tallest = 0;
    let width = -1;
    const measure = () => {
      const w = Math.round(el.getBoundingClientRect().width);
      if (w !== width) {
        width = w;
        tallest = 0;
        el.style.minHeight = '';
      }
      const h = Math.ceil(el.getBoundingClientRect().height);
      if (h <= tallest) return;
      tallest = h;
      // min-height is of the content box unless the box says otherwise
      const cs = getComputedStyle(el);
      const frame =
        cs.boxSizing === 'border-box'
          ? 0
          : Number.parseFloat(cs.paddingTop) +
            Number.parseFloat(cs.paddingBottom) +
            Number.parseFloat(cs.borderTopWidth) +
            Number.parseFloat(cs.borderBottomWidth);
      el.style.minHeight = `${h - frame}px`;
    };
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => {
      observer.disconnect();
      el.style.minHeight = '';
    };
  }, [ref, run, language]);
}

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
  const box = useRef<HTMLElement>(null);
  useTallestHeight(box, trace, language);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the narration box has a fixed height and scrolls when a sentence is long (axe: scrollable-region-focusable)
    <section ref={box} className="narration" aria-label={t.narration} tabIndex={0}>
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
