/**
 * Faults on a process at the current virtual time: crash (optionally restarting N ms later),
 * restart, pause for N ms then resume; for a broker, a controlled shutdown (optionally restarting
 * N ms after it stopped) and a slow replication link (its replica fetches answer late); for a transactional producer application, a second instance
 * with the same transactional.id; the clock actions for its timeouts; for a producer application,
 * sending a new record.
 *
 * Props: `actorId` — an actor id ("orders-service.producer") or a process id ("orders-service",
 * "broker-0", "txn-coordinator"); the actions apply to the whole process. `onReport` (optional) —
 * told the outcome of an injection.
 */
import { useState } from 'react';
import { injectProcessFault, secondInstanceOutlook, startSecondInstance } from '../../sim';
import { processOf } from '../../sim/views';
import { useSim } from '../../store/useSim';
import { useStrings } from '../i18n';
import { ActionRow } from './ActionRow';
import type { InjectionReport } from './applyEdit';
import { ClockActions } from './ClockActions';
import { MsInput } from './MsInput';
import { Refusal } from './Refusal';
import { ReplicationActions } from './ReplicationActions';
import { SendRecordForm } from './SendRecordForm';
import { useInjectStrings } from './strings';
import { useInjection } from './useInjection';

export interface ActorActionsProps {
  readonly actorId: string;
  readonly onReport?: InjectionReport;
}

export function ActorActions({ actorId, onReport }: ActorActionsProps) {
  const t = useInjectStrings();
  const trace = useSim((s) => s.trace);
  const view = useSim((s) => s.view);
  const [withRestart, setWithRestart] = useState(true);
  const [restartMs, setRestartMs] = useState(5000);
  const [pauseMs, setPauseMs] = useState(5000);
  const [withStopRestart, setWithStopRestart] = useState(true);
  const [stopRestartMs, setStopRestartMs] = useState(5000);
  const { run, refusal } = useInjection(onReport);
  const kinds = useStrings().kinds;
  if (!trace || !view) return null;
  const process = processOf(actorId);
  const info = trace.built.processes.find((p) => p.id === process);
  if (!info) return null;
  const state = view.processes.get(process);
  const status = state?.down ? 'down' : state?.paused ? 'paused' : 'up';
  const client = trace.scenario.clients.find((c) => c.id === process);
  const broker = info.kind === 'broker';
  // a broker is a follower only when the cluster has another broker to lead: with one broker
  // "Slow replication link" slowed no fetch, and changed nothing
  const follower = broker && trace.built.processes.filter((p) => p.kind === 'broker').length > 1;
  const txnId = client?.type === 'producer' ? (trace.resolved.producers[client.id]?.['transactional.id'] ?? null) : null;
  return (
    <div className="actor-actions" data-testid="actor-actions">
      <h3>
        {process} <span className="muted">({kinds[info.kind] ?? info.kind})</span>
      </h3>
      <p>{t.processState(process, status)}</p>
      <ActionRow
        label={broker ? t.crashBroker : t.crash}
        hint={broker ? t.crashBrokerHint : t.crashHint}
        disabled={status === 'down'}
        onClick={() =>
          run((s, at) =>
            injectProcessFault(s, { ...at, process, action: { type: 'crash', ...(withRestart ? { restartAfterMs: restartMs } : {}) } }),
          )
        }
      >
        <label className="inline">
          <input type="checkbox" checked={withRestart} onChange={(e) => setWithRestart(e.currentTarget.checked)} /> {t.restartAfter}
        </label>{' '}
        <MsInput label={t.restartDelay} value={restartMs} onChange={setRestartMs} unit={t.ms} disabled={!withRestart} />
      </ActionRow>
      {broker && (
        <ActionRow
          label={t.controlledShutdown}
          hint={t.controlledShutdownHint}
          disabled={status === 'down'}
          onClick={() =>
            run((s, at) =>
              injectProcessFault(s, {
                ...at,
                process,
                action: { type: 'controlledShutdown', ...(withStopRestart ? { restartAfterMs: stopRestartMs } : {}) },
              }),
            )
          }
        >
          <label className="inline">
            <input type="checkbox" checked={withStopRestart} onChange={(e) => setWithStopRestart(e.currentTarget.checked)} />{' '}
            {t.restartAfterStop}
          </label>{' '}
          <MsInput
            label={t.restartAfterStopDelay}
            value={stopRestartMs}
            onChange={setStopRestartMs}
            unit={t.ms}
            disabled={!withStopRestart}
          />
        </ActionRow>
      )}
      <ActionRow
        label={broker ? t.restartBroker : t.restart}
        hint={broker ? t.restartBrokerHint : t.restartHint}
        onClick={() => run((s, at) => injectProcessFault(s, { ...at, process, action: { type: 'restart' } }))}
      />
      <ActionRow
        label={t.pause}
        hint={t.pauseHint}
        disabled={status !== 'up'}
        onClick={() => run((s, at) => injectProcessFault(s, { ...at, process, action: { type: 'pause', ms: pauseMs } }))}
      >
        <MsInput label={t.pauseFor} value={pauseMs} onChange={setPauseMs} unit={t.ms} />
      </ActionRow>
      {txnId !== null && (
        <ActionRow
          label={t.secondInstance}
          hint={t.secondInstanceHint(txnId, secondInstanceOutlook({ trace, step: view.step, view, client: process }))}
          onClick={() => run((s, at) => startSecondInstance(s, { ...at, client: process }))}
        />
      )}
      <Refusal text={refusal} />
      {follower && <ReplicationActions broker={process} onReport={onReport} />}
      {client && <ClockActions clientId={client.id} onReport={onReport} />}
      {client?.type === 'producer' && <SendRecordForm clientId={client.id} onReport={onReport} />}
    </div>
  );
}
