/**
 * The one store between the engine and the UI: the scenario, its run (trace), the playback position
 * and the selection. The engine stays pure; this store calls it and keeps the results.
 */
import { createStore } from 'zustand/vanilla';
import { DEFAULT_PRESET_ID, findPreset } from '../sim/presets';
import { runResolved, type SimView, stateAt, type Trace } from '../sim/run';
import type { Scenario } from '../sim/scenario/schema';
import { type ScenarioError, validateScenario } from '../sim/scenario/validate';

export interface SimState {
  readonly scenario: Scenario | null;
  readonly trace: Trace | null;
  readonly errors: readonly ScenarioError[] | null;
  /** Steps taken: 0 is the start, trace.steps.length the end. */
  readonly step: number;
  readonly view: SimView | null;
  readonly playing: boolean;
  load(input: unknown): void;
  seek(step: number): void;
  stepForward(): void;
  stepBack(): void;
  setPlaying(playing: boolean): void;
}

export function createSimStore() {
  return createStore<SimState>()((set, get) => ({
    scenario: null,
    trace: null,
    errors: null,
    step: 0,
    view: null,
    playing: false,
    load(input) {
      const v = validateScenario(input);
      if (!v.ok) {
        set({ errors: v.errors, playing: false });
        return;
      }
      const trace = runResolved(v.resolved);
      set({ scenario: v.resolved.scenario, trace, errors: null, step: 0, view: stateAt(trace, 0), playing: false });
    },
    seek(step) {
      const { trace } = get();
      if (!trace) return;
      const s = Math.max(0, Math.min(step, trace.steps.length));
      set({ step: s, view: stateAt(trace, s) });
    },
    stepForward() {
      get().seek(get().step + 1);
    },
    stepBack() {
      get().seek(get().step - 1);
    },
    setPlaying(playing) {
      set({ playing });
    },
  }));
}

export const simStore = createSimStore();

export function loadDefault(): void {
  const preset = findPreset(DEFAULT_PRESET_ID);
  if (preset) simStore.getState().load(preset.scenario);
}
