/**
 * Pure scenario edits behind failure injection and the config editor. Each takes the scenario and
 * what the person pointed at — an envelope in flight, a process, a client, a record, a topic — at
 * the current step, and returns the scenario with the injection written into it (so the run forks
 * there and a share link reproduces it), or the reason it cannot be applied.
 *
 * None of them changes what happened up to the current step:
 * - an envelope is named { rpc, from, to, nth }: its ordinal among the run's envelopes with the same
 *   RPC between the same two processes, counted in send order as the kernel counts when it matches
 *   a fault. The envelopes before it are sent identically in the fork, so nth picks the same one.
 * - "now" is the next millisecond (`injectionTime`): a timed fault at time t runs before every other
 *   event of t, so placing it at the current time would reorder steps already taken.
 * - an application action goes after the operation the application is on (or in its place, if that
 *   operation has not started yet), never before an operation that already ran.
 */
import type { ProducerAppContext } from '../application/producerApp.machine';
import type { ConfigValue } from '../config/configSpec';
import type { TxnCoordinatorContext } from '../coordinator/transactionCoordinator.machine';
import { envelopeMatches, processOf } from '../kernel/faults';
import { recordAddress } from '../protocol/topicPartition';
import { type SimView, stateAt, type Trace } from '../run';
import { partitionRows } from '../trace/logView';
import { describeFault } from './build';
import type { FaultSpec, ProducerOp, Scenario } from './schema';
import { validateScenario } from './validate';
import { consumerGroupTopics } from './validateResetOffsets';

/** Why an edit cannot be applied; the UI translates the code, the reason is the English text. */
export type EditRefusal =
  | 'unknown-envelope'
  | 'not-in-flight'
  | 'unknown-process'
  | 'process-down'
  | 'process-paused'
  | 'not-a-producer'
  | 'not-transactional'
  | 'no-timeout'
  | 'app-stopped'
  | 'unknown-record'
  | 'control-record'
  | 'no-event-id'
  | 'not-scripted'
  | 'unknown-topic'
  | 'not-compacted'
  | 'bad-number'
  | 'invalid';

export type EditOutcome =
  | { readonly ok: true; readonly scenario: Scenario; readonly note: string }
  | { readonly ok: false; readonly code: EditRefusal; readonly reason: string };

/** Where the person is in the run: the trace of the current scenario and the steps taken (0 = start). */
export interface At {
  readonly trace: Trace;
  readonly step: number;
  /** The state at `step`, if the caller has it (otherwise it is computed). */
  readonly view?: SimView;
}

const refuse = (code: EditRefusal, reason: string): EditOutcome => ({ ok: false, code, reason });

const NOTE_MAX = 200;
const clip = (text: string) => (text.length <= NOTE_MAX ? text : `${text.slice(0, NOTE_MAX - 1)}…`);

