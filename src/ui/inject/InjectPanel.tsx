/**
 * Failure injection for the current step: what is in flight, the actions for the current selection
 * (an envelope, a process, a record), a process picker, the log cleaner and the scenario's faults.
 * Every action writes itself into the scenario and forks the run (the store's `fork`).
 *
 * Props: `heading` (default true) — false where the container already names it (the phone sheet's
 * own heading), so the title is not shown twice. Everything else it reads from the store. The page
 * places it in its details panel.
 */
import { useId, useState } from 'react';
import type { EditOutcome, Scenario } from '../../sim';
import { processOf } from '../../sim/views';
import { simStore } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { useStrings } from '../i18n';
import { useNarrator } from '../useNarrator';
import { ActorActions } from './ActorActions';
import { CleanerActions } from './CleanerActions';
import { EnvelopeActions } from './EnvelopeActions';
import { InFlightList } from './InFlightList';
import { InjectedFaults } from './InjectedFaults';
import { OffsetResetActions } from './OffsetResetActions';
import { RecordActions } from './RecordActions';
import { useInjectStrings, withoutInjectedStep } from './strings';
import './inject.css';

export function InjectPanel({ heading = true }: { readonly heading?: boolean } = {}) {
  const t = useInjectStrings();
  const kinds = useStrings().kinds;
  const selection = useSim((s) => s.selection);
  const trace = useSim((s) => s.trace);
  const processes = trace?.built.processes ?? [];
  const language = useSim((s) => s.language);
  const narrator = useNarrator();
  // the confirmation in the page's language (the engine writes it in English)
  const editNote = (tr: NonNullable<typeof trace>, note: string) => (narrator ? narrator.translateEditNote(tr, note, language) : note);
  const scenario = useSim((s) => s.scenario);
  // "you are still at step N" only while the reader is
  const step = useSim((s) => s.step);
  // the confirmation belongs to the scenario the injection made; any later change replaces it
  const [done, setDone] = useState<{ note: string; step: number; scenario: Scenario | null } | null>(null);
  const pickId = useId();
  const onReport = (outcome: EditOutcome, step: number) =>
    setDone(outcome.ok ? { note: outcome.note, step, scenario: simStore.getState().scenario } : null);
  const pickedProcess = selection?.kind === 'actor' ? processOf(selection.id) : '';
  return (
    <div className="inject-panel">
      {heading && <h2>{t.title}</h2>}
      <p className="hint">{t.forkNote}</p>
      <p aria-live="polite" className="inject-status" data-testid="inject-status">
        {done && done.scenario === scenario && trace
          ? (done.step === step ? t.injected : t.injectedAt)(withoutInjectedStep(editNote(trace, done.note)), done.step)
          : ''}
      </p>
      <InFlightList />
      {selection?.kind === 'envelope' && <EnvelopeActions envelopeId={selection.id} onReport={onReport} />}
      {selection?.kind === 'record' && (
        <RecordActions topic={selection.topic} partition={selection.partition} offset={selection.offset} onReport={onReport} />
      )}
      <div className="process-pick">
        <h3>{t.processHeading}</h3>
        <label htmlFor={pickId}>{t.processPick}</label>{' '}
        <select
          id={pickId}
          value={pickedProcess}
          onChange={(e) => simStore.getState().select(e.currentTarget.value ? { kind: 'actor', id: e.currentTarget.value } : null)}
        >
          <option value="">—</option>
          {processes.map((p) => (
            <option key={p.id} value={p.id}>
              {p.id} ({kinds[p.kind] ?? p.kind})
            </option>
          ))}
        </select>
      </div>
      {selection?.kind === 'actor' && <ActorActions actorId={selection.id} onReport={onReport} />}
      <CleanerActions onReport={onReport} />
      <OffsetResetActions onReport={onReport} />
      <InjectedFaults onReport={onReport} />
    </div>
  );
}
