/**
 * The kernel: virtual clock, one event queue ordered by (time, seq), a seeded PRNG, the network
 * (connections, their order, faults and request timeouts: network.ts), and the actors (XState
 * machines) it drives.
 *
 * One call to `step()` takes the next event from the queue, hands it to one actor, carries out the
 * effects that actor emitted, and records a TraceStep. Nothing here reads the wall clock or
 * an unseeded random source: time is `now`, randomness is `prng`, deadlines are queued timer events.
 *
 * Two assertions hold on every run: virtual time is a finite number that never goes backwards, and
 * a run cannot take unbounded steps at one instant. Either broken ends the run with a named stop
 * reason ('invalid-time', 'livelock') instead of a hang or an exception.
 *
 * The parts: core.ts (state and queue), dispatch.ts (delivering, handing events to actors, their
 * effects), transport.ts (sending envelopes, connections that stall or break), processFaults.ts
 * (crash, restart, pause, resume).
 */
import { createActor } from 'xstate';
import type { Checkpoint, ProcessSnapshot } from './checkpoint';
import { KernelCore } from './core';
import { deliver, dispatch } from './dispatch';
import type { Effect } from './effects';
import type { ActorId, Envelope, EnvelopeRecord } from './envelope';
import { EventQueue, type Queued } from './eventQueue';
import { type ProcessId, processOf, type TimedFault } from './faults';
import { StreamHash } from './hash';
import { Network } from './network';
import { Prng } from './prng';
import { applyTimedFault, processFault, restartProcess, resumeProcess } from './processFaults';
import type { QueueItem } from './queueItem';
import { targetOf } from './queueItem';
import { notifyClosed, type SentEnvelope } from './transport';
import { type ActorSpec, DEFAULT_MAX_STEPS_PER_INSTANT, type KernelOptions, type StopReason, type TraceStep } from './types';

export type { ActorSpec, KernelOptions, NetworkSpec, StepKind, StopReason, TraceStep } from './types';
export { DEFAULT_MAX_STEPS_PER_INSTANT } from './types';

const EMPTY: readonly never[] = Object.freeze([]);
/** A step's line for an envelope the network lost as a consequence (a stalled or closed connection), not a fault applied. */
const LOST_ON_THE_WAY = /^\w+ #\d+ lost: /;
const NO_DETAIL: Readonly<Record<string, unknown>> = Object.freeze({});

function isEmptyObject(o: Readonly<Record<string, unknown>>): boolean {
  for (const _ in o) return false;
  return true;
}

export class Simulation extends KernelCore {
  readonly steps: TraceStep[] = [];
  readonly envelopes: EnvelopeRecord[] = [];
  readonly checkpoints: Checkpoint[] = [];

  private readonly onSent = (record: SentEnvelope): void => {
    if (this.options.record) this.envelopes[record.id] = { ...record, duplicateOf: null };
    this.hash.update(`E${record.id}|${record.rpc}|${record.from}>${record.to}|${record.deliverAt}|${JSON.stringify(record.payload)}`);
  };

  private constructor(specs: readonly ActorSpec[], options: KernelOptions) {
    super(specs, options);
  }

  /** A new run: actors started in their initial states, boots and timed faults queued at their times. */
  static create(specs: readonly ActorSpec[], options: KernelOptions): Simulation {
    const sim = new Simulation(specs, options);
    for (const spec of specs) {
      const process = processOf(spec.id);
      if (!sim.processes.has(process)) sim.processes.set(process, { down: false, paused: false, incarnation: 0, deferred: [] });
      sim.attach(spec, undefined);
    }
    for (const spec of specs) if (spec.boot) sim.push(spec.bootAt ?? 0, { kind: 'boot', actor: spec.id, fg: true });
    for (const fault of options.faults) if (fault.kind === 'timed') sim.push(fault.at, { kind: 'fault', fault: fault.id, fg: true });
    sim.hash.update(`seed:${options.seed}`);
    sim.takeCheckpoint();
    return sim;
  }

