/**
 * The kernel: virtual clock, one event queue ordered by (time, seq), a seeded PRNG, a network of
 * envelopes with fault hooks, and the actors (XState machines) it drives.
 *
 * One call to `step()` takes the next event from the queue, hands it to one actor, carries out the
 * effects that actor emitted, and records a TraceStep. Nothing here reads the wall clock or
 * an unseeded random source: time is `now`, randomness is `prng`, deadlines are queued timer events.
 */
import { type Actor, type AnyStateMachine, createActor } from 'xstate';
import type { Checkpoint, ProcessSnapshot } from './checkpoint';
import type { Effect, FactBase } from './effects';
import { type ActorId, type Envelope, type EnvelopeRecord, isRequestRpc } from './envelope';
import { EventQueue, type Queued } from './eventQueue';
import {
  actorInProcess,
  type EnvelopeFault,
  envelopeMatches,
  type KernelFault,
  type PointFault,
  type ProcessId,
  pointMatches,
  processOf,
  type TimedFault,
} from './faults';
import { StreamHash } from './hash';
import { Prng, seedPrng } from './prng';
import { stateValueToString } from './stateValue';

export interface ActorSpec {
  readonly id: ActorId;
  readonly kind: string;
  readonly logic: AnyStateMachine;
  readonly input: unknown;
  /** Receives { type: 'boot' } at `bootAt` (default 0): applications start their work this way. */
  readonly boot?: boolean;
  readonly bootAt?: number;
}

export interface NetworkSpec {
  readonly latencyMs: number;
  readonly jitterMs: number;
  readonly links: readonly { from: string; to: string; latencyMs: number }[];
}

export interface KernelOptions {
  readonly seed: number;
  readonly network: NetworkSpec;
  readonly faults: readonly KernelFault[];
  /** Take a checkpoint every this many steps (seeking replays at most this many). */
  readonly checkpointEvery: number;
  readonly maxSteps: number;
  readonly maxTimeMs: number;
  /** How long to keep running background traffic once no foreground work is left. */
  readonly settleMs: number;
  /** The same, while some process is down (lets session timeouts and transaction timeouts show). */
  readonly settleMsWhileDown: number;
  /** The same, right after a fault was applied (lets request timeouts and retries show). */
  readonly settleMsAfterFault: number;
  /** When false (replay for seeking), no trace is recorded. */
  readonly record: boolean;
}

export type StepKind = 'deliver' | 'timer' | 'call' | 'fault' | 'lost' | 'disconnected' | 'boot';

export interface TraceStep {
  readonly i: number;
  readonly t: number;
  readonly actor: ActorId;
  readonly kind: StepKind;
  /** RPC name, timer name, call name or fault label. */
  readonly label: string;
  readonly from: ActorId | null;
  readonly envelope: number | null;
  readonly detail: Readonly<Record<string, unknown>> | null;
  readonly before: string;
  readonly after: string;
  readonly sent: readonly number[];
  readonly facts: readonly FactBase[];
  /** Faults applied during this step, in words. */
  readonly faults: readonly string[];
}

export type StopReason = 'quiescent' | 'max-steps' | 'max-time' | 'empty';

type QueueItem =
  | { kind: 'deliver'; envelope: Envelope; fg: boolean; duplicate: boolean }
  | {
      kind: 'timer';
      actor: ActorId;
      key: string;
      name: string;
      data: Record<string, unknown>;
      incarnation: number;
      fg: boolean;
    }
  | {
      kind: 'call';
      actor: ActorId;
      from: ActorId;
      name: string;
      args: Record<string, unknown>;
      incarnation: number;
      fg: true;
    }
  | { kind: 'boot'; actor: ActorId; fg: true }
  | { kind: 'fault'; fault: number; fg: true }
  | { kind: 'restart'; process: ProcessId; label: string; fg: true }
  | { kind: 'resume'; process: ProcessId; label: string; fg: true }
  | { kind: 'disconnected'; actor: ActorId; envelope: Envelope; incarnation: number; fg: true };

interface Slot {
  spec: ActorSpec;
  process: ProcessId;
  ref: Actor<AnyStateMachine>;
}

interface ProcessState {
  down: boolean;
  paused: boolean;
  incarnation: number;
  deferred: Queued<QueueItem>[];
}

const EMPTY: readonly never[] = Object.freeze([]);
const NO_DETAIL: Readonly<Record<string, unknown>> = Object.freeze({});

function isEmptyObject(o: Readonly<Record<string, unknown>>): boolean {
  for (const _ in o) return false;
  return true;
}

