/**
 * "Slow replication link" for a broker: its replica fetches answer late by a delay, for a while or
 * to the end of the run (the scenario fault slowReplication).
 *
 * Props: `broker` — the broker's process id ("broker-2"); `onReport` (optional) — told the outcome.
 */
import { useState } from 'react';
import { ActionRow } from './ActionRow';
import type { InjectionReport } from './applyEdit';
import { MsInput } from './MsInput';
import { Refusal } from './Refusal';
import { injectSlowReplication } from './slowReplication';
import { useInjectStrings } from './strings';
import { useInjection } from './useInjection';

export interface ReplicationActionsProps {
  readonly broker: string;
  readonly onReport?: InjectionReport;
}

export function ReplicationActions({ broker, onReport }: ReplicationActionsProps) {
  const t = useInjectStrings();
  const [delayMs, setDelayMs] = useState(2000);
  const [bounded, setBounded] = useState(true);
  const [durationMs, setDurationMs] = useState(30000);
  const { run, refusal } = useInjection(onReport);
  return (
    <div className="replication-actions" data-testid="replication-actions">
      <ActionRow
        label={t.slowReplication}
        hint={t.slowReplicationHint(broker)}
        onClick={() => run((s, at) => injectSlowReplication(s, { ...at, broker, delayMs, ...(bounded ? { durationMs } : {}) }))}
      >
        <MsInput label={t.slowDelay} value={delayMs} onChange={setDelayMs} unit={t.ms} />{' '}
        <label className="inline">
          <input type="checkbox" checked={!bounded} onChange={(e) => setBounded(!e.currentTarget.checked)} /> {t.slowUntilEnd}
        </label>{' '}
        <MsInput label={t.slowFor} value={durationMs} onChange={setDurationMs} unit={t.ms} disabled={!bounded} />
      </ActionRow>
      <Refusal text={refusal} />
    </div>
  );
}
