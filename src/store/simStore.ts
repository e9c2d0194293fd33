/**
 * The one store between the engine and the UI: the scenario, its run (trace), the playback
 * position, the selection and the view settings. The engine stays pure; this store calls it, runs
 * long scenarios in slices so the page never freezes, and keeps the results.
 *
 * Dependencies point one way: ui → store → sim.
 */
import { createStore } from 'zustand/vanilla';
import {
  type BudgetKind,
  type BudgetStop,
  type ConfigNote,
  DEFAULT_PRESET_ID,
  findPreset,
  PAGE_BUDGETS,
  type PageBudgets,
  RecordedTrace,
  type Scenario,
  type ScenarioError,
  sizeRefusal,
  ViewCursor,
  validateScenario,
} from '../sim';
import { nextStoryPosition, previousStoryPosition, processOf, type SimView, storySteps, type Trace } from '../sim/views';
import { type Landed, RunJob } from './runJob';

export type Language = 'en' | 'ko';
export type Theme = 'system' | 'light' | 'dark';

/** What the person has selected, to show its details. */
export type Selection =
  | { readonly kind: 'record'; readonly topic: string; readonly partition: number; readonly offset: number }
  | { readonly kind: 'envelope'; readonly id: number }
  | { readonly kind: 'actor'; readonly id: string }
  | { readonly kind: 'step'; readonly index: number };

export type RunStatus = 'idle' | 'running' | 'ready' | 'error';

/** A run the page refused (too large), stopped at a budget, or that was cancelled; with its scenario. */
export type PageBudgetStop = BudgetStop & { readonly scenario: Scenario };

export interface SimState {
  readonly scenario: Scenario | null;
  readonly errors: readonly ScenarioError[] | null;
  readonly notes: readonly ConfigNote[];
  readonly trace: Trace | null;
  readonly status: RunStatus;
  /** Steps computed so far while a long run is in progress. */
  readonly progress: number;
  /** Set when the last load was refused for its size, stopped at a budget or cancelled (see sim/budget.ts). */
  readonly budget: PageBudgetStop | null;
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

