/**
 * The A/B view's state: scenario A, B (A with settings changed, or a second scenario), both runs and
 * their comparison (src/sim/compare), and the virtual time the one scrubber is at. Runs in the page's
 * thread: a comparison is of scenarios small enough to read side by side.
 */
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import {
  applySettings,
  type Comparison,
  compareRuns,
  errorText,
  runScenario,
  type Scenario,
  type ScenarioError,
  type SettingChange,
  validateScenario,
} from '../../sim';
import { costOfRun, type RunCost, summarize, type Trace, type TraceSummary } from '../../sim/views';

export interface CompareSide {
  readonly scenario: Scenario;
  readonly trace: Trace;
  readonly summary: TraceSummary;
  readonly cost: RunCost;
}

export interface CompareState {
  readonly open: boolean;
  readonly a: CompareSide | null;
  readonly b: CompareSide | null;
  /** B as settings changed from A; null when B is a scenario of its own (a gallery pair). */
  readonly changes: readonly SettingChange[] | null;
  readonly comparison: Comparison | null;
  /** Virtual time both timelines show, ms. */
  readonly time: number;
  /**
   * Why B cannot run (a change A has no target for, or B fails validation), in both languages; when B
   * fails validation, the errors themselves (the page quotes Kafka's own texts in English, as the
   * config editor does).
   */
  readonly error: { readonly en: string; readonly ko: string; readonly errors?: readonly ScenarioError[] } | null;
  /** B as asked when it cannot run: its settings stay on screen to be changed back; no run is shown for it. */
  readonly requested: Scenario | null;
  openPair(a: Scenario, b: { changes: readonly SettingChange[] } | { scenario: Scenario }, time?: number): void;
  setChanges(changes: readonly SettingChange[]): void;
  setTime(time: number): void;
  close(): void;
}

function side(scenario: Scenario): CompareSide {
  const trace = runScenario(scenario);
  const summary = summarize(trace);
  return { scenario, trace, summary, cost: costOfRun(trace, summary) };
}

/** Virtual time at the end of the longer run. */
export function endTime(s: Pick<CompareState, 'a' | 'b'>): number {
  const last = (x: CompareSide | null) => x?.trace.steps.at(-1)?.t ?? 0;
  return Math.max(last(s.a), last(s.b));
}

export const compareStore = createStore<CompareState>()((set, get) => {
  const build = (a: Scenario, bScenario: Scenario, changes: readonly SettingChange[] | null, time: number) => {
    try {
      const sa = get().a?.scenario === a ? (get().a as CompareSide) : side(a);
      const v = validateScenario(bScenario);
      if (!v.ok) {
        const said = (language: 'en' | 'ko') => v.errors.map((e) => `${e.path}: ${errorText(e, language)}`).join('; ');
        set({ open: true, a: sa, changes, requested: bScenario, error: { en: said('en'), ko: said('ko'), errors: v.errors } });
        return;
      }
      const sb = side(bScenario);
      const comparison = compareRuns(sa, sb);
      set({ open: true, a: sa, b: sb, changes, comparison, error: null, requested: null });
      set({ time: Math.min(time, endTime(get())) });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      set({ open: true, error: { en: message, ko: message } });
    }
  };
  return {
    open: false,
    a: null,
    b: null,
    changes: null,
    comparison: null,
    time: 0,
    error: null,
    requested: null,
    openPair: (a, b, time) => {
      set({ a: null, b: null, comparison: null, requested: null });
      if ('scenario' in b) build(a, b.scenario, null, time ?? Number.MAX_SAFE_INTEGER);
      else {
        const applied = applySettings(a, b.changes);
        build(a, applied.scenario, b.changes, time ?? Number.MAX_SAFE_INTEGER);
      }
    },
    setChanges: (changes) => {
      const a = get().a;
      if (!a) return;
      // a scrubber at the end stays at the end: B changed may run longer (or shorter) than before
      const atEnd = get().time >= endTime(get());
      build(a.scenario, applySettings(a.scenario, changes).scenario, changes, atEnd ? Number.MAX_SAFE_INTEGER : get().time);
    },
    setTime: (time) => set({ time: Math.max(0, Math.min(time, endTime(get()))) }),
    close: () => set({ open: false, a: null, b: null, comparison: null, changes: null, error: null, requested: null }),
  };
});

export function useCompare<T>(selector: (s: CompareState) => T): T {
  return useStore(compareStore, selector);
}