function targetOf(item: QueueItem): ActorId | null {
  switch (item.kind) {
    case 'deliver':
      return item.envelope.to;
    case 'fault':
    case 'restart':
    case 'resume':
      return null;
    default:
      return item.actor;
  }
}

export class Simulation {
  now = 0;
  stepIndex = 0;
  stopReason: StopReason | null = null;

  readonly steps: TraceStep[] = [];
  readonly envelopes: EnvelopeRecord[] = [];
  readonly checkpoints: Checkpoint[] = [];

  private seq = 0;
  private envelopeCounter = 0;
  private queue = new EventQueue<QueueItem>();
  private cancelled = new Set<number>();
  private timerIndex = new Map<string, { seq: number; fg: boolean }>();
  private foreground = 0;
  private quietDeadline: number | null = null;
  private prng: Prng;
  private hash = new StreamHash();
  private readonly processes = new Map<ProcessId, ProcessState>();
  private readonly slots = new Map<ActorId, Slot>();
  private faultCounters = new Map<number, number>();
  /** Requests delivered and not yet answered, by envelope id (a crash of their server resets them). */
  private openRequests = new Map<number, Envelope>();
  /** Virtual time of the last fault applied: a run keeps going a while after one, to show its consequences. */
  private lastFaultAt = Number.NEGATIVE_INFINITY;
  /** Per-link time of the last delivery: the network keeps each connection FIFO. */
  private linkClock = new Map<string, number>();

  // the step being processed
  private effects: Effect[] = [];
  private collecting: ActorId | null = null;

  private constructor(
    private readonly specs: readonly ActorSpec[],
    readonly options: KernelOptions,
  ) {
    this.prng = new Prng(seedPrng(options.seed));
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
    sim.foreground = checkpoint.foreground;
    sim.quietDeadline = checkpoint.quietDeadline;
    sim.prng = new Prng(checkpoint.prng);
    sim.hash = StreamHash.from(checkpoint.hash);
    sim.faultCounters = new Map(checkpoint.faultCounters);
    sim.openRequests = new Map(checkpoint.openRequests as [number, Envelope][]);
    sim.lastFaultAt = checkpoint.lastFaultAt;
    sim.linkClock = new Map(checkpoint.linkClock);
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

  // ---------------------------------------------------------------- queue

  private push(time: number, item: QueueItem): number {
    const seq = this.seq++;
    this.queue.push({ time, seq, item });
    if (item.fg) {
      this.foreground++;
      this.quietDeadline = null;
    }
    return seq;
  }

  private cancelSeq(seq: number, fg: boolean): void {
    if (this.cancelled.has(seq)) return;
    this.cancelled.add(seq);
    if (fg) this.foreground--;
    // re-armed timers leave cancelled entries behind; drop them once they outnumber the live ones
    if (this.cancelled.size > 256 && this.cancelled.size * 2 > this.queue.size) this.compactQueue();
  }

  /** Removes cancelled entries from the queue (the (time, seq) order of the others is unchanged). */
  private compactQueue(): void {
    if (this.cancelled.size === 0) return;
    const cancelled = this.cancelled;
    this.queue = new EventQueue(this.queue.toArray().filter((e) => !cancelled.has(e.seq)));
    this.cancelled = new Set();
  }

  /** Next live entry without removing it. */
  private peekLive(): Queued<QueueItem> | undefined {
    for (;;) {
      const top = this.queue.peek();
      if (!top) return undefined;
      if (!this.cancelled.has(top.seq)) return top;
      this.queue.pop();
      this.cancelled.delete(top.seq);
    }
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
      const next = this.peekLive();
      if (!next) return this.stop('empty');
      if (this.foreground === 0) {
        if (this.quietDeadline === null) this.quietDeadline = this.now + this.settleWindow();
        if (next.time > this.quietDeadline) return this.stop('quiescent');
      }
      if (this.stepIndex >= this.options.maxSteps) return this.stop('max-steps');
      if (next.time > this.options.maxTimeMs) return this.stop('max-time');

      this.queue.pop();
      if (next.item.fg) this.foreground--;
      this.now = next.time;
      const item = next.item;

      const target = targetOf(item);
      if (target !== null) {
        const proc = this.processes.get(processOf(target));
        if (proc) {
          // timers, calls and notices of an earlier incarnation died with it
          if (item.kind === 'timer' || item.kind === 'call' || item.kind === 'disconnected') {
            if (proc.down || proc.incarnation !== item.incarnation) continue;
          }
          // a process that is down at its start time starts when it is restarted (until then
          // the held boot is no work the run waits for)
          if (item.kind === 'boot' && proc.down) {
            proc.deferred.push(next);
            continue;
          }
          // a paused process holds its events until resumed
          if (proc.paused && !proc.down) {
            proc.deferred.push(next);
            if (item.fg) this.foreground++;
            continue;
          }
        }
      }
      return this.handle(item);
    }
  }