  /**
   * Validates and runs a scenario, then lands on `step` (default: the start). With `forkOf`, the
   * scenario is an edit of that trace's at `step`: the run goes on from the checkpoint before it. With
   * `edit` (fork), its first steps run at once whatever runTiming says.
   */
  load(input: unknown, options?: { step?: number; forkOf?: RecordedTrace; edit?: boolean }): void;
  /** Stops the run under way; the steps computed so far become the trace (a bounded run). */
  cancel(): void;
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

const cursors = new WeakMap<Trace, ViewCursor>();

/**
 * The state after `step` steps of a run: playback moves forwards a step or a few per frame, so one
 * cursor per run runs on from the last view instead of replaying from a checkpoint every frame.
 */
function viewAt(trace: Trace, step: number): SimView {
  let c = cursors.get(trace);
  if (!c) {
    c = new ViewCursor(trace);
    cursors.set(trace, c);
  }
  return c.at(step);
}

/** Which steps of a run tell its story (computed once per run). */
export function storyOf(trace: Trace): Uint8Array {
  let s = stories.get(trace);
  if (!s) {
    s = storySteps(trace);
    stories.set(trace, s);
  }
  return s;
}

/**
 * How a load runs: `syncSteps` steps at once inside load() (so that a test, or a script, reads the
 * trace right after it), the rest in slices of SLICE_MS between tasks. The page and the embed set
 * it to 0 before their first load: every run then yields before its first step (load() only builds
 * it) and within SLICE_MS of each slice, so no run makes a long task, and load() returns with
 * status 'running'.
 */
export const runTiming: { syncSteps: number; landing: readonly LandingWork[] } = { syncSteps: 8000, landing: [] };

/**
 * Work a page does once per run before it shows it (src/ui/landing.ts: the story marks, the jump
 * targets, the timeline's extents and message diagram, the cost…), each piece cached per trace by
 * the panel that reads it. A run that computed in slices lands in tasks: finishing the trace, each
 * piece of `runTiming.landing`, the first view, then status 'ready' — so the first render of the
 * run's workspace finds them made, and no task of the landing is long. A run landed at once (a
 * test's store, an edit's fork, a run stopped at a budget or cancelled) leaves them to the panels, as before.
 */
export type LandingWork = (trace: Trace) => unknown;
/** An edit's fork runs this many steps at once whatever runTiming says (see load). */
const EDIT_SYNC_STEPS = 8000;
/** A slice yields to the page after this long, so input is answered between slices. */
const SLICE_MS = 12;

export function createSimStore(budgets: PageBudgets = PAGE_BUDGETS) {
  let generation = 0;
  /** Lands the run under way now (set by load while it runs in slices). */
  let stopRun: ((kind: BudgetKind) => void) | null = null;
  /** A seek while a run is under way: where it lands when it is done. */
  let landOn: number | null = null;
  /** A run computed in slices is landing (its trace is finished in tasks, see LandingWork). */
  let landing = false;
  return createStore<SimState>()((set, get) => ({
    scenario: null,
    errors: null,
    notes: [],
    trace: null,
    status: 'idle',
    progress: 0,
    budget: null,
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
      stopRun = null;
      landOn = null;
      landing = false;
      if (!v.ok) {
        set({ errors: v.errors, status: 'error', playing: false, budget: null });
        return;
      }
      const scenario = v.resolved.scenario;
      const refused = sizeRefusal(scenario, budgets);
      if (refused) {
        set({ errors: null, status: 'error', playing: false, budget: { ...refused, scenario } });
        return;
      }
      const job = new RunJob(v.resolved, budgets, options.forkOf ? { trace: options.forkOf, step: options.step ?? 0 } : undefined);
      set({ status: 'running', progress: 0, playing: false, errors: null, notes: v.resolved.notes, budget: null });
      /** Shows a landed run (status 'ready'), on the step a seek meanwhile asked for. */
      const show = ({ trace, budget }: Landed) => {
        const step = Math.max(0, Math.min(landOn ?? options.step ?? 0, trace.steps.length));
        landOn = null;
        landing = false;
        set({
          scenario,
          trace,
          status: 'ready',
          progress: trace.steps.length,
          step,
          view: viewAt(trace, step),
          // an edit's fork keeps the process the reader picked (to inject again on it); a new run starts with none
          selection: options.edit ? keptSelection(get().selection, trace, options.step ?? 0) : null,
          budget: budget ? { ...budget, scenario } : null,
        });
      };
      const land = (stopped: BudgetKind | null) => {
        stopRun = null;
        show(job.land(stopped));
      };
      // small runs finish synchronously (unless runTiming says otherwise); large ones yield to the page between slices
      // an edit's fork (options.edit) lands at once like a test's load: the panel that made the edit
      // confirms it from the forked run right after fork() returns (src/ui/inject, the config editor)
      const syncSteps = options.edit ? EDIT_SYNC_STEPS : runTiming.syncSteps;
      // with no steps at once, the first slice too is a task of its own: building the run is work
      // enough for the task that called load() (at the page's boot, ~25 ms on a cold engine)
      const first = syncSteps > 0 ? job.slice(Number.POSITIVE_INFINITY, syncSteps) : null;
      if (first && syncSteps > 0) return land(first === 'done' ? null : first);
      // a run computed in slices lands in tasks of its own (see LandingWork); a newer load drops it.
      // One stopped at a budget or cancelled lands at once, as before: over a long run each piece
      // would be long anyway, and its notice is what the person waits for
      const landInTasks = (stopped: BudgetKind | null) => {
        if (stopped) return land(stopped);
        stopRun = null;
        landing = true;
        const current = () => run === generation;
        setTimeout(() => {
          if (!current()) return;
          const landed = job.land(null);
          const work: LandingWork[] = [
            ...runTiming.landing,
            (trace) => viewAt(trace, Math.min(landOn ?? options.step ?? 0, trace.steps.length)),
          ];
          const next = (k: number) => {
            if (!current()) return;
            if (k === work.length) return show(landed);
            Promise.resolve(work[k]?.(landed.trace))
              .catch(() => undefined) // a panel that cannot prepare its part computes it when it renders
              .then(() => setTimeout(() => next(k + 1), 0));
          };
          next(0);
        }, 0);
      };
      if (first) return landInTasks(first === 'done' ? null : first);
      stopRun = landInTasks;
      const next = () => {
        if (run !== generation || stopRun !== landInTasks) return; // a newer load replaced this one, or it was cancelled
        const r = job.slice(SLICE_MS, Number.POSITIVE_INFINITY);
        if (r) return landInTasks(r === 'done' ? null : r);
        set({ progress: job.steps });
        setTimeout(next, 0);
      };
      set({ progress: job.steps });
      setTimeout(next, 0);
    },
    cancel() {
      stopRun?.('cancelled');
    },
    seek(step) {
      if (stopRun || landing) landOn = Math.max(0, Math.round(step)); // the run under way lands there
      const { trace } = get();
      if (!trace) return;
      const s = Math.max(0, Math.min(Math.round(step), trace.steps.length));
      if (s === get().step && get().view) return;
      set({ step: s, view: viewAt(trace, s) });
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
      const { scenario, step, trace } = get();
      if (!scenario) return;
      // an edit of a counterexample Break it found makes it the person's run: no longer what Break it
      // found (origin.ts: the header says "edited" again)
      const { foundBy: _, ...edited } = edit(scenario);
      get().load(edited, { step, edit: true, ...(trace instanceof RecordedTrace ? { forkOf: trace } : {}) });
    },
  }));
}

/**
 * The selection still meaningful in an edit's forked run, forked at step `forkStep` (every step
 * before it is the old run's, trace/fork.ts): a process (actor) that the run still has; a step
 * before the fork; a message sent before it (envelope ids are given in send order, so it has the
 * same id); a record (at the step shown, the fork's state is the old run's: the details panel says
 * so when that record is not in the log there).
 */
function keptSelection(selection: Selection | null, trace: Trace, forkStep: number): Selection | null {
  if (!selection) return null;
  switch (selection.kind) {
    case 'actor': {
      const process = processOf(selection.id);
      return trace.built.processes.some((p) => p.id === process) ? selection : null;
    }
    case 'step':
      return selection.index < forkStep && selection.index < trace.steps.length ? selection : null;
    case 'envelope': {
      const e = trace.envelopes.at(selection.id);
      return e && e.sentStep < forkStep ? selection : null;
    }
    case 'record':
      return selection;
  }
}

export const simStore = createSimStore();

export function loadDefault(): void {
  const preset = findPreset(DEFAULT_PRESET_ID);
  if (preset) simStore.getState().load(preset.scenario);
}
