/** Seeking through checkpoints gives exactly the state that running forward gives. */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../src/sim/kernel/simulation';
import { PRESETS } from '../src/sim/presets';
import { runScenario, stateAt } from '../src/sim/run';

function snapshotJson(actors: ReadonlyMap<string, { value: unknown; context: unknown }>): string {
  return JSON.stringify([...actors].map(([id, s]) => [id, s.value, s.context]));
}

describe('seeking', () => {
  it.each(PRESETS.map((p) => [p.id, p] as const))('%s: stateAt(k) equals a fresh run stopped at k', (_id, preset) => {
    const trace = runScenario(preset.scenario);
    const n = trace.steps.length;
    for (const k of [0, 1, 255, 256, 257, Math.floor(n / 3), Math.floor((2 * n) / 3), n]) {
      if (k > n) continue;
      const seeked = stateAt(trace, k);
      const forward = Simulation.create(trace.built.specs, { ...trace.built.options, record: false });
      forward.run(k);
      expect(seeked.step).toBe(k);
      expect(seeked.time).toBe(forward.now);
      expect(snapshotJson(seeked.actors)).toBe(snapshotJson(forward.actorSnapshots()));
    }
  });

  it('keeps a checkpoint at least every checkpointEvery steps and one at the end', () => {
    const trace = runScenario(PRESETS.find((p) => p.id === 'ctp-exactly-once-crash')?.scenario);
    const steps = trace.checkpoints.map((c) => c.step);
    for (let i = 1; i < steps.length; i++)
      expect((steps[i] as number) - (steps[i - 1] as number)).toBeLessThanOrEqual(trace.built.options.checkpointEvery);
    expect(steps[steps.length - 1]).toBe(trace.steps.length);
  });
});