  private handle(item: QueueItem): TraceStep {
    switch (item.kind) {
      case 'deliver':
        return this.deliver(item.envelope, item.duplicate);
      case 'timer':
        this.timerIndex.delete(`${item.actor}|${item.key}`);
        return this.dispatch(item.actor, 'timer', item.name, null, null, item.data, {
          type: item.name,
          key: item.key,
          data: item.data,
        });
      case 'call':
        return this.dispatch(item.actor, 'call', item.name, item.from, null, item.args, {
          type: item.name,
          from: item.from,
          args: item.args,
        });
      case 'boot':
        return this.dispatch(item.actor, 'boot', 'boot', null, null, null, { type: 'boot' });
      case 'disconnected':
        return this.dispatch(item.actor, 'disconnected', 'disconnected', item.envelope.to, item.envelope.id, null, {
          type: 'disconnected',
          envelopeId: item.envelope.id,
          to: item.envelope.to,
          rpc: item.envelope.rpc,
          payload: item.envelope.payload,
        });
      case 'fault':
        return this.applyTimedFault(this.faultById(item.fault) as TimedFault);
      case 'restart':
        return this.processFault(item.process, item.label, 'restart', () => this.restartProcess(item.process));
      case 'resume':
        return this.processFault(item.process, item.label, 'resume', () => this.resumeProcess(item.process));
    }
  }

  private stop(reason: StopReason): null {
    this.stopReason = reason;
    this.hash.update(`stop:${reason}@${this.now}#${this.stepIndex}`);
    if (this.options.record) this.takeCheckpoint();
    return null;
  }

  /** How long background traffic may run once no foreground work is left. */
  private settleWindow(): number {
    // a fault was just applied, or a process is down or paused: give timeouts time to show
    for (const p of this.processes.values()) if (p.down || p.paused) return this.options.settleMsWhileDown;
    if (this.now - this.lastFaultAt < this.options.settleMsAfterFault) return this.options.settleMsAfterFault;
    return this.options.settleMs;
  }

  private faultById(id: number): KernelFault {
    const f = this.options.faults.find((x) => x.id === id);
    if (!f) throw new Error(`unknown fault ${id}`);
    return f;
  }

  // ---------------------------------------------------------------- delivering

  private deliver(env: Envelope, duplicate: boolean): TraceStep {
    const targetProcess = this.processes.get(processOf(env.to));
    const record = this.options.record ? this.envelopes[env.id] : undefined;
    const staleResponse = env.toIncarnation !== null && targetProcess !== undefined && targetProcess.incarnation !== env.toIncarnation;
    if (!targetProcess || targetProcess.down || staleResponse || !this.slots.has(env.to)) {
      if (record && !duplicate) {
        record.fate = 'lost';
        record.deliveredStep = this.stepIndex;
      }
      // the sender of a request to a dead peer sees its connection fail
      const sender = this.processes.get(processOf(env.from));
      if (isRequestRpc(env.rpc) && sender && !sender.down && sender.incarnation === env.fromIncarnation && !staleResponse) {
        this.push(this.now + this.latency(env.to, env.from), {
          kind: 'disconnected',
          actor: env.from,
          envelope: env,
          incarnation: env.fromIncarnation,
          fg: true,
        });
      }
      const why = !targetProcess || targetProcess.down ? `${env.to} is down` : 'the connection it belonged to is gone';
      return this.record({
        actor: env.to,
        kind: 'lost',
        label: env.rpc,
        from: env.from,
        envelope: env.id,
        detail: null,
        before: 'down',
        after: 'down',
        sent: EMPTY,
        facts: EMPTY,
        faults: [`${env.rpc} #${env.id} lost: ${why}`],
      });
    }
    if (record && !duplicate) {
      record.fate = 'delivered';
      record.deliveredStep = this.stepIndex;
    }
    if (isRequestRpc(env.rpc)) this.openRequests.set(env.id, env);
    return this.dispatch(env.to, 'deliver', env.rpc, env.from, env.id, null, {
      type: env.rpc,
      from: env.from,
      envelopeId: env.id,
      inReplyTo: env.inReplyTo,
      payload: env.payload,
    });
  }

