/**
 * The kernel's state, shared by its parts: the clock, the event queue with its timers and the
 * foreground work that keeps a run going, the processes and their actors, the network, the PRNG.
 *
 * Simulation (simulation.ts) drives it step by step; the parts that carry out what a step does
 * live in their own modules and take the core as their first argument: delivering and dispatching
 * (dispatch.ts), the network's side of the kernel (transport.ts), faults on processes
 * (processFaults.ts).
 */
import type { ActorDriver } from './actorDriver';
import type { Effect } from './effects';
import type { ActorId, Envelope } from './envelope';
import { EventQueue, type Queued } from './eventQueue';
import { actorInProcess, type KernelFault, type ProcessId } from './faults';
import { StreamHash, stringHash } from './hash';
import { NameTable } from './nameTable';
import { connectionKey, Network, nodeOf } from './network';
import { Prng, seedPrng } from './prng';
import type { QueueItem } from './queueItem';
import type { Recorder } from './recorder';
import type { ActorSpec, KernelOptions, StopReason, TraceStep } from './types';

/** What a step did, as dispatch and the fault handlers report it to the kernel: a trace step before the kernel numbers and times it. */
export type StepRecord = Omit<TraceStep, 'i' | 't'>;

/** A step record filled in place (KernelCore.dispatched). */
export type StepDraft = { -readonly [K in keyof StepRecord]: StepRecord[K] };

/** Seqs handed out by pushFirst: unique, and below every ordinary seq (which count up from 0). */
export const FIRST_SEQ_BASE = -(2 ** 52);

export interface Slot {
  spec: ActorSpec;
  process: ProcessId;
  ref: ActorDriver;
}

export interface ProcessState {
  down: boolean;
  paused: boolean;
  incarnation: number;
  deferred: Queued<QueueItem>[];
}

/**
 * The options with every key, in one order: whatever object they came in (a scenario's build, a
 * fork's or a fast run's copy of it with a key changed: each spread makes a hidden class of its own),
 * the kernel reads them from objects of one hidden class, so its code optimised for one run is not
 * thrown away (and compiled again) at the next.
 */
function sameShape(o: KernelOptions): KernelOptions {
  const every: { readonly [K in keyof Required<KernelOptions>]: KernelOptions[K] } = {
    seed: o.seed,
    network: o.network,
    faults: o.faults,
    checkpointEvery: o.checkpointEvery,
    maxSteps: o.maxSteps,
    maxTimeMs: o.maxTimeMs,
    settleMs: o.settleMs,
    settleMsWhileDown: o.settleMsWhileDown,
    settleMsAfterFault: o.settleMsAfterFault,
    record: o.record,
    runner: o.runner,
    maxStepsPerInstant: o.maxStepsPerInstant,
    prepareSignal: o.prepareSignal,
  };
  return every;
}

export abstract class KernelCore {
  now = 0;
  stepIndex = 0;
  stopReason: StopReason | null = null;
  /** For 'livelock' and 'invalid-time': what happened, in words. */
  stopDetail: string | null = null;

  seq = 0;
  envelopeCounter = 0;
  queue = new EventQueue<QueueItem>();
  cancelled = new Set<number>();
  timerIndex = new Map<string, { seq: number; fg: boolean }>();
  /** Live queue entries that keep the run going (by seq); cancelling one that already left the queue changes nothing. */
  foreground = new Set<number>();
  /** Entries that keep the run going held by paused processes. */
  deferredForeground = 0;
  /** Counter of pushFirst's seqs (below every ordinary seq). */
  firstSeq = 0;
  quietDeadline: number | null = null;
  prng: Prng;
  hash = new StreamHash();
  /** Actor ids, states, labels, RPCs and connections, interned (with their content hashes for the traceHash). */
  names = new NameTable(stringHash);
  /** The trace being recorded; null when only the state (and the hash) matter. */
  recorder: Recorder | null = null;
  readonly processes = new Map<ProcessId, ProcessState>();
  readonly slots = new Map<ActorId, Slot>();
  /** Per process, the actor that speaks for its listeners (ActorSpec.refusesConnections), if any. */
  readonly listeners = new Map<ProcessId, Slot>();
  faultCounters = new Map<number, number>();
  /** Requests delivered and not yet answered, by envelope id (their answer goes to the incarnation and connection generation that asked). */
  openRequests = new Map<number, Envelope>();
  /** Virtual time of the last fault applied: a run keeps going a while after one, to show its consequences. */
  lastFaultAt = Number.NEGATIVE_INFINITY;
  network = new Network();
  /** The timeout entry of each request in flight, by request envelope id. */
  requestTimeouts = new Map<number, { seq: number; fg: boolean }>();
  /** Steps taken so far at the current instant. */
  instantSteps = 0;
  lastStepAt = Number.NaN;
  /**
   * Told of every named point an actor passes (crash points, `afterProcess`, …), whether or not a
   * fault matches it: the fault-space search enumerates point faults from them. Not part of the trace.
   */
  pointListener: ((actor: ActorId, point: string, detail: Readonly<Record<string, unknown>>) => void) | null = null;
  /** A kernel assertion failed during the last step: the run stops before the next. */
  pendingStop: { reason: StopReason; detail: string } | null = null;

