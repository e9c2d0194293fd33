/** Runs an edit; reports success upwards and keeps a refusal to show in place. */
import { useState } from 'react';
import { simStore } from '../../store/simStore';
import { applyEdit, type InjectionReport, type ScenarioEdit } from './applyEdit';
import { refusalText, useInjectStrings } from './strings';

export function useInjection(onReport?: InjectionReport): { run: (edit: ScenarioEdit) => void; refusal: string | null } {
  const t = useInjectStrings();
  const [refusal, setRefusal] = useState<string | null>(null);
  const run = (edit: ScenarioEdit) => {
    const step = simStore.getState().step;
    const outcome = applyEdit(edit);
    if (!outcome) return;
    setRefusal(outcome.ok ? null : refusalText(t, outcome.code, outcome.reason));
    onReport?.(outcome, step);
  };
  return { run, refusal };
}
