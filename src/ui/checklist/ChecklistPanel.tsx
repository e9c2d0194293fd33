/**
 * The readiness checklist for the scenario on screen (evaluateChecklist, computed once per run and
 * language), each answer pass / fail / not applicable with its reason; a failure links to the
 * preset that shows what goes wrong.
 */
import { useId, useMemo } from 'react';
import { evaluateChecklist } from '../../sim/checks/checklist';
import { findPreset } from '../../sim/presets';
import { summarize } from '../../sim/trace/summary';
import { simStore } from '../../store/simStore';
import { useStrings } from '../i18n';
import { useSim } from '../useSim';

const GLYPH = { pass: '✓', fail: '✗', 'not-applicable': '–' } as const;

export function ChecklistPanel() {
  const titleId = useId();
  const t = useStrings();
  const trace = useSim((s) => s.trace);
  const language = useSim((s) => s.language);
  const summary = useMemo(() => (trace ? summarize(trace) : null), [trace]);
  const items = useMemo(() => (trace && summary ? evaluateChecklist(trace, language, summary) : []), [trace, summary, language]);
  if (!trace) return null;
  const label = { pass: t.pass, fail: t.fail, 'not-applicable': t.notApplicable };
  return (
    <section className="checklist-panel" aria-labelledby={titleId} data-testid="checklist">
      <h2 id={titleId}>{t.checklist}</h2>
      <p className="muted">{t.checklistIntro}</p>
      <ol className="checklist">
        {items.map((item) => {
          const preset = item.preset ? findPreset(item.preset) : undefined;
          return (
            <li key={item.id} data-check={item.id} data-status={item.status} className={`check ${item.status}`}>
              <p className="check-question">
                <span className="glyph" aria-hidden="true">
                  {GLYPH[item.status]}
                </span>{' '}
                <span className="check-status">{label[item.status]}</span> {item.question}
              </p>
              <p className="check-reason">{item.reason}</p>
              {item.preset &&
                (preset ? (
                  <button type="button" className="preset-link" onClick={() => simStore.getState().load(preset.scenario)}>
                    {t.openPreset(item.preset)}
                  </button>
                ) : (
                  <p className="muted preset-missing">{t.presetComing(item.preset)}</p>
                ))}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
