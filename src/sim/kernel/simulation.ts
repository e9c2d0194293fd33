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
 */
import { type Actor, type AnyStateMachine, createActor } from 'xstate';
import type { Checkpoint, ProcessSnapshot } from './checkpoint';
import type { Effect, FactBase } from './effects';
import { type ActorId, type Envelope, type EnvelopeRecord, isRequestRpc, type RpcName } from './envelope';
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
import { type CloseReason, connectionKey, connectionName, type InFlightRequest, Network, type Route } from './network';
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
  /** Steps a run may take without virtual time advancing before it is stopped as a livelock. */
  readonly maxStepsPerInstant?: number;
}

/** Enough for a burst of every record a scenario may send at one instant, far short of a hang. */
export const DEFAULT_MAX_STEPS_PER_INSTANT = 1_000_000;

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

/**
 * Why a run ended. 'livelock': too many steps without virtual time advancing; 'invalid-time': an
 * event was scheduled at a time that is not a finite number at or after now. Both are the model's
 * defects, reported by the invariant checker.
 */
export type StopReason = 'quiescent' | 'max-steps' | 'max-time' | 'empty' | 'livelock' | 'invalid-time';

/** A request as its client's disconnect notice carries it. */
interface LostRequest {
  readonly id: number;
  readonly rpc: RpcName;
  readonly to: ActorId;
  readonly payload: Readonly<Record<string, unknown>>;
}

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
  | {
      kind: 'disconnected';
      actor: ActorId;
      request: LostRequest;
      incarnation: number;
      fg: boolean;
      reason: CloseReason;
      connection: string;
      generation: number;
    }
  /** A request's timeout (the client's NetworkClient checks it). */
  | {
      kind: 'requestTimeout';
      actor: ActorId;
      connection: string;
      generation: number;
      envelopeId: number;
      incarnation: number;
      fg: boolean;
    }
  /** The client notices that its connection broke (its peer went down or refused it). */
  | {
      kind: 'connectionClosed';
      actor: ActorId;
      connection: string;
      generation: number;
      reason: CloseReason;
      incarnation: number;
      fg: boolean;
    };

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
/** A step's line for an envelope the network lost as a consequence (a stalled or closed connection), not a fault applied. */
const LOST_ON_THE_WAY = /^\w+ #\d+ lost: /;
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

/** Seqs handed out by pushFirst: unique, and below every ordinary seq (which count up from 0). */
const FIRST_SEQ_BASE = -(2 ** 52);

export class Simulation {
  now = 0;
  stepIndex = 0;
  stopReason: StopReason | null = null;
  /** For 'livelock' and 'invalid-time': what happened, in words. */
  stopDetail: string | null = null;

  readonly steps: TraceStep[] = [];
  readonly envelopes: EnvelopeRecord[] = [];
  readonly checkpoints: Checkpoint[] = [];

  private seq = 0;
  private envelopeCounter = 0;
  private queue = new EventQueue<QueueItem>();
  private cancelled = new Set<number>();
  private timerIndex = new Map<string, { seq: number; fg: boolean }>();
  /** Live queue entries that keep the run going (by seq); cancelling one that already left the queue changes nothing. */
  private foreground = new Set<number>();
  /** Entries that keep the run going held by paused processes. */
  private deferredForeground = 0;
  /** Counter of pushFirst's seqs (below every ordinary seq). */
  private firstSeq = 0;
  private quietDeadline: number | null = null;
  private prng: Prng;
  private hash = new StreamHash();
  private readonly processes = new Map<ProcessId, ProcessState>();
  private readonly slots = new Map<ActorId, Slot>();
  private faultCounters = new Map<number, number>();
  /** Requests delivered and not yet answered, by envelope id (their answer goes to the incarnation and connection generation that asked). */
  private openRequests = new Map<number, Envelope>();
  /** Virtual time of the last fault applied: a run keeps going a while after one, to show its consequences. */
  private lastFaultAt = Number.NEGATIVE_INFINITY;
  private network = new Network();
  /** The timeout entry of each request in flight, by request envelope id. */
  private requestTimeouts = new Map<number, { seq: number; fg: boolean }>();
  /** Steps taken so far at the current instant. */
  private instantSteps = 0;
  /** A kernel assertion failed during the last step: the run stops before the next. */
  private pendingStop: { reason: StopReason; detail: string } | null = null;

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