/** Validates the edited scenario: an edit never hands the store a scenario that cannot run. */
function checked(scenario: Scenario, note: string): EditOutcome {
  const v = validateScenario(scenario);
  if (!v.ok) return refuse('invalid', v.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  return { ok: true, scenario: v.resolved.scenario, note };
}

function clone(s: Scenario): Scenario {
  return structuredClone(s);
}

function validMs(ms: number, what: string): string | null {
  return Number.isInteger(ms) && ms >= 1 && ms <= 86400000 ? null : `${what} must be a whole number of milliseconds between 1 and 86400000`;
}

/** The virtual time of the current step, and the time an injection "now" takes effect. */
export function currentTime(trace: Trace, step: number): number {
  const s = Math.max(0, Math.min(step, trace.steps.length));
  return s === 0 ? 0 : (trace.steps.at(s - 1)?.t ?? 0);
}

export function injectionTime(trace: Trace, step: number): number {
  return step <= 0 ? 0 : currentTime(trace, step) + 1;
}

function viewOf(at: At): SimView {
  return at.view ?? stateAt(at.trace, at.step);
}

function withFault(s: Scenario, fault: FaultSpec, first = false): Scenario {
  const next = clone(s);
  const faults = next.faults ?? [];
  next.faults = first ? [fault, ...faults] : [...faults, fault];
  return next;
}

// ---------------------------------------------------------------- envelopes

export type EnvelopeStatus = 'in-flight' | 'not-sent-yet' | 'delivered' | 'dropped' | 'lost' | 'unknown';

/** What an envelope is doing after `step` steps, read from the trace. */
export function envelopeStatus(trace: Trace, id: number, step: number): EnvelopeStatus {
  const e = trace.envelopes.at(id);
  if (!e) return 'unknown';
  if (e.sentStep >= step) return 'not-sent-yet';
  if (e.fate === 'dropped') return 'dropped';
  if (e.deliveredStep !== null && e.deliveredStep < step) return e.fate === 'lost' ? 'lost' : 'delivered';
  return 'in-flight';
}

/** The stable, readable name of an envelope for a fault: its RPC, processes and ordinal. */
export function envelopeFaultTarget(trace: Trace, id: number): { rpc: string; from: string; to: string; nth: number } | null {
  const env = trace.envelopes.at(id);
  if (!env) return null;
  const match = { rpc: env.rpc, from: processOf(env.from), to: processOf(env.to) };
  let nth = 0;
  for (let i = 0; i <= id; i++) {
    const e = trace.envelopes.at(i);
    if (e && envelopeMatches(match, e)) nth++;
  }
  return { ...match, nth };
}

const NOT_IN_FLIGHT: Record<Exclude<EnvelopeStatus, 'in-flight'>, string> = {
  'not-sent-yet': 'it has not been sent yet at this step',
  delivered: 'it was already delivered',
  dropped: 'it was already dropped',
  lost: 'it was already lost (its receiver was down, or its connection stalled, was closed or reset)',
  unknown: 'there is no such envelope in this run',
};

export type EnvelopeAction = { type: 'drop' } | { type: 'delay'; delayMs: number } | { type: 'duplicate' } | { type: 'reset' };

/**
 * Drop, delay or duplicate an envelope that is in flight at the current step, or reset the
 * connection it travels on (the reset happens as it is sent). The fault goes first
 * in the list so that it wins over a fault that already touched the same envelope.
 */
export function injectEnvelopeFault(s: Scenario, at: At & { envelopeId: number; action: EnvelopeAction }): EditOutcome {
  const status = envelopeStatus(at.trace, at.envelopeId, at.step);
  if (status !== 'in-flight')
    return refuse(
      status === 'unknown' ? 'unknown-envelope' : 'not-in-flight',
      `Only an envelope in flight can be changed: ${NOT_IN_FLIGHT[status]}.`,
    );
  const target = envelopeFaultTarget(at.trace, at.envelopeId);
  if (!target) return refuse('unknown-envelope', NOT_IN_FLIGHT.unknown);
  if (at.action.type === 'delay') {
    const bad = validMs(at.action.delayMs, 'the delay');
    if (bad) return refuse('bad-number', bad);
  }
  const base = { rpc: target.rpc, from: target.from, to: target.to, nth: target.nth };
  const fault: FaultSpec =
    at.action.type === 'delay' ? { type: 'delay', ...base, delayMs: at.action.delayMs } : { type: at.action.type, ...base };
  const note = clip(`${describeFault(fault)} (injected at step ${at.step})`);
  return checked(withFault(s, { ...fault, note }, true), note);
}

// ---------------------------------------------------------------- processes

export type ProcessAction =
  | { type: 'crash'; restartAfterMs?: number }
  | { type: 'restart' }
  | { type: 'pause'; ms: number }
  /** A broker only: its leaderships move first, then it stops cleanly (broker/controlledShutdown.ts). */
  | { type: 'controlledShutdown'; restartAfterMs?: number };

/** Crash (optionally restarting later), restart, pause-then-resume a process, or shut a broker down (controlled), at the current time. */
export function injectProcessFault(s: Scenario, at: At & { process: string; action: ProcessAction }): EditOutcome {
  const process = processOf(at.process);
  const info = at.trace.built.processes.find((p) => p.id === process);
  if (!info) return refuse('unknown-process', `${at.process} is not a process of this run.`);
  const state = viewOf(at).processes.get(process);
  const when = injectionTime(at.trace, at.step);
  const a = at.action;
  let fault: FaultSpec;
  if (a.type === 'crash') {
    if (state?.down) return refuse('process-down', `${process} is already down.`);
    if (a.restartAfterMs !== undefined) {
      const bad = validMs(a.restartAfterMs, 'the restart delay');
      if (bad) return refuse('bad-number', bad);
    }
    fault = { type: 'crash', target: process, at: when, ...(a.restartAfterMs !== undefined ? { durationMs: a.restartAfterMs } : {}) };
  } else if (a.type === 'restart') {
    fault = { type: 'restart', target: process, at: when };
  } else if (a.type === 'controlledShutdown') {
    if (info.kind !== 'broker') return refuse('unknown-process', `${process} is not a broker: only a broker has a controlled shutdown.`);
    if (state?.down) return refuse('process-down', `${process} is already down.`);
    if (a.restartAfterMs !== undefined) {
      const bad = validMs(a.restartAfterMs, 'the restart delay');
      if (bad) return refuse('bad-number', bad);
    }
    fault = {
      type: 'controlledShutdown',
      target: process,
      at: when,
      ...(a.restartAfterMs !== undefined ? { durationMs: a.restartAfterMs } : {}),
    };
  } else {
    if (state?.down) return refuse('process-down', `${process} is down: there is nothing to pause.`);
    if (state?.paused) return refuse('process-paused', `${process} is already paused.`);
    const bad = validMs(a.ms, 'the pause');
    if (bad) return refuse('bad-number', bad);
    fault = { type: 'pause', target: process, at: when, durationMs: a.ms };
  }
  const note = clip(`${describeFault(fault)} (injected at step ${at.step})`);
  return checked(withFault(s, { ...fault, note }), note);
}

function freeId(s: Scenario, base: string): string {
  const taken = new Set<string>([...s.clients.map((c) => c.id), ...(s.sinks ?? []).map((k) => k.id)]);
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const id = `${base.slice(0, 32 - suffix.length)}${suffix}`;
    if (!taken.has(id)) return id;
  }
}

