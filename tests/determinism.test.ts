import { describe, expect, it } from 'vitest';
import { PRESETS } from '../src/sim/presets';
import { runScenario, stateAt } from '../src/sim/run';
import { partitionRows } from '../src/sim/trace/logView';

describe('determinism', () => {
  it.each(PRESETS.map((p) => [p.id, p] as const))('%s gives the same traceHash twice', (_id, preset) => {
    const a = runScenario(preset.scenario);
    const b = runScenario(preset.scenario);
    expect(a.steps.length).toBeGreaterThan(0);
    expect(b.traceHash).toBe(a.traceHash);
    expect(JSON.stringify(b.steps)).toBe(JSON.stringify(a.steps));
  });

  it('a different seed or a changed fault changes the trace', () => {
    const base = PRESETS[0]?.scenario;
    if (!base) throw new Error('no preset');
    const a = runScenario(base);
    const b = runScenario({ ...base, faults: [{ type: 'drop', rpc: 'ProduceResponse', nth: 1 }] });
    expect(b.traceHash).not.toBe(a.traceHash);
  });

  it('seeking restores the same state as running forward', () => {
    const preset = PRESETS[0];
    if (!preset) throw new Error('no preset');
    const trace = runScenario(preset.scenario);
    for (const step of [0, 1, 7, Math.floor(trace.steps.length / 2), trace.steps.length]) {
      const seeked = partitionRows(stateAt(trace, step).actors);
      const again = partitionRows(stateAt(trace, step).actors);
      expect(again).toEqual(seeked);
    }
    const end = stateAt(trace, trace.steps.length);
    expect(end.time).toBe(trace.endTime);
  });
});