  // ---------------------------------------------------------------- queue

  /** Queues an item; a time that is not finite or lies in the past is refused and stops the run. */
  private push(time: number, item: QueueItem): number {
    const seq = this.seq++;
    if (!Number.isFinite(time) || time < this.now) {
      if (!this.pendingStop)
        this.pendingStop = {
          reason: 'invalid-time',
          detail: `${item.kind}${'name' in item ? ` ${item.name}` : ''}${'actor' in item ? ` for ${item.actor}` : ''} scheduled at ${time} (now ${this.now})`,
        };
      return seq;
    }
    this.queue.push({ time, seq, item });
    if (item.fg) {
      this.foreground.add(seq);
      this.quietDeadline = null;
    }
    return seq;
  }

  /**
   * Queues an entry ahead of everything already queued for the same time (in the order of these
   * calls): its seq comes from a counter far below the ordinary ones, and the queue orders equal
   * times by seq.
   */
  private pushFirst(time: number, item: QueueItem): number {
    const seq = FIRST_SEQ_BASE + this.firstSeq++;
    this.queue.push({ time, seq, item });
    if (item.fg) {
      this.foreground.add(seq);
      this.quietDeadline = null;
    }
    return seq;
  }

  private cancelSeq(seq: number): void {
    if (this.cancelled.has(seq)) return;
    this.cancelled.add(seq);
    this.foreground.delete(seq);
    // re-armed timers leave cancelled entries behind; drop them once they outnumber the live ones
    if (this.cancelled.size > 256 && this.cancelled.size * 2 > this.queue.size) this.compactQueue();
  }

  /** Removes cancelled entries from the queue (the (time, seq) order of the others is unchanged). */
  private compactQueue(): void {
    if (this.cancelled.size === 0) return;
    const cancelled = this.cancelled;
    this.queue = new EventQueue(this.queue.toArray().filter((e) => !cancelled.has(e.seq)));
    // a cancelled entry a paused process holds is not in the queue: its cancellation must outlive this
    const held = new Set<number>();
    for (const p of this.processes.values()) for (const d of p.deferred) if (cancelled.has(d.seq)) held.add(d.seq);
    this.cancelled = held;
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

  /** Entries that keep the run going: queued or held by a paused process. */
  get foregroundCount(): number {
    return this.foreground.size + this.deferredForeground;
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
      case 'disconnected': {
        const r = item.request;
        const timedOut = item.reason === 'timeout';
        return this.dispatch(
          item.actor,
          'disconnected',
          'disconnected',
          r.to,
          r.id,
          { reason: item.reason, connection: item.connection, generation: item.generation },
          { type: 'disconnected', envelopeId: r.id, to: r.to, rpc: r.rpc, payload: r.payload, timedOut, reason: item.reason },
        );
      }
      case 'requestTimeout': {
        this.requestTimeouts.delete(item.envelopeId);
        const lost = this.network.expire(item.connection, item.generation, item.envelopeId, this.now);
        if (lost) this.notifyClosed(item.actor, item.connection, item.generation, 'timeout', lost);
        return null;
      }
      case 'connectionClosed': {
        const lost = this.network.closeIfCurrent(item.connection, item.generation, item.reason);
        if (lost) this.notifyClosed(item.actor, item.connection, item.generation, item.reason, lost);
        return null;
      }
      case 'fault':
        return this.applyTimedFault(this.faultById(item.fault) as TimedFault);
      case 'restart':
        return this.processFault(item.process, item.label, 'restart', () => this.restartProcess(item.process));
      case 'resume':
        return this.processFault(item.process, item.label, 'resume', () => this.resumeProcess(item.process));
    }
  }

