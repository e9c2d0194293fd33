/**
 * Drop, delay or duplicate one envelope, or reset the connection it travels on — only while it is in flight at the current step
 * (`view.inFlight`); otherwise it says why not.
 *
 * Props: `envelopeId` — an id from `trace.envelopes` (a Selection of kind 'envelope');
 * `onReport` (optional) — told the outcome of an injection (the run forks, and the selection is
 * cleared, so the parent shows the confirmation).
 */
import { useState } from 'react';
import { envelopeStatus, injectEnvelopeFault } from '../../sim';
import { useSim } from '../../store/useSim';
import { useNarrator } from '../useNarrator';
import { ActionRow } from './ActionRow';
import type { InjectionReport } from './applyEdit';
import { MsInput } from './MsInput';
import { Refusal } from './Refusal';
import { useInjectStrings } from './strings';
import { useInjection } from './useInjection';

export interface EnvelopeActionsProps {
  readonly envelopeId: number;
  readonly onReport?: InjectionReport;
}

export function EnvelopeActions({ envelopeId, onReport }: EnvelopeActionsProps) {
  const t = useInjectStrings();
  const trace = useSim((s) => s.trace);
  const view = useSim((s) => s.view);
  const step = useSim((s) => s.step);
  const language = useSim((s) => s.language);
  // the envelope's fault is the trace's English label: said in the page's language, as the timeline says it
  const narrator = useNarrator();
  const [delayMs, setDelayMs] = useState(1000);
  const { run, refusal } = useInjection(onReport);
  const env = trace?.envelopes.at(envelopeId);
  if (!trace || !view) return null;
  if (!env) return <p className="hint">{t.notInFlight.unknown}</p>;
  const inFlight = view.inFlight.some((e) => e.id === envelopeId);
  const status = envelopeStatus(trace, envelopeId, step);
  return (
    <div className="envelope-actions" data-testid="envelope-actions">
      <h3>{t.envelopeHeading(env.id, env.rpc)}</h3>
      <p>
        {t.envelopeRoute(env.from, env.to)}
        {env.fault ? ` · ${narrator ? narrator.envelopeFaultText(trace, env.fault, language) : env.fault}` : ''}
      </p>
      {inFlight ? (
        <>
          <p className="hint">{t.envelopeExplain}</p>
          <ActionRow
            label={t.drop}
            hint={t.dropHint}
            onClick={() => run((s, at) => injectEnvelopeFault(s, { ...at, envelopeId, action: { type: 'drop' } }))}
          />
          <ActionRow
            label={t.delay}
            hint={t.delayHint}
            onClick={() => run((s, at) => injectEnvelopeFault(s, { ...at, envelopeId, action: { type: 'delay', delayMs } }))}
          >
            <MsInput label={t.delayBy} value={delayMs} onChange={setDelayMs} unit={t.ms} />
          </ActionRow>
          <ActionRow
            label={t.duplicate}
            hint={t.duplicateHint}
            onClick={() => run((s, at) => injectEnvelopeFault(s, { ...at, envelopeId, action: { type: 'duplicate' } }))}
          />
          <ActionRow
            label={t.reset}
            hint={t.resetHint}
            onClick={() => run((s, at) => injectEnvelopeFault(s, { ...at, envelopeId, action: { type: 'reset' } }))}
          />
        </>
      ) : (
        <p className="hint" data-testid="not-in-flight">
          {t.notInFlight[status === 'in-flight' ? 'unknown' : status]}
        </p>
      )}
      <Refusal text={refusal} />
    </div>
  );
}