/**
 * Starts a second instance of a transactional producer application — same config (so the same
 * transactional.id) and script — at the current time. Its initTransactions() bumps the epoch; what
 * that does depends on the moment (secondInstanceOutlook): an open transaction is aborted and the
 * first instance fenced, as a zombie and its replacement; after the first committed, nothing is
 * fenced and the copy re-sends the same events as new records.
 */
export function startSecondInstance(s: Scenario, at: At & { client: string }): EditOutcome {
  const index = s.clients.findIndex((c) => c.id === at.client);
  const original = s.clients[index];
  if (!original || original.type !== 'producer')
    return refuse('not-a-producer', `${at.client} is not a producer application with a script: only those can be started twice.`);
  const txnId = at.trace.resolved.producers[original.id]?.['transactional.id'] ?? null;
  if (txnId === null)
    return refuse('not-transactional', `${at.client} has no transactional.id: a second instance would simply get its own producerId.`);
  const id = freeId(s, original.id);
  const next = clone(s);
  next.clients.splice(index + 1, 0, { ...structuredClone(original), id, startAt: injectionTime(at.trace, at.step) });
  return checked(
    next,
    clip(`start ${id}, a second instance of ${original.id} with transactional.id=${txnId} (injected at step ${at.step})`),
  );
}

/**
 * What starting a second instance now would do, read from the state at the step:
 * - `aborts-open`: the coordinator holds an open transaction for the transactional.id (Ongoing or
 *   being completed): the copy's InitProducerId fences the epoch and aborts it, and the first
 *   instance is fenced on its next call (TransactionCoordinator.handleInitProducerId, PrepareEpochFence);
 * - `fences-next-call`: nothing is open, but the first instance still has work to do: the epoch is
 *   bumped, nothing is aborted, and the first instance is fenced when it next calls with its old epoch;
 * - `duplicates`: nothing is open and the first instance has finished (or stopped): nothing is aborted
 *   or fenced, and the copy sends the same events again as new records — a business duplicate that
 *   transactional.id does not prevent.
 */