  /** Each (actor, timer key)'s index key, made once: a fresh string per timer would be built and hashed on every arm. */
  private readonly timerKeys = new Map<ActorId, Map<string, string>>();

  /** The connection a request of `client` to `server` travels on (and its response): per node for a client that connects so. */
  connectionOf(client: ActorId, server: ActorId): string {
    return connectionKey(client, this.slots.get(client)?.spec.connectsByNode ? nodeOf(server) : server);
  }

  /** The timer index's key of an actor's timer (`actor|key`). */
  timerKey(actor: ActorId, key: string): string {
    let keys = this.timerKeys.get(actor);
    if (!keys) {
      keys = new Map();
      this.timerKeys.set(actor, keys);
    }
    let k = keys.get(key);
    if (k === undefined) {
      k = `${actor}|${key}`;
      // timer keys that name a partition or a request can keep coming: a bound on what is kept
      if (keys.size > 1024) keys.clear();
      keys.set(key, k);
    }
    return k;
  }

  // the step being processed: the effects its actor emitted are effects[0 .. effectCount) (a count,
  // not the array's length: emptying an array is a runtime call, and this one empties every step)
  effects: Effect[] = [];
  effectCount = 0;
  /** The faults the step being processed applied, in words (reused: a step that has some copies them out). */
  readonly stepFaults: string[] = [];
  /**
   * The record of the step being dispatched, filled in place (dispatch.ts): `record` and the step
   * sink read it while the step is taken and nothing keeps it (the recorder copies its fields), so
   * one object serves every step instead of a new one (and one for its effects) per step.
   */
  readonly dispatched: StepDraft = {
    actor: '',
    kind: 'boot',
    label: '',
    from: null,
    envelope: null,
    detail: null,
    before: '',
    after: '',
    sent: [],
    facts: [],
    faults: [],
  };
  collecting: ActorId | null = null;

  /** The run's options, every key in one order (sameShape). */
  readonly options: KernelOptions;

  protected constructor(
    readonly specs: readonly ActorSpec[],
    options: KernelOptions,
  ) {
    this.options = sameShape(options);
    this.prng = new Prng(seedPrng(options.seed));
  }

  /** Records the step just carried out (the recorder decides what is kept); always true: a step was taken. */
  abstract record(step: StepRecord): true;
  /** An envelope held by a paused process that crashed: it is lost. */
  abstract envelopeLostWhileHeld(id: number): void;
  /** An envelope reached its destination (`why` null) or was lost there (`why`: the reason, if one is known). */
  abstract envelopeArrived(id: number, lost: boolean, why?: string): void;

  // ---------------------------------------------------------------- the queue

  /** Queues an item; a time that is not finite or lies in the past is refused and stops the run. */
  push(time: number, item: QueueItem): number {
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
  pushFirst(time: number, item: QueueItem): number {
    const seq = FIRST_SEQ_BASE + this.firstSeq++;
    this.queue.push({ time, seq, item });
    if (item.fg) {
      this.foreground.add(seq);
      this.quietDeadline = null;
    }
    return seq;
  }

  cancelSeq(seq: number): void {
    if (this.cancelled.has(seq)) return;
    this.cancelled.add(seq);
    this.foreground.delete(seq);
    // re-armed timers leave cancelled entries behind; drop them once they outnumber the live ones
    if (this.cancelled.size > 256 && this.cancelled.size * 2 > this.queue.size) this.compactQueue();
  }

  /** Removes cancelled entries from the queue (the (time, seq) order of the others is unchanged). */
  compactQueue(): void {
    if (this.cancelled.size === 0) return;
    const cancelled = this.cancelled;
    this.queue = new EventQueue(this.queue.toArray().filter((e) => !cancelled.has(e.seq)));
    // a cancelled entry a paused process holds is not in the queue: its cancellation must outlive this
    const held = new Set<number>();
    for (const p of this.processes.values()) for (const d of p.deferred) if (cancelled.has(d.seq)) held.add(d.seq);
    this.cancelled = held;
  }

  /** Next live entry without removing it. */
  peekLive(): Queued<QueueItem> | undefined {
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

  // ---------------------------------------------------------------- small lookups

  /** How long background traffic may run once no foreground work is left. */
  settleWindow(): number {
    // a fault was just applied, or a process is down or paused: give timeouts time to show
    for (const p of this.processes.values()) if (p.down || p.paused) return this.options.settleMsWhileDown;
    if (this.now - this.lastFaultAt < this.options.settleMsAfterFault) return this.options.settleMsAfterFault;
    return this.options.settleMs;
  }

  faultById(id: number): KernelFault {
    const f = this.options.faults.find((x) => x.id === id);
    if (!f) throw new Error(`unknown fault ${id}`);
    return f;
  }

  /** One envelope's latency between two actors: the link's (or the network's) base plus jitter. */
  latency(from: ActorId, to: ActorId): number {
    const net = this.options.network;
    let base = net.latencyMs;
    for (const l of net.links)
      if (actorInProcess(from, l.from) && actorInProcess(to, l.to)) {
        base = l.latencyMs;
        break;
      }
    return base + (net.jitterMs > 0 ? this.prng.int(0, net.jitterMs) : 0);
  }
}