  /** A run continued from a checkpoint; with `record: false` it only advances state (for seeking). */
  static restore(specs: readonly ActorSpec[], options: KernelOptions, checkpoint: Checkpoint): Simulation {
    const sim = new Simulation(specs, options);
    sim.now = checkpoint.now;
    sim.stepIndex = checkpoint.step;
    sim.seq = checkpoint.seq;
    sim.envelopeCounter = checkpoint.envelopeCounter;
    sim.queue = EventQueue.fromHeapArray(checkpoint.queue as Queued<QueueItem>[]);
    sim.cancelled = new Set(checkpoint.cancelled);
    sim.timerIndex = new Map(checkpoint.timerIndex);
    sim.foreground = new Set(checkpoint.foreground);
    sim.deferredForeground = checkpoint.deferredForeground;
    sim.firstSeq = checkpoint.firstSeq;
    sim.requestTimeouts = new Map(checkpoint.requestTimeouts);
    sim.network = new Network(checkpoint.network);
    sim.instantSteps = checkpoint.instantSteps;
    sim.pendingStop = checkpoint.pendingStop as Simulation['pendingStop'];
    sim.quietDeadline = checkpoint.quietDeadline;
    sim.prng = new Prng(checkpoint.prng);
    sim.hash = StreamHash.from(checkpoint.hash);
    sim.faultCounters = new Map(checkpoint.faultCounters);
    sim.openRequests = new Map(checkpoint.openRequests as [number, Envelope][]);
    sim.lastFaultAt = checkpoint.lastFaultAt;
    for (const [id, p] of checkpoint.processes)
      sim.processes.set(id, {
        down: p.down,
        paused: p.paused,
        incarnation: p.incarnation,
        deferred: p.deferred.slice() as Queued<QueueItem>[],
      });
    const snapshots = new Map(checkpoint.actors);
    for (const spec of specs) sim.attach(spec, snapshots.get(spec.id));
    return sim;
  }

  private attach(spec: ActorSpec, snapshot: unknown): void {
    const ref =
      snapshot === undefined
        ? createActor(spec.logic, { input: spec.input })
        : // biome-ignore lint/suspicious/noExplicitAny: XState's restore takes its own snapshot type
          createActor(spec.logic, { input: spec.input, snapshot: snapshot as any });
    ref.on('*', (effect: Effect) => {
      if (this.collecting === spec.id) this.effects.push(effect);
    });
    ref.start();
    this.slots.set(spec.id, { spec, process: processOf(spec.id), ref });
  }

  // ---------------------------------------------------------------- running

  get done(): boolean {
    return this.stopReason !== null;
  }

  /** Runs until the run is over (quiescent, or a limit), or until `untilStep` steps were taken. */
  run(untilStep = Number.POSITIVE_INFINITY): void {
    while (this.stepIndex < untilStep && this.step() !== null) {
      /* keep stepping */
    }
  }

  /** Takes one step; returns null once the run is over. */
  step(): TraceStep | null {
    if (this.stopReason) return null;
    for (;;) {
      if (this.pendingStop) return this.stop(this.pendingStop.reason, this.pendingStop.detail);
      const next = this.peekLive();
      if (!next) return this.stop('empty');
      if (this.foregroundCount === 0) {
        if (this.quietDeadline === null) this.quietDeadline = this.now + this.settleWindow();
        if (next.time > this.quietDeadline) return this.stop('quiescent');
      }
      if (this.stepIndex >= this.options.maxSteps) return this.stop('max-steps');
      if (next.time > this.options.maxTimeMs) return this.stop('max-time');
      const perInstant = this.options.maxStepsPerInstant ?? DEFAULT_MAX_STEPS_PER_INSTANT;
      if (next.time === this.now && this.instantSteps >= perInstant)
        return this.stop('livelock', `${this.instantSteps} steps at ${this.now} ms without virtual time advancing`);

      this.queue.pop();
      this.foreground.delete(next.seq);
      this.now = next.time;
      const item = next.item;

      const target = targetOf(item);
      if (target !== null) {
        const proc = this.processes.get(processOf(target));
        if (proc) {
          // timers, calls and notices of an earlier incarnation died with it
          if ('incarnation' in item && (proc.down || proc.incarnation !== item.incarnation)) continue;
          // a process that is down at its start time starts when it is restarted (until then
          // the held boot is no work the run waits for)
          if (item.kind === 'boot' && proc.down) {
            proc.deferred.push(next);
            continue;
          }
          // a paused process holds its events until resumed
          if (proc.paused && !proc.down) {
            proc.deferred.push(next);
            if (item.fg) this.deferredForeground++;
            continue;
          }
        }
      }
      const step = this.handle(item);
      if (step) return step;
    }
  }

