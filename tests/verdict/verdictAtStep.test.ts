/**
 * verdictAtStep (what the verdict panel, the embed and the exported figure compute on a view change)
 * is summarize's verdict without the rest of the summary: the same findings at every preset's start,
 * middle and end.
 */
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../src/sim/presets';
import { runScenario, stateAt } from '../../src/sim/run';
import { summarize, verdictAtStep } from '../../src/sim/trace/summary';

describe('verdictAtStep', () => {
  it("equals summarize's verdict for every preset at its start, middle and end", () => {
    for (const preset of PRESETS) {
      const trace = runScenario(preset.scenario);
      for (const step of [0, Math.floor(trace.steps.length / 2), trace.steps.length]) {
        const view = stateAt(trace, step);
        expect(verdictAtStep(trace, view), `${preset.id} at ${step}`).toEqual(summarize(trace, step, view).verdict);
      }
    }
  });
});