  /** Hands one event to one actor and carries out what it emitted. */
  private dispatch(
    actorId: ActorId,
    kind: StepKind,
    label: string,
    from: ActorId | null,
    envelope: number | null,
    detail: Readonly<Record<string, unknown>> | null,
    event: { type: string } & Record<string, unknown>,
    appliedFault?: string,
  ): TraceStep {
    const slot = this.slots.get(actorId);
    if (!slot) throw new Error(`no actor ${actorId}`);
    const before = stateValueToString(slot.ref.getSnapshot().value);
    this.effects = [];
    this.collecting = actorId;
    // every event carries the virtual time: machines have no other clock
    slot.ref.send({ ...event, now: this.now });
    this.collecting = null;
    const after = stateValueToString(slot.ref.getSnapshot().value);
    const out = this.applyEffects(actorId, this.effects);
    if (appliedFault) out.faults = [appliedFault, ...out.faults];
    return this.record({
      actor: actorId,
      kind,
      label,
      from,
      envelope,
      detail,
      before,
      after,
      sent: out.sent,
      facts: out.facts,
      faults: out.faults,
    });
  }

  private applyEffects(actorId: ActorId, effects: readonly Effect[]): { sent: number[]; facts: FactBase[]; faults: string[] } {
    const sent: number[] = [];
    const facts: FactBase[] = [];
    const faults: string[] = [];
    let crash: PointFault | null = null;
    const process = processOf(actorId);
    const incarnation = this.processes.get(process)?.incarnation ?? 0;
    for (const effect of effects) {
      switch (effect.type) {
        case 'send': {
          const id = this.send(actorId, effect, faults);
          sent.push(id);
          break;
        }
        case 'timer': {
          const k = `${actorId}|${effect.key}`;
          const old = this.timerIndex.get(k);
          if (old) this.cancelSeq(old.seq, old.fg);
          const fg = !effect.background;
          const seq = this.push(this.now + Math.max(0, effect.delay), {
            kind: 'timer',
            actor: actorId,
            key: effect.key,
            name: effect.name,
            data: effect.data ?? {},
            incarnation,
            fg,
          });
          this.timerIndex.set(k, { seq, fg });
          break;
        }
        case 'cancel': {
          const k = `${actorId}|${effect.key}`;
          const old = this.timerIndex.get(k);
          if (old) {
            this.cancelSeq(old.seq, old.fg);
            this.timerIndex.delete(k);
          }
          break;
        }
        case 'call':
          this.push(this.now, {
            kind: 'call',
            actor: effect.to,
            from: actorId,
            name: effect.name,
            args: effect.args ?? {},
            incarnation: this.processes.get(processOf(effect.to))?.incarnation ?? 0,
            fg: true,
          });
          break;
        case 'fact':
          facts.push(effect.fact);
          break;
        case 'point':
          if (!crash) crash = this.matchPoint(actorId, effect.point, effect.detail);
          break;
      }
    }
    if (crash) {
      faults.push(crash.label);
      if (crash.action === 'pause') {
        const proc = this.processes.get(crash.process);
        if (proc && !proc.down) proc.paused = true;
        this.push(this.now + (crash.restartAfterMs ?? 0), {
          kind: 'resume',
          process: crash.process,
          label: `resume ${crash.process} ${crash.restartAfterMs ?? 0} ms after: ${crash.label}`,
          fg: true,
        });
      } else {
        this.crashProcess(crash.process);
        if (crash.restartAfterMs !== null)
          this.push(this.now + crash.restartAfterMs, {
            kind: 'restart',
            process: crash.process,
            label: `restart ${crash.process} ${crash.restartAfterMs} ms after: ${crash.label}`,
            fg: true,
          });
      }
    }
    return { sent, facts: facts.length ? facts : (EMPTY as never), faults: faults.length ? faults : (EMPTY as never) };
  }

  private matchPoint(actorId: ActorId, point: string, detail: Record<string, unknown> | undefined): PointFault | null {
    for (const f of this.options.faults) {
      if (f.kind !== 'point' || !pointMatches(f, actorId, point, detail)) continue;
      const n = (this.faultCounters.get(f.id) ?? 0) + 1;
      this.faultCounters.set(f.id, n);
      if (n === f.nth) return f;
    }
    return null;
  }

  // ---------------------------------------------------------------- the network

