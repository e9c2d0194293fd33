/**
 * The one store between the engine and the UI: the scenario, its run (trace), the playback
 * position, the selection and the view settings. The engine stays pure; this store calls it, runs
 * long scenarios in slices so the page never freezes, and keeps the results.
 *
 * Dependencies point one way: ui → store → sim.
 */
import { createStore } from 'zustand/vanilla';
import { DEFAULT_PRESET_ID, findPreset } from '../sim/presets';
import { finishTrace, type SimView, startRun, stateAt, type Trace } from '../sim/run';
import type { Scenario } from '../sim/scenario/schema';
import { type ConfigNote, type ScenarioError, validateScenario } from '../sim/scenario/validate';
import { nextStoryPosition, previousStoryPosition, storySteps } from '../sim/trace/story';

export type Language = 'en' | 'ko';
export type Theme = 'system' | 'light' | 'dark';

/** What the person has selected, to show its details. */
export type Selection =
  | { readonly kind: 'record'; readonly topic: string; readonly partition: number; readonly offset: number }
  | { readonly kind: 'envelope'; readonly id: number }
  | { readonly kind: 'actor'; readonly id: string }
  | { readonly kind: 'step'; readonly index: number };

export type RunStatus = 'idle' | 'running' | 'ready' | 'error';

export interface SimState {
  readonly scenario: Scenario | null;
  readonly errors: readonly ScenarioError[] | null;
  readonly notes: readonly ConfigNote[];
  readonly trace: Trace | null;
  readonly status: RunStatus;
  /** Steps computed so far while a long run is in progress. */
  readonly progress: number;
  /** Steps taken: 0 is the start, trace.steps.length the end. */
  readonly step: number;
  readonly view: SimView | null;
  readonly playing: boolean;
  /** Playback speed in steps per second. */
  readonly speed: number;
  readonly language: Language;
  readonly theme: Theme;
  readonly selection: Selection | null;
  /** Playing and stepping pass over background steps (heartbeats, idle fetches): see sim/trace/story.ts. */
  readonly skipIdle: boolean;

  /** Validates and runs a scenario, then lands on `step` (default: the start). */
  load(input: unknown, options?: { step?: number }): void;
  seek(step: number): void;
  stepForward(): void;
  stepBack(): void;
  setPlaying(playing: boolean): void;
  setSpeed(stepsPerSecond: number): void;
  setLanguage(language: Language): void;
  setTheme(theme: Theme): void;
  select(selection: Selection | null): void;
  setSkipIdle(skip: boolean): void;
  /** The position `n` story steps ahead (or all steps, when background steps are not skipped). */
  advance(n: number): number;
  /**
   * Changes the scenario (an injected fault, a config edit, an application action) and re-runs it:
   * the run forks at the current step, which is kept.
   */
  fork(edit: (scenario: Scenario) => Scenario): void;
}

const stories = new WeakMap<Trace, Uint8Array>();

/** Which steps of a run tell its story (computed once per run). */
export function storyOf(trace: Trace): Uint8Array {
  let s = stories.get(trace);
  if (!s) {
    s = storySteps(trace);
    stories.set(trace, s);
  }
  return s;
}

/** Runs above this many steps are computed in slices, with a progress bar. */
const SLICE_STEPS = 20000;

export function createSimStore() {
  let generation = 0;
  return createStore<SimState>()((set, get) => ({
    scenario: null,
    errors: null,
    notes: [],
    trace: null,
    status: 'idle',
    progress: 0,
    step: 0,
    view: null,
    playing: false,
    speed: 8,
    language: 'en',
    theme: 'system',
    selection: null,
    skipIdle: true,

    load(input, options = {}) {
      const v = validateScenario(input);
      const run = ++generation;
      if (!v.ok) {
        set({ errors: v.errors, status: 'error', playing: false });
        return;
      }
      const { sim, built } = startRun(v.resolved);
      set({ status: 'running', progress: 0, playing: false, errors: null, notes: v.resolved.notes });
      const land = () => {
        const trace = finishTrace(v.resolved, built, sim);
        const step = Math.max(0, Math.min(options.step ?? 0, trace.steps.length));
        set({
          scenario: v.resolved.scenario,
          trace,
          status: 'ready',
          progress: trace.steps.length,
          step,
          view: stateAt(trace, step),
          selection: null,
        });
      };
      // small runs finish synchronously; large ones yield to the page between slices
      sim.run(SLICE_STEPS);
      if (sim.done) return land();
      const slice = () => {
        if (run !== generation) return; // a newer load replaced this one
        sim.run(sim.stepIndex + SLICE_STEPS);
        set({ progress: sim.stepIndex });
        if (sim.done) land();
        else setTimeout(slice, 0);
      };
      setTimeout(slice, 0);
    },
    seek(step) {
      const { trace } = get();
      if (!trace) return;
      const s = Math.max(0, Math.min(Math.round(step), trace.steps.length));
      if (s === get().step && get().view) return;
      set({ step: s, view: stateAt(trace, s) });
    },
    stepForward() {
      get().seek(get().advance(1));
    },
    stepBack() {
      const { trace, step, skipIdle } = get();
      get().seek(trace && skipIdle ? previousStoryPosition(storyOf(trace), step) : step - 1);
    },
    advance(n) {
      const { trace, step, skipIdle } = get();
      if (!trace) return step;
      if (!skipIdle) return Math.min(trace.steps.length, step + n);
      const story = storyOf(trace);
      let p = step;
      for (let k = 0; k < n && p < trace.steps.length; k++) p = nextStoryPosition(story, p);
      return p;
    },
    setSkipIdle(skipIdle) {
      set({ skipIdle });
    },
    setPlaying(playing) {
      const { trace, step } = get();
      set({ playing: playing && trace !== null && step < trace.steps.length });
    },
    setSpeed(speed) {
      set({ speed: Math.max(0.5, Math.min(speed, 2000)) });
    },
    setLanguage(language) {
      set({ language });
    },
    setTheme(theme) {
      set({ theme });
    },
    select(selection) {
      set({ selection });
    },
    fork(edit) {
      const { scenario, step } = get();
      if (!scenario) return;
      get().load(edit(scenario), { step });
    },
  }));
}

export const simStore = createSimStore();

export function loadDefault(): void {
  const preset = findPreset(DEFAULT_PRESET_ID);
  if (preset) simStore.getState().load(preset.scenario);
}