  /** Carries out one queue entry; null when it turned out to have nothing to do (no step is recorded). */
  private handle(item: QueueItem): TraceStep | null {
    switch (item.kind) {
      case 'deliver':
        return deliver(this, item.envelope, item.duplicate, this.onSent);
      case 'timer':
        this.timerIndex.delete(`${item.actor}|${item.key}`);
        return dispatch(
          this,
          item.actor,
          'timer',
          item.name,
          null,
          null,
          item.data,
          { type: item.name, key: item.key, data: item.data },
          this.onSent,
        );
      case 'call':
        return dispatch(
          this,
          item.actor,
          'call',
          item.name,
          item.from,
          null,
          item.args,
          { type: item.name, from: item.from, args: item.args },
          this.onSent,
        );
      case 'boot':
        return dispatch(this, item.actor, 'boot', 'boot', null, null, null, { type: 'boot' }, this.onSent);
      case 'disconnected': {
        const r = item.request;
        const timedOut = item.reason === 'timeout';
        return dispatch(
          this,
          item.actor,
          'disconnected',
          'disconnected',
          r.to,
          r.id,
          { reason: item.reason, connection: item.connection, generation: item.generation },
          { type: 'disconnected', envelopeId: r.id, to: r.to, rpc: r.rpc, payload: r.payload, timedOut, reason: item.reason },
          this.onSent,
        );
      }
      case 'requestTimeout': {
        this.requestTimeouts.delete(item.envelopeId);
        const lost = this.network.expire(item.connection, item.generation, item.envelopeId, this.now);
        if (lost) notifyClosed(this, item.actor, item.connection, item.generation, 'timeout', lost);
        return null;
      }
      case 'connectionClosed': {
        const lost = this.network.closeIfCurrent(item.connection, item.generation, item.reason);
        if (lost) notifyClosed(this, item.actor, item.connection, item.generation, item.reason, lost);
        return null;
      }
      case 'fault':
        return applyTimedFault(this, this.faultById(item.fault) as TimedFault, (actor, event, label) =>
          dispatch(this, actor, 'fault', event.type, null, null, event, event, this.onSent, label),
        );
      case 'restart':
        return processFault(this, item.process, item.label, 'restart', () => restartProcess(this, item.process));
      case 'resume':
        return processFault(this, item.process, item.label, 'resume', () => resumeProcess(this, item.process));
    }
  }

  private stop(reason: StopReason, detail: string | null = null): null {
    this.stopReason = reason;
    this.stopDetail = detail;
    this.hash.update(`stop:${reason}@${this.now}#${this.stepIndex}`);
    if (this.options.record) this.takeCheckpoint();
    return null;
  }

  // ---------------------------------------------------------------- trace and checkpoints

  envelopeLostWhileHeld(id: number): void {
    if (!this.options.record) return;
    const r = this.envelopes[id];
    if (r && r.fate === 'in-flight') r.fate = 'lost';
  }

  envelopeArrived(id: number, lost: boolean, why?: string): void {
    const record = this.options.record ? this.envelopes[id] : undefined;
    if (!record) return;
    record.fate = lost ? 'lost' : 'delivered';
    record.deliveredStep = this.stepIndex;
    if (lost && why && record.fault === null) record.fault = why;
  }

