/**
 * The faults the scenario holds (shipped with a preset or injected), each with a button to take it
 * out again — which forks the run like any other edit.
 *
 * Props: `onReport` (optional) — told the outcome of a removal.
 */
import { describeFault, type FaultSpec, removeFault } from '../../sim';
import { useSim } from '../../store/useSim';
import { useNarrator } from '../useNarrator';
import type { InjectionReport } from './applyEdit';
import { useInjectStrings } from './strings';
import { useInjection } from './useInjection';

export interface InjectedFaultsProps {
  readonly onReport?: InjectionReport;
}

export function InjectedFaults({ onReport }: InjectedFaultsProps) {
  const t = useInjectStrings();
  const faults = useSim((s) => s.scenario)?.faults ?? [];
  const language = useSim((s) => s.language);
  const narrator = useNarrator();
  const label = (f: FaultSpec) => (narrator ? narrator.faultSpecLabel(f, language) : describeFault(f));
  const { run } = useInjection(onReport);
  return (
    <div className="injected-faults">
      <h3>{t.faultsHeading}</h3>
      {faults.length === 0 ? (
        <p className="hint">{t.faultsNone}</p>
      ) : (
        <ol data-testid="scenario-faults">
          {faults.map((f, i) => (
            // faults have no id of their own; their place in the list is what an edit names
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={i}>
              {label(f)}{' '}
              <button type="button" onClick={() => run((s) => removeFault(s, i))} aria-label={`${t.remove}: ${label(f)}`}>
                {t.remove}
              </button>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
