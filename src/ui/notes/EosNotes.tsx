/** The notes panel: the articles' points a run cannot show (versions, no XA, compensation, cost, one broker). */
import { findPreset } from '../../sim';
import type { Language } from '../../store/simStore';
import { compareStore } from '../compare/compareStore';
import { COST_PAIR, EOS_NOTES, NOTES_TEXT } from './eosNotes';

/** Scrolls to this run's cost panel (the side column) and moves the focus to its heading. */
function showRunCost() {
  const heading = document.querySelector<HTMLElement>('[data-testid="cost-panel"] h2');
  if (!heading) return;
  heading.scrollIntoView({ block: 'start' });
  heading.focus({ preventScroll: true });
}

/** Opens the throughput pair side by side: the same work under at-least-once and exactly-once. */
function compareCostPair() {
  const [a, b] = COST_PAIR.map((id) => findPreset(id));
  if (a && b) compareStore.getState().openPair(a.scenario, { scenario: b.scenario });
}

export function EosNotes({ language }: { readonly language: Language }) {
  const t = NOTES_TEXT[language];
  return (
    <details className="model-notes eos-notes" data-testid="eos-notes" lang={language}>
      <summary>{t.summary}</summary>
      <dl>
        {EOS_NOTES.map((n) => (
          <div key={n.id} data-note={n.id}>
            <dt>{n.title[language]}</dt>
            <dd>
              {n.text[language]}
              {n.id === 'cost' && (
                <span className="note-actions">
                  <button type="button" onClick={showRunCost}>
                    {t.runCost}
                  </button>{' '}
                  <button type="button" onClick={compareCostPair} data-testid="compare-cost-pair">
                    {t.comparePair}
                  </button>
                </span>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
