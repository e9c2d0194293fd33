/**
 * The readiness checklist for the scenario on screen, as of the step on screen (evaluateChecklist):
 * each answer pass / fail / not applicable / not yet, with its reason. Answers that rest on what the
 * run did are final only at its end, so the panel says which step it speaks for. A failure links to
 * another preset that shows what goes wrong, says that this scenario shows it, or — when no shipped
 * preset does — what one would show. The replication answer lists its parts (user topics,
 * min.insync.replicas and acks, unclean election, the internal topics) each with its own status.
 */
import { useId, useMemo } from 'react';
import { findPreset, scenarioTexts } from '../../sim';
import { evaluateChecklist } from '../../sim/views';
import { simStore } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { useStrings } from '../i18n';
import { usePresetTextsKo } from '../usePresetTexts';
import { useThrottled } from '../useThrottled';

const GLYPH = { pass: '✓', fail: '✗', 'not-applicable': '–', pending: '…' } as const;

export function ChecklistPanel() {
  const titleId = useId();
  const t = useStrings();
  const trace = useSim((s) => s.trace);
  const language = useSim((s) => s.language);
  const playing = useSim((s) => s.playing);
  const liveView = useSim((s) => s.view);
  // while a run plays, follow it a few times a second, not on every frame
  const view = useThrottled(liveView, 250, playing);
  const items = useMemo(() => (trace && view ? evaluateChecklist(trace, language, view.step, view) : []), [trace, view, language]);
  // a linked preset is named by its title in the page's language, not by its id
  const korean = usePresetTextsKo(language);
  if (!trace || !view) return null;
  const total = trace.steps.length;
  const label = { pass: t.pass, fail: t.fail, 'not-applicable': t.notApplicable, pending: t.pending };
  return (
    <section className="checklist-panel" aria-labelledby={titleId} data-testid="checklist" data-step={view.step}>
      <h2 id={titleId}>{t.checklist}</h2>
      <p className="muted">{t.checklistIntro}</p>
      <p className="checklist-as-of" data-testid="checklist-as-of">
        {view.step >= total ? t.checklistAtEnd(total) : t.checklistAsOf(view.step, total)}
      </p>
      <ol className="checklist">
        {items.map((item) => {
          const preset = item.preset ? findPreset(item.preset) : undefined;
          const presetTexts = preset ? scenarioTexts(preset.scenario, language, korean) : null;
          return (
            <li key={item.id} data-check={item.id} data-status={item.status} data-basis={item.basis} className={`check ${item.status}`}>
              <p className="check-question">
                <span className="glyph" aria-hidden="true">
                  {GLYPH[item.status]}
                </span>{' '}
                <span className="check-status">{label[item.status]}</span> {item.question}
              </p>
              <p className="check-reason">{item.reason}</p>
              {item.parts && (
                // the replication question's parts: user topics, min.insync.replicas and acks, unclean election, internal topics
                <ul className="check-parts">
                  {item.parts.map((part) => (
                    <li key={part.id} data-part={part.id} data-status={part.status} className={`check-part ${part.status}`}>
                      <span className="glyph" aria-hidden="true">
                        {GLYPH[part.status]}
                      </span>{' '}
                      <span className="check-status">{label[part.status]}</span> {part.reason}
                    </li>
                  ))}
                </ul>
              )}
              {item.showsHere && <p className="muted shows-here">{t.showsHere}</p>}
              {item.wouldShow && <p className="muted would-show">{item.wouldShow}</p>}
              {item.preset &&
                (preset ? (
                  <button
                    type="button"
                    className="preset-link"
                    data-preset={preset.id}
                    onClick={() => simStore.getState().load(preset.scenario)}
                  >
                    {t.openPreset(presetTexts?.title || preset.id)}
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
