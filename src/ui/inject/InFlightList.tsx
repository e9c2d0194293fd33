/**
 * The envelopes in flight at the current step, as buttons that select one (to drop, delay or
 * duplicate it).
 *
 * Props: none; it reads the view and the selection from the store.
 */
import { simStore } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { useInjectStrings } from './strings';

const SHOWN = 40;

export function InFlightList() {
  const t = useInjectStrings();
  const inFlight = useSim((s) => s.view)?.inFlight ?? [];
  const selection = useSim((s) => s.selection);
  return (
    <div className="in-flight">
      <h3>{t.inFlightHeading}</h3>
      {inFlight.length === 0 ? (
        <p className="hint">{t.inFlightNone}</p>
      ) : (
        <>
          <p className="hint">{t.inFlightHint}</p>
          <ul data-testid="in-flight">
            {inFlight.slice(0, SHOWN).map((e) => {
              const selected = selection?.kind === 'envelope' && selection.id === e.id;
              return (
                <li key={e.id}>
                  <button type="button" aria-pressed={selected} onClick={() => simStore.getState().select({ kind: 'envelope', id: e.id })}>
                    #{e.id} {e.rpc} <span className="muted">{t.envelopeRoute(e.from, e.to)}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </div>
  );
}
