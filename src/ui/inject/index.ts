/**
 * Failure injection components. Each reads the trace, view, step and language from the store and
 * forks the run through `simStore.getState().fork(edit)`; each takes an optional
 * `onReport(outcome, step)` to learn what was applied (the fork clears the selection, so a parent
 * shows the confirmation).
 *
 * - `InjectPanel` ()                                   — everything below, for the current selection
 * - `EnvelopeActions` ({ envelopeId: number })         — drop / delay / duplicate an envelope in flight
 * - `ActorActions` ({ actorId: string })               — crash / restart / pause…resume / second instance /
 *                                                         clock / send a new record, for the actor's process
 * - `ReplicationActions` ({ broker: string })          — slow a broker's replication link (slowReplication)
 * - `ClockActions` ({ clientId: string })              — advance past transaction.timeout.ms / session.timeout.ms
 * - `RecordActions` ({ topic, partition, offset })     — resend the same event
 * - `SendRecordForm` ({ clientId: string })            — the application sends a new record
 * - `CleanerActions` ()                                — run the log cleaner on a compacted topic now
 * - `OffsetResetActions` ()                            — an operator resets a consumer group's offsets now
 * - `InjectedFaults` ()                                — the scenario's faults, each removable
 * - `InFlightList` ()                                  — the envelopes in flight, as selectable buttons
 */
export { ActorActions, type ActorActionsProps } from './ActorActions';
export type { InjectionReport } from './applyEdit';
export { CleanerActions, type CleanerActionsProps } from './CleanerActions';
export { ClockActions, type ClockActionsProps } from './ClockActions';
export { EnvelopeActions, type EnvelopeActionsProps } from './EnvelopeActions';
export { InFlightList } from './InFlightList';
export { InjectedFaults, type InjectedFaultsProps } from './InjectedFaults';
export { InjectPanel } from './InjectPanel';
export { OffsetResetActions, type OffsetResetActionsProps } from './OffsetResetActions';
export { RecordActions, type RecordActionsProps } from './RecordActions';
export { ReplicationActions, type ReplicationActionsProps } from './ReplicationActions';
export { SendRecordForm, type SendRecordFormProps } from './SendRecordForm';