export type SecondInstanceOutlook = 'aborts-open' | 'fences-next-call' | 'duplicates';

export function secondInstanceOutlook(at: At & { client: string }): SecondInstanceOutlook | null {
  const txnId = at.trace.resolved.producers[at.client]?.['transactional.id'] ?? null;
  if (txnId === null) return null;
  const view = at.view ?? stateAt(at.trace, at.step);
  const coordinator = view.actors.get('txn-coordinator')?.context as TxnCoordinatorContext | undefined;
  const state = coordinator?.txns[txnId]?.state;
  if (state === 'Ongoing' || state === 'PrepareCommit' || state === 'PrepareAbort' || state === 'PrepareEpochFence') return 'aborts-open';
  const app = view.actors.get(`${at.client}.app`)?.value;
  return app === 'done' || app === 'stopped' ? 'duplicates' : 'fences-next-call';
}

// ---------------------------------------------------------------- the clock

export type TimeoutKey = 'transaction.timeout.ms' | 'session.timeout.ms';

/**
 * How long a client must be silent for its timeout to expire and be acted on. The transaction
 * coordinator only looks for expired transactions every
 * transaction.abort.timed.out.transaction.cleanup.interval.ms, so that interval is added.
 */
export function timeoutPause(trace: Trace, client: string, key: TimeoutKey): { ms: number; timeoutMs: number; explanation: string } | null {
  const spec = trace.scenario.clients.find((c) => c.id === client);
  if (!spec) return null;
  if (key === 'session.timeout.ms') {
    const c = trace.resolved.consumers[client];
    if (!c || c['group.id'] === null) return null;
    const timeoutMs = c['session.timeout.ms'];
    return { ms: timeoutMs + 1000, timeoutMs, explanation: `session.timeout.ms (${timeoutMs} ms) + 1 s` };
  }
  const p = trace.resolved.producers[spec.type === 'producer' ? client : `${client}.producer`];
  if (!p || p['transactional.id'] === null) return null;
  const timeoutMs = p['transaction.timeout.ms'];
  const interval = trace.resolved.cluster['transaction.abort.timed.out.transaction.cleanup.interval.ms'];
  return {
    ms: timeoutMs + interval + 1000,
    timeoutMs,
    explanation: `transaction.timeout.ms (${timeoutMs} ms) + the coordinator's check interval (${interval} ms) + 1 s`,
  };
}

/**
 * "Advance the clock past a timeout" for one client: the simulator pauses the client's process for
 * the timeout (plus what it takes to be noticed), so everyone else's clock runs on without it.
 */
export function advancePastTimeout(s: Scenario, at: At & { client: string; timeout: TimeoutKey }): EditOutcome {
  const pause = timeoutPause(at.trace, at.client, at.timeout);
  if (!pause)
    return refuse(
      'no-timeout',
      at.timeout === 'session.timeout.ms'
        ? `${at.client} is not a consumer in a group: it has no session.timeout.ms.`
        : `${at.client} has no transactional producer: it has no transaction.timeout.ms.`,
    );
  const state = viewOf(at).processes.get(at.client);
  if (state?.down) return refuse('process-down', `${at.client} is down.`);
  if (state?.paused) return refuse('process-paused', `${at.client} is already paused.`);
  const fault: FaultSpec = { type: 'pause', target: at.client, at: injectionTime(at.trace, at.step), durationMs: pause.ms };
  const note = clip(`advance past ${at.timeout} for ${at.client}: pause it for ${pause.explanation} (injected at step ${at.step})`);
  return checked(withFault(s, { ...fault, note }), note);
}

// ---------------------------------------------------------------- application actions

/**
 * Where a new operation goes in a producer application's script so that it runs next without
 * touching anything that already ran: in place of the operation at pc if that one has not started
 * (its timer is the application's next event), otherwise right after it.
 */
