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
import { type ActorSnapshot, startActor } from './actorDriver';
import type { Checkpoint, ProcessSnapshot } from './checkpoint';
import { KernelCore, type Slot, type StepRecord } from './core';
import { deliver, dispatch } from './dispatch';
import type { Effect, FactBase } from './effects';
import type { ActorId, Envelope } from './envelope';
import { EventQueue, type Queued } from './eventQueue';
import { type ProcessId, processOf, type TimedFault } from './faults';
import { StreamHash } from './hash';
import { Network } from './network';
import { Prng } from './prng';
import { applyTimedFault, processFault, restartProcess, resumeProcess } from './processFaults';
import type { QueueItem } from './queueItem';
import { targetOf } from './queueItem';
import { KIND_CODE, Recorder } from './recorder';
import { EnvelopeList, type PayloadSource, StepList } from './traceLists';
import { notifyClosed, type OnSent } from './transport';
import { type ActorSpec, DEFAULT_MAX_STEPS_PER_INSTANT, type KernelOptions, type StopReason } from './types';

export type { ActorSpec, KernelOptions, NetworkSpec, StepKind, StopReason, TraceStep } from './types';
export { DEFAULT_MAX_STEPS_PER_INSTANT } from './types';

/** A step's line for an envelope the network lost as a consequence (a stalled or closed connection), not a fault applied. */
const LOST_ON_THE_WAY = /^\w+ #\d+ lost: /;

/** Words that open each part of the traceHash (docs/trace-format.md). */
const H_SEED = 0x53454544;
const H_STEP = 0x53544550;
const H_ENVELOPE = 0x454e5645;
const H_STOP = 0x53544f50;
const H_NONE = 0x4e4f4e45;

export class Simulation extends KernelCore {
  /** The actor of the last step taken. */
  lastActor: ActorId | null = null;
  /** When set, receives the payload of every envelope sent (a trace rebuilding payloads by replay). */
  payloadSink: ((id: number, payload: Readonly<Record<string, unknown>>) => void) | null = null;
  /** When set, receives the facts of every step that has some (fast mode's verdict input). */
  factSink: ((i: number, t: number, facts: readonly FactBase[]) => void) | null = null;
  /**
   * When set, receives every step as it is taken (the search's effect hash, in fast mode), with the
   * content hashes of its actor, label and states the traceHash folds (so it need not hash them again).
   */
  stepSink: ((t: number, step: StepRecord, actor: number, label: number, before: number, after: number) => void) | null = null;

  private readonly onSent: OnSent = (env, deliverAt, fate, fault, timeoutMs) => {
    this.recorder?.envelopeSent(env, deliverAt, fate, fault, timeoutMs);
    this.payloadSink?.(env.id, env.payload);
    const names = this.names;
    const h = this.hash
      .int(H_ENVELOPE)
      .int(env.id)
      .int(names.hashes[names.id(env.rpc)] as number)
      .int(names.hashes[names.id(env.from)] as number)
      .int(names.hashes[names.id(env.to)] as number);
    if (deliverAt === null) h.int(H_NONE);
    else h.num(deliverAt);
    h.value(env.payload);
  };

  private constructor(specs: readonly ActorSpec[], options: KernelOptions) {
    super(specs, options);
    if (options.record) this.recorder = new Recorder(this.names);
  }

  /** The checkpoints this run kept (none when it records nothing). */
  get checkpoints(): readonly Checkpoint[] {
    return this.recorder?.checkpoints ?? [];
  }

  /** The steps recorded so far. */
  get steps(): StepList {
    return new StepList(this.requireRecorder());
  }

  /** The envelopes recorded so far; payloads are read with `payloadOf` (none: an empty payload). */
  envelopeList(payloadOf: PayloadSource = () => undefined): EnvelopeList {
    return new EnvelopeList(this.requireRecorder(), payloadOf);
  }

  get envelopes(): EnvelopeList {
    return this.envelopeList();
  }

  private requireRecorder(): Recorder {
    if (!this.recorder) throw new Error('this run records no trace (record: false)');
    return this.recorder;
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
    sim.hash.int(H_SEED).num(options.seed);
    sim.takeCheckpoint();
    return sim;
  }

  /** A run continued from a checkpoint; with `record: false` it only advances state (for seeking). */
  static restore(specs: readonly ActorSpec[], options: KernelOptions, checkpoint: Checkpoint, recorder?: Recorder): Simulation {
    const sim = new Simulation(specs, options);
    if (recorder) {
      // a fork: it records on after the steps it shares (trace/fork.ts), with their names
      sim.names = recorder.names;
      sim.recorder = recorder;
    } else if (sim.recorder) sim.recorder.firstEnvelope = checkpoint.envelopeCounter;
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
    sim.lastStepAt = checkpoint.lastStepAt;
    for (const [id, p] of checkpoint.processes)
      sim.processes.set(id, {
        down: p.down,
        paused: p.paused,
        incarnation: p.incarnation,
        deferred: p.deferred.slice() as Queued<QueueItem>[],
      });
    const snapshots = new Map(checkpoint.actors as readonly [ActorId, ActorSnapshot][]);
    for (const spec of specs) sim.attach(spec, snapshots.get(spec.id));
    return sim;
  }

