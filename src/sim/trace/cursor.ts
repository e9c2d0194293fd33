/**
 * The state at a step for a reader that mostly moves forwards a little (playback): a simulation
 * restored once and run on, instead of restoring the nearest checkpoint and replaying up to
 * `checkpointEvery` steps for every frame. A step behind the cursor, or further ahead than
 * `checkpointEvery`, restores from the checkpoint before it as `replayTo` does; either way the view
 * equals `replayTo(trace, step)`. A view handed out stays as it was when the cursor runs on: its
 * maps and lists are new, and the actors' snapshots are immutable.
 */
import { Simulation } from '../kernel/simulation';
import { checkpointAt, type SimView, type Trace } from './trace';

export class ViewCursor {
  private sim: Simulation | null = null;

  constructor(readonly trace: Trace) {}

  /** The state after `step` steps (clamped to the run), equal to replayTo(trace, step). */
  at(step: number): SimView {
    const { trace } = this;
    const target = Math.max(0, Math.min(Math.round(step), trace.steps.length));
    let sim = this.sim;
    if (!sim || target < sim.stepIndex || target - sim.stepIndex > trace.built.options.checkpointEvery) {
      sim = Simulation.restore(trace.built.specs, { ...trace.built.options, record: false }, checkpointAt(trace.checkpoints, target));
      this.sim = sim;
    }
    sim.run(target);
    return { step: sim.stepIndex, time: sim.now, actors: sim.actorSnapshots(), processes: sim.processStates(), inFlight: sim.inFlight() };
  }
}