function insertionPoint(at: At, client: string, view: SimView): { index: number } | EditOutcome {
  const spec = at.trace.scenario.clients.find((c) => c.id === client);
  if (!spec || spec.type !== 'producer') return refuse('not-scripted', `${client} is not a producer application with a script.`);
  const app = view.actors.get(`${client}.app`);
  const ctx = app?.context as ProducerAppContext | undefined;
  const state = app?.value;
  if (!ctx || state === 'idle') return { index: 0 };
  if (state === 'done') return { index: spec.script.length };
  if (state === 'stopped') return refuse('app-stopped', `${client}'s application has stopped: ${ctx.stopped ?? 'it was fenced'}.`);
  if (state === 'down' || view.processes.get(client)?.down) return refuse('process-down', `${client} is down: restart it first.`);
  const self = `${client}.app`;
  const next = at.trace.steps.slice(at.step).find((st) => st.actor === self);
  const notStarted = next?.kind === 'timer' && next.label === 'runNext' && ctx.iteration === 0;
  return { index: notStarted ? ctx.pc : Math.min(ctx.pc + 1, spec.script.length) };
}

/** Inside a transaction at this point of the script (the last transaction op before it began one)? */
function inTransactionAt(script: readonly ProducerOp[], index: number): boolean {
  for (let i = index - 1; i >= 0; i--) {
    const op = script[i]?.op;
    if (op === 'beginTransaction') return true;
    if (op === 'commitTransaction' || op === 'abortTransaction') return false;
  }
  return false;
}

function insertOps(s: Scenario, at: At, client: string, ops: ProducerOp[], note: string): EditOutcome {
  const view = viewOf(at);
  const point = insertionPoint(at, client, view);
  if ('ok' in point) return point;
  const next = clone(s);
  const c = next.clients.find((x) => x.id === client);
  if (!c || c.type !== 'producer') return refuse('not-scripted', `${client} is not a producer application with a script.`);
  const transactional = (at.trace.resolved.producers[client]?.['transactional.id'] ?? null) !== null;
  const when = injectionTime(at.trace, at.step);
  // a transactional producer sends only inside a transaction: wrap the action in one
  const wrapped: ProducerOp[] =
    transactional && !inTransactionAt(c.script, point.index) ? [{ op: 'beginTransaction' }, ...ops, { op: 'commitTransaction' }] : ops;
  const [first, ...rest] = wrapped;
  if (!first) return refuse('invalid', 'nothing to insert');
  c.script.splice(point.index, 0, { ...first, at: when } as ProducerOp, ...rest);
  return checked(next, note);
}

/** The record at topic-partition@offset at the current step, with what a resend needs. */
export function resendTarget(
  at: At & { topic: string; partition: number; offset: number },
): { client: string; eventId: string } | { code: EditRefusal; reason: string } {
  const row = partitionRows(viewOf(at).actors).find((p) => p.topic === at.topic && p.partition === at.partition);
  const rec = row?.records.find((r) => r.offset === at.offset);
  if (!rec)
    return { code: 'unknown-record', reason: `There is no record at ${recordAddress(at.topic, at.partition, at.offset)} at this step.` };
  if (rec.control) return { code: 'control-record', reason: `Offset ${at.offset} holds a ${rec.control} marker, not an event.` };
  const eventId = rec.headers.event_id;
  if (!eventId) return { code: 'no-event-id', reason: 'This record has no event_id header, so there is no event to send again.' };
  const client = rec.origin?.client;
  const spec = at.trace.scenario.clients.find((c) => c.id === client);
  if (!client || !spec || spec.type !== 'producer')
    return {
      code: 'not-scripted',
      reason: `This record was written by ${client ?? 'an unknown client'}, which is not a scripted producer application.`,
    };
  return { client, eventId };
}

/** The producing application sends the selected record's event again (a business retry: a new send()). */
export function resendRecord(s: Scenario, at: At & { topic: string; partition: number; offset: number }): EditOutcome {
  const target = resendTarget(at);
  if ('code' in target) return refuse(target.code, target.reason);
  const note = clip(`the application sends event ${target.eventId} again (injected at step ${at.step})`);
  return insertOps(s, at, target.client, [{ op: 'resend', eventId: target.eventId, note }], note);
}

