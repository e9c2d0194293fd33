/**
 * "Advance the clock past a timeout" for one client. The simulator does it by pausing the client's
 * process for the timeout (plus what it takes to be noticed), and says so.
 *
 * Props: `clientId` — a client id of the scenario (a producer or consumer application);
 * `onReport` (optional) — told the outcome of an injection.
 */
import { advancePastTimeout, type TimeoutKey, timeoutPause } from '../../sim';
import { useSim } from '../../store/useSim';
import { useNarrator } from '../useNarrator';
import { ActionRow } from './ActionRow';
import type { InjectionReport } from './applyEdit';
import { Refusal } from './Refusal';
import { useInjectStrings } from './strings';
import { useInjection } from './useInjection';

export interface ClockActionsProps {
  readonly clientId: string;
  readonly onReport?: InjectionReport;
}

const KEYS: readonly TimeoutKey[] = ['transaction.timeout.ms', 'session.timeout.ms'];

export function ClockActions({ clientId, onReport }: ClockActionsProps) {
  const t = useInjectStrings();
  const trace = useSim((s) => s.trace);
  const { run, refusal } = useInjection(onReport);
  const language = useSim((s) => s.language);
  const narrator = useNarrator();
  if (!trace) return null;
  const options = KEYS.flatMap((key) => {
    const pause = timeoutPause(trace, clientId, key);
    return pause ? [{ key, pause }] : [];
  });
  return (
    <div className="clock-actions" data-testid="clock-actions">
      <h3>{t.clockHeading}</h3>
      {options.length === 0 ? (
        <p className="hint">{t.noClock}</p>
      ) : (
        <>
          <p className="hint">{t.clockExplain}</p>
          {options.map(({ key, pause }) => (
            <ActionRow
              key={key}
              label={t.advancePast(key)}
              hint={t.advanceHint(clientId, pause.ms, narrator ? narrator.explainPause(pause.explanation, language) : pause.explanation)}
              onClick={() => run((s, at) => advancePastTimeout(s, { ...at, client: clientId, timeout: key }))}
            />
          ))}
        </>
      )}
      <Refusal text={refusal} />
    </div>
  );
}
