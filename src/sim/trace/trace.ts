/**
 * A finished run as the UI, the CLI and the tests read it: its steps and envelopes (in the
 * recorder's columns, read one at a time), its checkpoints, and the state at any step.
 *
 * Everything here costs the same at the first step as at the last: a step or an envelope is read
 * from its row; the state at a step is the nearest checkpoint plus at most `checkpointEvery` steps
 * of replay; an envelope's payload, which the recorder does not keep, is rebuilt by replaying the
 * stretch of steps that sent it (and the payloads of that stretch are kept for the next reads).
 */
import type { Checkpoint } from '../kernel/checkpoint';
import type { ActorId, Envelope, EnvelopeRecord } from '../kernel/envelope';
import type { ProcessId } from '../kernel/faults';
import type { Recorder } from '../kernel/recorder';
import { Simulation, type StopReason, type TraceStep } from '../kernel/simulation';
import { EnvelopeList, type ListLike, StepList } from '../kernel/traceLists';
import type { BuiltScenario } from '../scenario/build';
import type { Scenario } from '../scenario/schema';
import type { ResolvedScenario } from '../scenario/validate';

/** The simulation as it was after `step` steps (0 = the start). */
export interface SimView {
  readonly step: number;
  readonly time: number;
  readonly actors: ReadonlyMap<ActorId, { value: unknown; context: unknown }>;
  readonly processes: ReadonlyMap<ProcessId, { down: boolean; paused: boolean; incarnation: number }>;
  readonly inFlight: readonly Envelope[];
}

/** Payloads rebuilt for one stretch of steps between two checkpoints. */
interface PayloadWindow {
  readonly from: number;
  readonly to: number;
  readonly payloads: Map<number, Readonly<Record<string, unknown>>>;
}

/**
 * A run as its readers see it. A recorded run is a RecordedTrace; checks and narration also accept
 * a hand-made one (a test's altered copy, with its steps as an array).
 */
export interface Trace {
  readonly scenario: Scenario;
  readonly resolved: ResolvedScenario;
  readonly built: BuiltScenario;
  readonly traceHash: string;
  readonly stopReason: StopReason;
  readonly stopDetail: string | null;
  readonly endTime: number;
  readonly steps: ListLike<TraceStep>;
  readonly envelopes: ListLike<EnvelopeRecord>;
  readonly checkpoints: readonly Checkpoint[];
}

/** The checkpoint at or before `step` (the one a replay to `step` starts from). */
export function checkpointAt(checkpoints: readonly Checkpoint[], step: number): Checkpoint {
  let lo = 0;
  let hi = checkpoints.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((checkpoints[mid] as Checkpoint).step <= step) lo = mid;
    else hi = mid - 1;
  }
  return checkpoints[lo] as Checkpoint;
}

/** The state after `step` steps: the nearest checkpoint, plus at most checkpointEvery steps of replay. */
export function replayTo(trace: Trace, step: number): SimView {
  const target = Math.max(0, Math.min(step, trace.steps.length));
  const sim = Simulation.restore(trace.built.specs, { ...trace.built.options, record: false }, checkpointAt(trace.checkpoints, target));
  sim.run(target);
  return {
    step: sim.stepIndex,
    time: sim.now,
    actors: sim.actorSnapshots(),
    processes: sim.processStates(),
    inFlight: sim.inFlight(),
  };
}

export class RecordedTrace implements Trace {
  readonly scenario: Scenario;
  readonly traceHash: string;
  readonly stopReason: StopReason;
  /** For 'livelock' and 'invalid-time': what the kernel saw, in words. */
  readonly stopDetail: string | null;
  readonly endTime: number;
  readonly steps: StepList;
  readonly envelopes: EnvelopeList;
  readonly recorder: Recorder;
  /** An own property (the recorder's list), so that a test's `{ ...trace }` copy keeps it. */
  readonly checkpoints: readonly Checkpoint[];
  private windows: PayloadWindow[] = [];

  constructor(
    readonly resolved: ResolvedScenario,
    readonly built: BuiltScenario,
    sim: Simulation,
  ) {
    if (!sim.recorder) throw new Error('a trace needs a run that records (record: true)');
    this.scenario = resolved.scenario;
    this.traceHash = sim.traceHash;
    this.stopReason = sim.stopReason ?? 'max-steps';
    this.stopDetail = sim.stopDetail;
    this.endTime = sim.now;
    this.recorder = sim.recorder;
    this.checkpoints = sim.recorder.checkpoints;
    // the columns give back their room to grow (should the run go on, they grow again)
    this.recorder.trim();
    this.steps = new StepList(this.recorder);
    this.envelopes = new EnvelopeList(this.recorder, (id) => this.payloadOf(id));
  }

  /** Step `i` (0-based), built from its row. */
  stepAt(i: number): TraceStep | undefined {
    return this.recorder.stepAt(i);
  }

  /** Envelope `id`, with its payload read when first used. */
  envelopeAt(id: number): EnvelopeRecord | undefined {
    return this.envelopes.at(id);
  }

  /** A simulation restored at the checkpoint before `step`, recording nothing (for replays). */
  restoreBefore(step: number): Simulation {
    return Simulation.restore(this.built.specs, { ...this.built.options, record: false }, checkpointAt(this.checkpoints, step));
  }

  /** The state after `step` steps: the nearest checkpoint, plus at most checkpointEvery steps of replay. */
  stateAt(step: number): SimView {
    return replayTo(this, step);
  }

  /** The payload of envelope `id`, rebuilt by replaying the stretch of steps that sent it. */
  payloadOf(id: number): Readonly<Record<string, unknown>> | undefined {
    const row = this.recorder.envelopeRow(id);
    if (!row) return undefined;
    const s = row.sentStep;
    let w = this.windows.find((x) => x.from <= s && s < x.to);
    if (!w) {
      const sim = this.restoreBefore(s);
      const from = sim.stepIndex;
      const to = Math.min(this.steps.length, Math.max(s + 1, from + this.built.options.checkpointEvery));
      const payloads = new Map<number, Readonly<Record<string, unknown>>>();
      sim.payloadSink = (env, payload) => payloads.set(env, payload);
      sim.run(to);
      w = { from, to, payloads };
      // the stretch read last and the one before (playback reads forwards, a details panel back and forth)
      this.windows = [w, ...this.windows.slice(0, 1)];
    }
    return w.payloads.get(id);
  }
}
