/**
 * The engine session a worker drives: a run in slices gives the trace a run at once gives; an edit
 * forks from the current trace and gives the full run of the edited scenario; cancelling drops the
 * run under way and keeps the last trace; an invalid scenario is refused with its errors.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { runScenario, withMaxSteps } from '../src/sim/run';
import { injectProcessFault } from '../src/sim/scenario/edits';
import type { Scenario } from '../src/sim/scenario/schema';
import { EngineSession } from '../src/sim/session';

const preset = (id: string) => findPreset(id)?.scenario as Scenario;

describe('engine session', () => {
  it('runs in slices, reporting progress, to the trace a run at once gives; views at any step', () => {
    const s = new EngineSession();
    expect(s.start(preset('ctp-exactly-once-crash'))).toEqual({ ok: true, from: 0 });
    const seen: number[] = [];
    for (;;) {
      const p = s.advance(100);
      seen.push(p.steps);
      if (p.done) break;
    }
    const full = runScenario(preset('ctp-exactly-once-crash'));
    expect(s.trace?.traceHash).toBe(full.traceHash);
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.slice(0, -1).every((n, i) => n === (i + 1) * 100)).toBe(true);
    const v = s.views(50);
    expect(v?.state.step).toBe(50);
    expect(v?.summary.atStep).toBe(50);
    expect(s.notice()).toBeNull();
  });

  it('an edit forks from the current trace and gives the full run of the edited scenario', () => {
    const s = new EngineSession();
    s.start(preset('commit-two-partitions'));
    s.advance(1e9);
    const trace = s.trace;
    if (!trace) throw new Error('no trace');
    const step = Math.floor(trace.steps.length * 0.8);
    const edit = injectProcessFault(trace.scenario, { trace, step, process: 'broker-0', action: { type: 'crash', restartAfterMs: 300 } });
    if (!edit.ok) throw new Error(edit.reason);
    const started = s.start(edit.scenario, step);
    expect(started.ok && started.from).toBeGreaterThan(0);
    s.advance(1e9);
    expect(s.trace?.traceHash).toBe(runScenario(edit.scenario).traceHash);
  });

  it('cancelling drops the run under way and keeps the last trace; an invalid scenario is refused', () => {
    const s = new EngineSession();
    s.start(preset('opening-story'));
    s.advance(1e9);
    const first = s.trace;
    s.start(withMaxSteps(preset('opening-story'), 40));
    s.advance(10);
    expect(s.running).toBe(true);
    s.cancel();
    expect(s.running).toBe(false);
    expect(s.trace).toBe(first);
    const bad = s.start({ version: 1 });
    expect(bad.ok).toBe(false);
    s.start(withMaxSteps(preset('opening-story'), 40));
    s.advance(1e9);
    expect(s.notice()).toContain('run.maxSteps = 40');
  });
});