  private attach(spec: ActorSpec, snapshot: ActorSnapshot | undefined): void {
    const ref = startActor(spec, snapshot, this.options.runner ?? 'compiled', (effect: Effect) => {
      if (this.collecting === spec.id) this.effects[this.effectCount++] = effect;
    });
    const slot: Slot = { spec, process: processOf(spec.id), ref };
    this.slots.set(spec.id, slot);
    if (spec.refusesConnections) this.listeners.set(slot.process, slot);
  }

  // ---------------------------------------------------------------- running

  get done(): boolean {
    return this.stopReason !== null;
  }

  /** Runs until the run is over (quiescent, or a limit), or until `untilStep` steps were taken. */
  run(untilStep = Number.POSITIVE_INFINITY): void {
    while (this.stepIndex < untilStep && this.step()) {
      /* keep stepping */
    }
  }

  /** Takes one step; returns false once the run is over. */
  step(): boolean {
    if (this.stopReason) return false;
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
      if (this.handle(item)) return true;
    }
  }

  /** Carries out one queue entry; false when it turned out to have nothing to do (no step is recorded). */
  private handle(item: QueueItem): boolean {
    switch (item.kind) {
      case 'deliver':
        return deliver(this, item.envelope, item.fg, item.duplicate, this.onSent);
      case 'timer':
        this.timerIndex.delete(item.index);
        return dispatch(
          this,
          item.actor,
          'timer',
          item.name,
          null,
          null,
          item.data,
          { type: item.name, key: item.key, data: item.data, now: this.now },
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
          { type: item.name, from: item.from, args: item.args, now: this.now },
          this.onSent,
        );
      case 'boot':
        return dispatch(this, item.actor, 'boot', 'boot', null, null, null, { type: 'boot', now: this.now }, this.onSent);
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
          {
            type: 'disconnected',
            envelopeId: r.id,
            to: r.to,
            rpc: r.rpc,
            payload: r.payload,
            timedOut,
            reason: item.reason,
            now: this.now,
          },
          this.onSent,
        );
      }
      case 'requestTimeout': {
        this.requestTimeouts.delete(item.envelopeId);
        const lost = this.network.expire(item.connection, item.generation, item.envelopeId, this.now);
        if (lost) notifyClosed(this, item.actor, item.connection, item.generation, 'timeout', lost);
        return false;
      }
      case 'connectionClosed': {
        // a generation nothing was ever sent on is no connection for Kafka (it is opened by a request)
        const used = (this.network.get(item.connection)?.toServerAt ?? 0) > 0;
        const lost = this.network.closeIfCurrent(item.connection, item.generation, item.reason);
        if (!lost) return false;
        if (lost.length > 0 || !used || !this.slots.get(item.actor)?.spec.connectionNotices) {
          notifyClosed(this, item.actor, item.connection, item.generation, item.reason, lost);
          return false;
        }
        // an idle connection closed (its server went down): a client that keeps connection states
        // is told (NetworkClient.handleDisconnections → processDisconnection, nothing to cancel)
        const server = this.network.get(item.connection)?.server ?? '';
        return dispatch(
          this,
          item.actor,
          'disconnected',
          'connectionClosed',
          server,
          null,
          { reason: item.reason, connection: item.connection, generation: item.generation },
          { type: 'connectionClosed', to: server, reason: item.reason, now: this.now },
          this.onSent,
        );
      }
      case 'fault': {
        const fault = this.preparedFault(this.faultById(item.fault) as TimedFault);
        const again = fault.action.type === 'signal' ? fault.action.event.tryAgainInMs : undefined;
        if (typeof again === 'number') this.push(this.now + again, { kind: 'fault', fault: item.fault, fg: true });
        return applyTimedFault(this, fault, (actor, event, label) =>
          dispatch(this, actor, 'fault', event.type, null, null, event, { ...event, now: this.now }, this.onSent, label),
        );
      }
      case 'restart':
        return processFault(this, item.process, item.label, 'restart', () => restartProcess(this, item.process));
      case 'resume':
        return processFault(this, item.process, item.label, 'resume', () => resumeProcess(this, item.process));
    }
  }

  /**
   * A timed signal completed at its instant by the options' prepareSignal; an event naming
   * `deliverTo` goes to that actor instead (an operator's tool reaching a partition's current leader).
   */
  private preparedFault(fault: TimedFault): TimedFault {
    const prepare = this.options.prepareSignal;
    if (!prepare || fault.action.type !== 'signal') return fault;
    const event = prepare(fault.action.event, (a) => this.liveContext(a), this.now);
    const to = typeof event.deliverTo === 'string' ? event.deliverTo : null;
    return {
      ...fault,
      ...(to !== null ? { process: processOf(to) } : {}),
      action: { ...fault.action, actor: to ?? fault.action.actor, event },
    };
  }

  /** An actor's context, if its process is up and not paused (what another process could ask it). */
  private liveContext(actor: ActorId): unknown {
    const proc = this.processes.get(processOf(actor));
    if (!proc || proc.down || proc.paused) return undefined;
    return this.slots.get(actor)?.ref.getSnapshot().context;
  }

  private stop(reason: StopReason, detail: string | null = null): false {
    this.stopReason = reason;
    this.stopDetail = detail;
    // the last checkpoint holds the hash before the stop is folded in: a fork from it runs on
    if (this.recorder) this.takeCheckpoint();
    this.hash.int(H_STOP).str(reason).num(this.now).int(this.stepIndex);
    return false;
  }

  // ---------------------------------------------------------------- trace and checkpoints

  envelopeLostWhileHeld(id: number): void {
    this.recorder?.lostWhileHeld(id, this.stepIndex);
  }

  envelopeArrived(id: number, lost: boolean, why?: string): void {
    this.recorder?.arrived(id, lost, this.stepIndex, why);
  }

  record(step: StepRecord): true {
    const faults = step.faults;
    if (step.kind !== 'lost' && faults.length > 0 && faults.some((f) => !LOST_ON_THE_WAY.test(f))) {
      this.lastFaultAt = this.now;
      this.quietDeadline = null;
    }
    const previous = this.stepIndex > 0 ? this.lastStepAt : Number.NaN;
    this.instantSteps = previous === this.now ? this.instantSteps + 1 : 1;
    this.lastStepAt = this.now;
    const i = this.stepIndex++;
    this.lastActor = step.actor;
    // interned names, folded into the hash by their content hashes
    const names = this.names;
    const nh = names.hashes;
    const actor = names.id(step.actor);
    const label = names.id(step.label);
    const before = names.id(step.before);
    // most steps leave the state as it was: one lookup then
    const after = step.after === step.before ? before : names.id(step.after);
    const from = step.from === null ? -1 : names.id(step.from);
    const h = this.hash
      .int(H_STEP)
      .int(i)
      .num(this.now)
      .int(nh[actor] as number)
      .int(KIND_CODE[step.kind])
      .int(nh[label] as number)
      .int(from < 0 ? H_NONE : (nh[from] as number))
      .int(step.envelope ?? -1)
      .int(nh[before] as number)
      .int(nh[after] as number)
      .int(step.sent.length);
    // index loops: these run every step, and an iterator here cost an allocation per element
    const sent = step.sent;
    for (let j = 0; j < sent.length; j++) h.int(sent[j] as number);
    h.int(faults.length);
    for (let j = 0; j < faults.length; j++) h.str(faults[j] as string);
    const facts = step.facts;
    h.int(facts.length);
    for (let j = 0; j < facts.length; j++) h.value(facts[j]);
    if (this.factSink !== null && step.facts.length > 0) this.factSink(i, this.now, step.facts);
    if (this.stepSink !== null)
      this.stepSink(this.now, step, nh[actor] as number, nh[label] as number, nh[before] as number, nh[after] as number);
    const rec = this.recorder;
    if (rec) {
      rec.step(
        this.now,
        step.kind,
        actor,
        from,
        label,
        before,
        after,
        step.envelope,
        this.envelopeCounter,
        step.detail,
        step.facts,
        faults,
      );
      if (this.stepIndex % this.options.checkpointEvery === 0) this.takeCheckpoint();
    }
    return true;
  }

  get traceHash(): string {
    return this.hash.digest();
  }

  takeCheckpoint(): Checkpoint {
    const checkpoints = this.recorder?.checkpoints;
    const last = checkpoints?.[checkpoints.length - 1];
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
      lastStepAt: this.lastStepAt,
      processes,
      // snapshots are immutable values (handlers replace contexts, never mutate them), so keeping
      // references to them is a checkpoint
      actors: [...this.slots].map(([id, s]) => [id, s.ref.getSnapshot()] as [ActorId, ActorSnapshot]),
    };
    // a recording run keeps it packed (packedCheckpoint.ts); the caller gets the objects
    this.recorder?.keepCheckpoint(cp);
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
    // arrived at their server, waiting unread behind the request it serves (serverReads.ts)
    for (const c of this.network.connections()) for (const r of c.readings) for (const u of r.unread) out.push(u.envelope);
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