  record(step: Omit<TraceStep, 'i' | 't'>): TraceStep {
    // A long run keeps a million of these: build each with one shape, and share the empty arrays and
    // the empty detail, so a step costs the garbage collector as little as it can.
    const rec: TraceStep = {
      i: this.stepIndex,
      t: this.now,
      actor: step.actor,
      kind: step.kind,
      label: step.label,
      from: step.from,
      envelope: step.envelope,
      detail: step.detail !== null && isEmptyObject(step.detail) ? NO_DETAIL : step.detail,
      before: step.before,
      after: step.after,
      sent: step.sent.length > 0 ? step.sent : EMPTY,
      facts: step.facts.length > 0 ? step.facts : EMPTY,
      faults: step.faults.length > 0 ? step.faults : EMPTY,
    };
    if (rec.kind !== 'lost' && rec.faults.some((f) => !LOST_ON_THE_WAY.test(f))) {
      this.lastFaultAt = this.now;
      this.quietDeadline = null;
    }
    const previous = this.stepIndex > 0 ? this.lastStepAt : Number.NaN;
    this.instantSteps = previous === this.now ? this.instantSteps + 1 : 1;
    this.lastStepAt = this.now;
    this.stepIndex++;
    this.hash.update(
      `S${rec.i}@${rec.t}|${rec.actor}|${rec.kind}|${rec.label}|${rec.from}|${rec.envelope}|${rec.before}>${rec.after}|${rec.sent.join(',')}|${rec.faults.join(';')}|${rec.facts.length ? JSON.stringify(rec.facts) : ''}`,
    );
    if (this.options.record) {
      this.steps.push(rec);
      if (this.stepIndex % this.options.checkpointEvery === 0) this.takeCheckpoint();
    }
    return rec;
  }

  get traceHash(): string {
    return this.hash.digest();
  }

  takeCheckpoint(): Checkpoint {
    const last = this.checkpoints[this.checkpoints.length - 1];
    if (last && last.step === this.stepIndex) return last;
    this.compactQueue();
    const processes: [ProcessId, ProcessSnapshot][] = [];
    for (const [id, p] of this.processes)
      processes.push([id, { down: p.down, paused: p.paused, incarnation: p.incarnation, deferred: p.deferred.slice() }]);
    const cp: Checkpoint = {
      step: this.stepIndex,
      now: this.now,
      seq: this.seq,
      envelopeCounter: this.envelopeCounter,
      queue: this.queue.toArray(),
      cancelled: [...this.cancelled],
      timerIndex: [...this.timerIndex],
      foreground: [...this.foreground],
      deferredForeground: this.deferredForeground,
      firstSeq: this.firstSeq,
      requestTimeouts: [...this.requestTimeouts],
      network: this.network.snapshot(),
      instantSteps: this.instantSteps,
      pendingStop: this.pendingStop,
      quietDeadline: this.quietDeadline,
      prng: this.prng.snapshot,
      hash: this.hash.state,
      faultCounters: [...this.faultCounters],
      openRequests: [...this.openRequests],
      lastFaultAt: this.lastFaultAt,
      processes,
      // XState snapshots are immutable values (contexts are replaced, never mutated), so keeping
      // references is a checkpoint
      actors: [...this.slots].map(([id, s]) => [id, s.ref.getSnapshot()] as [ActorId, unknown]),
    };
    if (this.options.record) this.checkpoints.push(cp);
    return cp;
  }

  // ---------------------------------------------------------------- reading state

  /** The current XState snapshot of every actor, keyed by our own actor ids. */
  actorSnapshots(): Map<ActorId, { value: unknown; context: unknown }> {
    const out = new Map<ActorId, { value: unknown; context: unknown }>();
    for (const [id, slot] of this.slots) {
      const s = slot.ref.getSnapshot();
      out.set(id, { value: s.value, context: s.context });
    }
    return out;
  }

  processStates(): Map<ProcessId, { down: boolean; paused: boolean; incarnation: number }> {
    const out = new Map<ProcessId, { down: boolean; paused: boolean; incarnation: number }>();
    for (const [id, p] of this.processes) out.set(id, { down: p.down, paused: p.paused, incarnation: p.incarnation });
    return out;
  }

  /** Envelopes sent and not yet delivered, in delivery order. */
  inFlight(): Envelope[] {
    const out: Envelope[] = [];
    for (const q of this.queue.sorted()) if (!this.cancelled.has(q.seq) && q.item.kind === 'deliver') out.push(q.item.envelope);
    for (const p of this.processes.values()) for (const d of p.deferred) if (d.item.kind === 'deliver') out.push(d.item.envelope);
    return out;
  }

  /** The connections between actors: generation, status and the requests in flight on each. */
  connections(): ReturnType<Network['snapshot']> {
    return this.network.snapshot();
  }

  get actorIds(): ActorId[] {
    return [...this.slots.keys()];
  }

  get specList(): readonly ActorSpec[] {
    return this.specs;
  }
}

export { connectionKey } from './network';