export interface NewRecord {
  readonly topic: string;
  readonly key: string | null;
  readonly value: string | null;
  /** Sent as the event_id header when given. */
  readonly eventId?: string;
}

/** The application sends one new record at the current time. */
export function sendNewRecord(s: Scenario, at: At & { client: string; record: NewRecord }): EditOutcome {
  const r = at.record;
  if (!s.topics.some((t) => t.name === r.topic)) return refuse('unknown-topic', `Topic ${r.topic} is not defined.`);
  const note = clip(`the application sends a new record to ${r.topic} (injected at step ${at.step})`);
  const op: ProducerOp = {
    op: 'send',
    topic: r.topic,
    key: r.key,
    value: r.value,
    ...(r.eventId ? { headers: { event_id: r.eventId } } : {}),
    note,
  };
  return insertOps(s, at, at.client, [op], note);
}

// ---------------------------------------------------------------- the log cleaner

export function compactedTopics(trace: Trace): string[] {
  return Object.entries(trace.resolved.topics)
    .filter(([, c]) => c['cleanup.policy'] !== 'delete')
    .map(([name]) => name);
}

/** Runs the log cleaner on a compacted topic at the current time. */
export function runCleanerNow(s: Scenario, at: At & { topic: string }): EditOutcome {
  if (!s.topics.some((t) => t.name === at.topic)) return refuse('unknown-topic', `Topic ${at.topic} is not defined.`);
  if (!compactedTopics(at.trace).includes(at.topic))
    return refuse('not-compacted', `Topic ${at.topic} has cleanup.policy=delete: the log cleaner only compacts cleanup.policy=compact.`);
  const fault: FaultSpec = { type: 'runCleaner', at: injectionTime(at.trace, at.step), topic: at.topic };
  const note = clip(`${describeFault(fault)} (injected at step ${at.step})`);
  return checked(withFault(s, { ...fault, note }), note);
}

// ---------------------------------------------------------------- offset resets (an operator's)

/** Each consumer group of the scenario and the topics its members read: what an offset reset can name. */
export function offsetResetTargets(trace: Trace): { readonly group: string; readonly topics: readonly string[] }[] {
  return consumerGroupTopics({ clients: trace.scenario.clients, consumers: trace.resolved.consumers, streams: trace.resolved.streams });
}

/** An operator runs kafka-consumer-groups --reset-offsets --execute now (coordinator/offsetReset.ts). */
export function resetOffsetsNow(
  s: Scenario,
  at: At & { group: string; topic: string; to?: 'earliest' | 'latest' | number; shiftBy?: number },
): EditOutcome {
  const fault: FaultSpec = {
    type: 'resetOffsets',
    at: injectionTime(at.trace, at.step),
    group: at.group,
    topic: at.topic,
    ...(at.to !== undefined ? { to: at.to } : { shiftBy: at.shiftBy ?? 0 }),
  };
  const note = clip(`${describeFault(fault)} (injected at step ${at.step})`);
  return checked(withFault(s, { ...fault, note }), note);
}

// ---------------------------------------------------------------- transaction aborts (an operator's)

/**
 * The open transaction the record at topic-partition@offset belongs to at the current step, as
 * `kafka-transactions.sh abort --start-offset N` names it: its first offset (the first of its
 * producer's records still open there), producerId and epoch. Null: the record is not in an open
 * transaction (a marker, a plain record, a decided one, or no record there).
 */
export function transactionAbortTarget(
  at: At & { topic: string; partition: number; offset: number },
): { readonly startOffset: number; readonly producerId: number; readonly producerEpoch: number } | null {
  const row = partitionRows(viewOf(at).actors).find((p) => p.topic === at.topic && p.partition === at.partition);
  const rec = row?.records.find((r) => r.offset === at.offset);
  if (!row || !rec || rec.control || !rec.transactional || rec.txnOutcome !== 'open') return null;
  let startOffset = rec.offset;
  for (const r of row.records)
    if (r.producerId === rec.producerId && !r.control && r.txnOutcome === 'open' && r.offset < startOffset) startOffset = r.offset;
  return { startOffset, producerId: rec.producerId, producerEpoch: rec.producerEpoch };
}

