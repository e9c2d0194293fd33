/**
 * A checkpoint is the whole simulation state at one step: clock, queue, PRNG, fault counters,
 * process states and every actor's XState snapshot. Restoring one and replaying at most
 * `checkpointEvery` steps gives the state at any step, which is how seeking stays instant.
 *
 * Actor snapshots are shared, not copied: every context update makes a new object and the big
 * structures (partition logs) are persistent, so an old snapshot never changes underneath us.
 */
import type { ActorId } from './envelope';
import type { Queued } from './eventQueue';
import type { ProcessId } from './faults';
import type { NetworkSnapshot } from './network';
import type { PrngState } from './prng';

export interface ProcessSnapshot {
  readonly down: boolean;
  readonly paused: boolean;
  readonly incarnation: number;
  readonly deferred: readonly Queued<unknown>[];
}

export interface Checkpoint {
  /** Number of steps taken before this checkpoint (the index of the next step). */
  readonly step: number;
  readonly now: number;
  readonly seq: number;
  readonly envelopeCounter: number;
  readonly queue: readonly Queued<unknown>[];
  readonly cancelled: readonly number[];
  readonly timerIndex: readonly [string, { seq: number; fg: boolean }][];
  /** Queue entries (by seq) that keep the run going, and how many such entries paused processes hold. */
  readonly foreground: readonly number[];
  readonly deferredForeground: number;
  /** The counter of entries queued ahead of their instant (a restart's calls). */
  readonly firstSeq: number;
  /** The timeout entry of each request in flight, by request envelope id. */
  readonly requestTimeouts: readonly [number, { seq: number; fg: boolean }][];
  readonly network: NetworkSnapshot;
  readonly instantSteps: number;
  readonly pendingStop: { readonly reason: string; readonly detail: string } | null;
  readonly quietDeadline: number | null;
  readonly prng: PrngState;
  readonly hash: [number, number];
  readonly faultCounters: readonly [number, number][];
  readonly openRequests: readonly [number, unknown][];
  readonly lastFaultAt: number;
  /** Virtual time of the last step taken (steps at one instant are counted against maxStepsPerInstant). */
  readonly lastStepAt: number;
  readonly processes: readonly [ProcessId, ProcessSnapshot][];
  readonly actors: readonly [ActorId, unknown][];
}