  private stop(reason: StopReason, detail: string | null = null): null {
    this.stopReason = reason;
    this.stopDetail = detail;
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

  private lostStep(env: Envelope, why: string, before: string): TraceStep {
    return this.record({
      actor: env.to,
      kind: 'lost',
      label: env.rpc,
      from: env.from,
      envelope: env.id,
      detail: null,
      before,
      after: before,
      sent: EMPTY,
      facts: EMPTY,
      faults: [`${env.rpc} #${env.id} lost: ${why}`],
    });
  }

  private deliver(env: Envelope, duplicate: boolean): TraceStep {
    const targetProcess = this.processes.get(processOf(env.to));
    const record = this.options.record ? this.envelopes[env.id] : undefined;
    const markLost = (why?: string): void => {
      if (record && !duplicate) {
        record.fate = 'lost';
        record.deliveredStep = this.stepIndex;
        if (why && record.fault === null) record.fault = why;
      }
    };
    const isRequest = isRequestRpc(env.rpc);
    if (!targetProcess || targetProcess.down || !this.slots.has(env.to)) {
      markLost();
      // a request reaching a dead peer: the connection is refused, and its client notices
      if (isRequest && this.network.inFlight(env.connection, env.generation, env.id)) this.breakConnection(env.connection, 'refused');
      return this.lostStep(env, `${env.to} is down`, 'down');
    }
    if (env.toIncarnation !== null && targetProcess.incarnation !== env.toIncarnation) {
      markLost();
      const why = isRequest ? `${env.to} restarted since it was sent` : 'the connection it belonged to is gone';
      return this.lostStep(env, why, 'down');
    }
    const arrival = this.network.arrive(env, !isRequest);
    if (!arrival.ok) {
      markLost(arrival.why);
      return this.lostStep(env, arrival.why, stateValueToString(this.slots.get(env.to)?.ref.getSnapshot().value));
    }
    if (arrival.completed) this.cancelRequestTimeout(arrival.completed.envelopeId);
    if (record && !duplicate) {
      record.fate = 'delivered';
      record.deliveredStep = this.stepIndex;
    }
    if (isRequest) this.openRequests.set(env.id, env);
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
        case 'disconnect':
          for (const r of this.network.clientGone(actorId)) this.cancelRequestTimeout(r.envelopeId);
          break;
        case 'timer': {
          const k = `${actorId}|${effect.key}`;
          const old = this.timerIndex.get(k);
          if (old) this.cancelSeq(old.seq);
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
            this.cancelSeq(old.seq);
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
    const isRequest = isRequestRpc(effect.rpc);
    let toIncarnation: number | null = null;
    let requestGeneration: number | null = null;
    if (effect.inReplyTo !== undefined) {
      const request = this.openRequests.get(effect.inReplyTo);
      toIncarnation = request?.fromIncarnation ?? null;
      requestGeneration = request?.generation ?? null;
      this.openRequests.delete(effect.inReplyTo);
    } else if (isRequest) toIncarnation = this.processes.get(processOf(effect.to))?.incarnation ?? null;
    const expectResponse = isRequest && effect.expectResponse !== false;
    if (expectResponse && !(typeof effect.timeoutMs === 'number' && effect.timeoutMs >= 0 && Number.isFinite(effect.timeoutMs)))
      throw new Error(`${from} sent ${effect.rpc} without a request timeout: every request needs one (NetworkClient)`);
    const draft = {
      id,
      rpc: effect.rpc,
      from,
      to: effect.to,
      payload: effect.payload,
      inReplyTo: effect.inReplyTo ?? null,
      background: effect.background ?? false,
    };
    // fault hooks: the first envelope fault whose n-th match this is
    let fault: EnvelopeFault | null = null;
    for (const f of this.options.faults) {
      if (f.kind !== 'envelope' || !envelopeMatches(f.match, draft)) continue;
      const n = (this.faultCounters.get(f.id) ?? 0) + 1;
      this.faultCounters.set(f.id, n);
      if (!fault && n >= f.nth && n < f.nth + f.count) fault = f;
    }
    const options = {
      now: this.now,
      latency: this.latency(from, effect.to),
      fault: fault?.action ?? null,
      delayMs: fault?.delayMs ?? 0,
    };
    const route: Route = isRequest
      ? this.network.sendRequest(draft, { ...options, timeoutMs: expectResponse ? (effect.timeoutMs as number) : null })
      : this.network.sendResponse(draft, requestGeneration, options);
    const env: Envelope = {
      ...draft,
      fromIncarnation: fromProcess?.incarnation ?? 0,
      toIncarnation,
      sentAt: this.now,
      sentStep: this.stepIndex,
      connection: route.connection,
      generation: route.generation,
    };
    const fg = !env.background;
    // a request that will not be answered is work the run must wait for, never background traffic
    const unanswerable = route.outcome !== 'queued' || route.doomed !== null;
    if (route.tracked) this.armRequestTimeout(env, route, effect.timeoutMs as number, fg || unanswerable);
    let fate: EnvelopeRecord['fate'] = 'in-flight';
    let why: string | null = fault ? fault.label : null;
    switch (route.outcome) {
      case 'queued':
        this.push(route.at as number, { kind: 'deliver', envelope: env, fg, duplicate: false });
        if (fault?.action === 'delay') faults.push(`${env.rpc} #${id} delayed by ${fault.delayMs} ms (${fault.label})`);
        if (route.copyAt !== null) {
          faults.push(`${env.rpc} #${id} duplicated (${fault?.label ?? ''})`);
          this.push(route.copyAt, { kind: 'deliver', envelope: env, fg, duplicate: true });
        }
        break;
      case 'dropped':
        fate = 'dropped';
        faults.push(`${env.rpc} #${id} dropped (${fault?.label ?? ''})`);
        // the client will have to notice: what is in flight on this connection now matters
        this.promoteTimeouts(route.connection);
        break;
      case 'reset':
        fate = 'lost';
        faults.push(`connection ${connectionName(route.connection)} reset (${fault?.label ?? ''}): ${env.rpc} #${id} is lost with it`);
        this.resetConnection(route.connection);
        break;
      default:
        fate = 'lost';
        why = route.why;
        faults.push(`${env.rpc} #${id} lost: ${route.why}`);
        break;
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
        connection: env.connection,
        generation: env.generation,
        deliverAt: route.at,
        deliveredStep: fate === 'lost' ? this.stepIndex : null,
        fate,
        fault: why,
        duplicateOf: null,
        timeoutMs: expectResponse ? (effect.timeoutMs as number) : null,
      };
    }
    this.hash.update(`E${id}|${env.rpc}|${from}>${env.to}|${route.at}|${JSON.stringify(env.payload)}`);
    return id;
  }

  /** Arms the client's timeout for a request now in flight (NetworkClient's per-request timeout). */
  private armRequestTimeout(env: Envelope, route: Route, timeoutMs: number, fg: boolean): void {
    const client = this.network.get(route.connection)?.client ?? env.from;
    const seq = this.push(this.now + timeoutMs, {
      kind: 'requestTimeout',
      actor: client,
      connection: route.connection,
      generation: route.generation,
      envelopeId: env.id,
      incarnation: env.fromIncarnation,
      fg,
    });
    this.requestTimeouts.set(env.id, { seq, fg });
  }

  private cancelRequestTimeout(envelopeId: number): void {
    const t = this.requestTimeouts.get(envelopeId);
    if (!t) return;
    this.cancelSeq(t.seq);
    this.requestTimeouts.delete(envelopeId);
  }

  /**
   * A connection stalled or broke: its requests will not be answered, so their timeouts are work
   * that keeps the run going, not background traffic.
   */
  private promoteTimeouts(key: string): void {
    const c = this.network.get(key);
    if (!c) return;
    for (const r of c.inFlight) {
      const t = this.requestTimeouts.get(r.envelopeId);
      if (!t || t.fg || this.cancelled.has(t.seq)) continue;
      this.foreground.add(t.seq);
      this.quietDeadline = null;
      this.requestTimeouts.set(r.envelopeId, { seq: t.seq, fg: true });
    }
  }

  /** A reset fault: the connection breaks for both sides at once. */
  private resetConnection(key: string): void {
    const c = this.network.get(key);
    if (!c) return;
    const generation = c.generation;
    const lost = this.network.close(key, 'reset');
    this.notifyClosed(c.client, key, generation, 'reset', lost);
  }

  /** The peer is gone: the connection is broken, and its client notices one latency later. */
  private breakConnection(key: string, reason: CloseReason): void {
    if (!this.network.breakConnection(key, reason)) return;
    const c = this.network.get(key);
    if (!c) return;
    this.promoteTimeouts(key);
    const client = this.processes.get(processOf(c.client));
    if (!client || client.down) return;
    this.push(this.now + this.latency(c.server, c.client), {
      kind: 'connectionClosed',
      actor: c.client,
      connection: key,
      generation: c.generation,
      reason,
      incarnation: client.incarnation,
      fg: c.inFlight.some((r) => !r.background),
    });
  }

  /** Every request that was in flight on a closed connection completes as a disconnect, oldest first. */
  private notifyClosed(client: ActorId, key: string, generation: number, reason: CloseReason, lost: readonly InFlightRequest[]): void {
    const proc = this.processes.get(processOf(client));
    const server = this.network.get(key)?.server ?? '';
    for (const r of lost) {
      this.cancelRequestTimeout(r.envelopeId);
      if (!proc || proc.down) continue;
      this.push(this.now, {
        kind: 'disconnected',
        actor: client,
        request: { id: r.envelopeId, rpc: r.rpc, to: server, payload: r.payload },
        incarnation: proc.incarnation,
        // the client's answer to a lost heartbeat or idle fetch is background traffic too
        fg: !r.background,
        reason,
        connection: key,
        generation,
      });
    }
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
      if (d.item.fg) this.deferredForeground--;
      if (d.item.kind === 'deliver' && this.options.record) {
        const r = this.envelopes[d.item.envelope.id];
        if (r && r.fate === 'in-flight') r.fate = 'lost';
      }
    }
    proc.deferred = [];
    proc.incarnation++;
    for (const [id, env] of [...this.openRequests]) if (processOf(env.to) === process) this.openRequests.delete(id);
    for (const slot of this.slots.values()) {
      if (slot.process !== process) continue;
      // its own connections are gone with it; requests it was holding (a join phase, a parked
      // fetch …) or that are on their way to it: their clients see the connection break
      for (const r of this.network.clientGone(slot.spec.id)) this.cancelRequestTimeout(r.envelopeId);
      for (const c of this.network.servedBy(slot.spec.id)) this.breakConnection(c.key, 'peer-down');
    }
    // its timers and pending calls die with it
    for (const q of this.queue.toArray()) {
      const it = q.item;
      if ((it.kind === 'timer' || it.kind === 'call') && processOf(it.actor) === process) this.cancelSeq(q.seq);
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
    // The restart calls (and then the boots it missed while down) come before anything else at this
    // instant: an envelope that reaches the process now must find its actors restarted, not still
    // down — where it would vanish without an answer or a disconnect.
    for (const slot of this.slots.values()) {
      if (slot.process !== process) continue;
      this.pushFirst(this.now, {
        kind: 'call',
        actor: slot.spec.id,
        from: process,
        name: 'restart',
        args: {},
        incarnation: proc.incarnation,
        fg: true,
      });
    }
    for (const b of boots) this.pushFirst(this.now, b.item);
  }

  private resumeProcess(process: ProcessId): void {
    const proc = this.processes.get(process);
    if (!proc || !proc.paused) return;
    proc.paused = false;
    const deferred = proc.deferred;
    proc.deferred = [];
    for (const d of deferred) {
      if (d.item.fg) this.deferredForeground--;
      // cancelled while it was held (a timer re-armed or cancelled, a request answered)
      if (this.cancelled.delete(d.seq)) continue;
      // Held events come back at `now` under the seq they were first queued with: the queue orders
      // equal times by seq, so they still come before anything scheduled after them — an envelope
      // sent to this process later on the same connection cannot overtake a held one (TCP keeps
      // order), and a timer or request timeout keeps the seq its key names (cancelling reaches it).
      this.queue.push({ time: this.now, seq: d.seq, item: d.item });
      if (d.item.fg) {
        this.foreground.add(d.seq);
        this.quietDeadline = null;
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

  private lastStepAt = Number.NaN;

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

export { connectionKey };