/** An operator runs kafka-transactions.sh abort --topic t --partition p --start-offset N now (broker/operatorAbort.ts). */
export function abortTransactionNow(s: Scenario, at: At & { topic: string; partition: number; startOffset: number }): EditOutcome {
  if (!s.topics.some((t) => t.name === at.topic)) return refuse('unknown-topic', `Topic ${at.topic} is not defined.`);
  const fault: FaultSpec = {
    type: 'abortTransaction',
    at: injectionTime(at.trace, at.step),
    topic: at.topic,
    partition: at.partition,
    startOffset: at.startOffset,
  };
  const note = clip(`${describeFault(fault)} (injected at step ${at.step})`);
  return checked(withFault(s, { ...fault, note }), note);
}

/** Takes a fault out of the scenario again. */
export function removeFault(s: Scenario, index: number): EditOutcome {
  const f = s.faults?.[index];
  if (!f) return refuse('invalid', `There is no fault ${index}.`);
  const next = clone(s);
  next.faults = (next.faults ?? []).filter((_, i) => i !== index);
  return checked(next, `removed: ${describeFault(f)}`);
}

// ---------------------------------------------------------------- configuration

/** Whose configuration: a client, the producer inside a consumer application, the cluster or a topic. */
export type ConfigTarget =
  | { readonly scope: 'client'; readonly client: string }
  | { readonly scope: 'app-producer'; readonly client: string }
  | { readonly scope: 'cluster' }
  | { readonly scope: 'topic'; readonly topic: string };

/** The JSON path of a target's config object, as validateScenario reports it. */
export function configPath(s: Scenario, t: ConfigTarget): string | null {
  if (t.scope === 'cluster') return 'cluster';
  if (t.scope === 'topic') {
    const i = s.topics.findIndex((x) => x.name === t.topic);
    return i < 0 ? null : `topics[${i}].config`;
  }
  const i = s.clients.findIndex((c) => c.id === t.client);
  if (i < 0) return null;
  return t.scope === 'client' ? `clients[${i}].config` : `clients[${i}].processing.producerConfig`;
}

/** The config values the scenario sets explicitly for a target (defaults are not listed). */
export function explicitConfig(s: Scenario, t: ConfigTarget): Readonly<Record<string, ConfigValue>> {
  if (t.scope === 'cluster') return s.cluster ?? {};
  if (t.scope === 'topic') return s.topics.find((x) => x.name === t.topic)?.config ?? {};
  const c = s.clients.find((x) => x.id === t.client);
  if (!c) return {};
  if (t.scope === 'client') return c.config ?? {};
  return c.type === 'consumer' ? (c.processing?.producerConfig ?? {}) : {};
}

/**
 * Sets (or, with `undefined`, removes so that the default applies) one config key. The result is
 * not validated: the config editor shows the validator's messages for an invalid combination.
 */
export function setConfigValues(s: Scenario, t: ConfigTarget, changes: Readonly<Record<string, ConfigValue | undefined>>): Scenario {
  const next = clone(s);
  const apply = (config: Record<string, ConfigValue> | undefined): Record<string, ConfigValue> => {
    const out = { ...(config ?? {}) };
    for (const [k, v] of Object.entries(changes)) {
      if (v === undefined) delete out[k];
      else out[k] = v;
    }
    return out;
  };
  if (t.scope === 'cluster') next.cluster = apply(next.cluster);
  else if (t.scope === 'topic') {
    const topic = next.topics.find((x) => x.name === t.topic);
    if (topic) topic.config = apply(topic.config);
  } else {
    const c = next.clients.find((x) => x.id === t.client);
    if (c && t.scope === 'client') c.config = apply(c.config);
    else if (c?.type === 'consumer' && c.processing) c.processing.producerConfig = apply(c.processing.producerConfig);
  }
  return next;
}