  private latency(from: ActorId, to: ActorId): number {
    const net = this.options.network;
    let base = net.latencyMs;
    for (const l of net.links)
      if (actorInProcess(from, l.from) && actorInProcess(to, l.to)) {
        base = l.latencyMs;
        break;
      }
    return base + (net.jitterMs > 0 ? this.prng.int(0, net.jitterMs) : 0);
  }

  private send(from: ActorId, effect: Extract<Effect, { type: 'send' }>, faults: string[]): number {
    const id = this.envelopeCounter++;
    const fromProcess = this.processes.get(processOf(from));
    let toIncarnation: number | null = null;
    if (effect.inReplyTo !== undefined) {
      toIncarnation = this.openRequests.get(effect.inReplyTo)?.fromIncarnation ?? null;
      this.openRequests.delete(effect.inReplyTo);
    }
    const env: Envelope = {
      id,
      rpc: effect.rpc,
      from,
      to: effect.to,
      fromIncarnation: fromProcess?.incarnation ?? 0,
      toIncarnation,
      payload: effect.payload,
      inReplyTo: effect.inReplyTo ?? null,
      sentAt: this.now,
      sentStep: this.stepIndex,
      background: effect.background ?? false,
    };
    // fault hooks: the first envelope fault whose n-th match this is
    let fault: EnvelopeFault | null = null;
    for (const f of this.options.faults) {
      if (f.kind !== 'envelope' || !envelopeMatches(f.match, env)) continue;
      const n = (this.faultCounters.get(f.id) ?? 0) + 1;
      this.faultCounters.set(f.id, n);
      if (!fault && n >= f.nth && n < f.nth + f.count) fault = f;
    }
    const link = `${from}>${effect.to}`;
    let at = this.now + this.latency(from, effect.to);
    const fg = !env.background;
    let deliverAt: number | null = null;
    if (fault?.action === 'drop') {
      faults.push(`${env.rpc} #${id} dropped (${fault.label})`);
    } else if (fault?.action === 'delay') {
      // a delayed envelope leaves its connection's order: later ones may overtake it
      at += fault.delayMs;
      deliverAt = at;
      faults.push(`${env.rpc} #${id} delayed by ${fault.delayMs} ms (${fault.label})`);
      this.push(at, { kind: 'deliver', envelope: env, fg, duplicate: false });
    } else {
      at = Math.max(at, this.linkClock.get(link) ?? 0);
      this.linkClock.set(link, at);
      deliverAt = at;
      this.push(at, { kind: 'deliver', envelope: env, fg, duplicate: false });
      if (fault?.action === 'duplicate') {
        faults.push(`${env.rpc} #${id} duplicated (${fault.label})`);
        this.push(at + 1, { kind: 'deliver', envelope: env, fg, duplicate: true });
      }
    }
    if (this.options.record) {
      // spelled out rather than spread: one hidden class for every record a long run keeps
      this.envelopes[id] = {
        id,
        rpc: env.rpc,
        from,
        to: env.to,
        fromIncarnation: env.fromIncarnation,
        toIncarnation,
        payload: env.payload,
        inReplyTo: env.inReplyTo,
        sentAt: env.sentAt,
        sentStep: env.sentStep,
        background: env.background,
        deliverAt,
        deliveredStep: null,
        fate: fault?.action === 'drop' ? 'dropped' : 'in-flight',
        fault: fault ? fault.label : null,
        duplicateOf: null,
      };
    }
    this.hash.update(`E${id}|${env.rpc}|${from}>${env.to}|${deliverAt}|${JSON.stringify(env.payload)}`);
    return id;
  }

  // ---------------------------------------------------------------- faults on processes

  private applyTimedFault(fault: TimedFault): TraceStep {
    const action = fault.action;
    switch (action.type) {
      case 'crash':
        return this.processFault(fault.process, fault.label, 'crash', () => this.crashProcess(fault.process));
      case 'restart':
        return this.processFault(fault.process, fault.label, 'restart', () => this.restartProcess(fault.process));
      case 'pause':
        return this.processFault(fault.process, fault.label, 'pause', () => {
          const proc = this.processes.get(fault.process);
          if (proc && !proc.down) proc.paused = true;
        });
      case 'resume':
        return this.processFault(fault.process, fault.label, 'resume', () => this.resumeProcess(fault.process));
      case 'signal': {
        const proc = this.processes.get(processOf(action.actor));
        if (!proc || proc.down)
          return this.processFault(fault.process, `${fault.label} (not applied: ${action.actor} is down)`, 'signal', () => {});
        return this.dispatch(action.actor, 'fault', action.event.type, null, null, action.event, action.event, fault.label);
      }
    }
  }

  private processFault(process: ProcessId, faultLabel: string, label: string, apply: () => void): TraceStep {
    const describe = (): string => {
      const p = this.processes.get(process);
      return p ? (p.down ? 'down' : p.paused ? 'paused' : 'up') : 'unknown';
    };
    const before = describe();
    apply();
    return this.record({
      actor: process,
      kind: 'fault',
      label,
      from: null,
      envelope: null,
      detail: null,
      before,
      after: describe(),
      sent: EMPTY,
      facts: EMPTY,
      faults: [faultLabel],
    });
  }

  private crashProcess(process: ProcessId): void {
    const proc = this.processes.get(process);
    if (!proc || proc.down) return;
    for (const slot of this.slots.values()) {
      if (slot.process !== process) continue;
      this.collecting = null;
      slot.ref.send({ type: 'crash' });
    }
    proc.down = true;
    proc.paused = false;
    for (const d of proc.deferred) {
      if (d.item.fg) this.foreground--;
      if (d.item.kind === 'deliver' && this.options.record) {
        const r = this.envelopes[d.item.envelope.id];
        if (r && r.fate === 'in-flight') r.fate = 'lost';
      }
    }
    proc.deferred = [];
    proc.incarnation++;
    // requests it was holding (a join phase, a parked fetch …): their connections break
    for (const [id, env] of [...this.openRequests]) {
      if (processOf(env.to) !== process) continue;
      this.openRequests.delete(id);
      const sender = this.processes.get(processOf(env.from));
      if (sender && !sender.down && sender.incarnation === env.fromIncarnation)
        this.push(this.now + this.latency(env.to, env.from), {
          kind: 'disconnected',
          actor: env.from,
          envelope: env,
          incarnation: env.fromIncarnation,
          fg: true,
        });
    }
    // its timers and pending calls die with it
    for (const q of this.queue.toArray()) {
      const it = q.item;
      if ((it.kind === 'timer' || it.kind === 'call') && processOf(it.actor) === process) this.cancelSeq(q.seq, it.fg);
    }
    for (const k of [...this.timerIndex.keys()]) if (processOf(k.slice(0, k.indexOf('|'))) === process) this.timerIndex.delete(k);
  }

  private restartProcess(process: ProcessId): void {
    const proc = this.processes.get(process);
    if (!proc) return;
    if (!proc.down) this.crashProcess(process);
    proc.down = false;
    const boots = proc.deferred;
    proc.deferred = [];
    for (const slot of this.slots.values()) {
      if (slot.process !== process) continue;
      this.push(this.now, {
        kind: 'call',
        actor: slot.spec.id,
        from: process,
        name: 'restart',
        args: {},
        incarnation: proc.incarnation,
        fg: true,
      });
    }
    // after the restart calls: the boots it missed while down
    for (const b of boots) this.push(this.now, b.item);
  }

  private resumeProcess(process: ProcessId): void {
    const proc = this.processes.get(process);
    if (!proc || !proc.paused) return;
    proc.paused = false;
    const deferred = proc.deferred;
    proc.deferred = [];
    for (const d of deferred) {
      if (d.item.fg) this.foreground--;
      const seq = this.push(this.now, d.item);
      // a held timer is still the one its key names: cancelling or re-arming it must reach the new entry
      if (d.item.kind === 'timer') {
        const k = `${d.item.actor}|${d.item.key}`;
        if (this.timerIndex.get(k)?.seq === d.seq) this.timerIndex.set(k, { seq, fg: d.item.fg });
      }
    }
  }

  // ---------------------------------------------------------------- trace and checkpoints

  private record(step: Omit<TraceStep, 'i' | 't'>): TraceStep {
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
    if (rec.faults.length > 0 && rec.kind !== 'lost') {
      this.lastFaultAt = this.now;
      this.quietDeadline = null;
    }
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
      foreground: this.foreground,
      quietDeadline: this.quietDeadline,
      prng: this.prng.snapshot,
      hash: this.hash.state,
      faultCounters: [...this.faultCounters],
      openRequests: [...this.openRequests],
      lastFaultAt: this.lastFaultAt,
      linkClock: [...this.linkClock],
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

  get actorIds(): ActorId[] {
    return [...this.slots.keys()];
  }

  get specList(): readonly ActorSpec[] {
    return this.specs;
  }
}
