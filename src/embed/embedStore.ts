/**
 * The embed's store: what the engine's worker answered, never the trace — the run's outcome and its
 * once-per-run panels (EmbedRunPanels), the step count, and the panels of the step on screen
 * (EmbedStepPanels), asked for on every seek. While playing, the next story position's panels are
 * asked for as soon as a step's arrive, so a frame finds them ready. The step moves at once (the
 * bridge and the playback bar follow it); the panels follow when the worker answers.
 */
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { Scenario, ScenarioError } from '../sim';
import { nextStoryPosition, previousStoryPosition } from '../sim/views';
import type { EngineClient } from '../store/engine/engineClient';
import type { ResolvedLink } from '../store/engine/protocol';
import type { Language, PageBudgetStop, RunStatus, Selection } from '../store/simStore';
import type { EnvelopePayloads } from '../ui/timeline/envelopePayloads';
import { embedEngine } from './embedEngine';
import type { EmbedPanelsAsk, EmbedRunPanels, EmbedStepPanels } from './panelTypes';
import { payloadCache } from './payloadCache';

/** What a load came to: a run on screen, the scenario's errors, a refusal, or a newer load. */
export type LoadResult =
  | { readonly kind: 'done' }
  | { readonly kind: 'invalid'; readonly errors: readonly ScenarioError[] }
  | { readonly kind: 'refused' }
  | { readonly kind: 'replaced' }
  | { readonly kind: 'error'; readonly message: string };

export interface EmbedState {
  /** The scenario of the run on screen, as the engine resolved it. */
  readonly scenario: Scenario | null;
  readonly errors: readonly ScenarioError[] | null;
  readonly status: RunStatus;
  /** Steps computed so far while a run is under way. */
  readonly progress: number;
  readonly budget: PageBudgetStop | null;
  /** The run's once-per-run panels (null before a run lands). */
  readonly run: EmbedRunPanels | null;
  /** The run's step count: step runs from 0 to it. */
  readonly steps: number;
  readonly step: number;
  /** The panels of the step on screen, or of the last step answered while the worker computes them. */
  readonly panels: EmbedStepPanels | null;
  /** The run's envelope payloads, asked for one at a time as the message diagram's tooltip shows them. */
  readonly payloads: EnvelopePayloads | null;
  readonly playing: boolean;
  readonly speed: number;
  readonly language: Language;
  readonly selection: Selection | null;
  readonly skipIdle: boolean;

  /** What a share link or a preset id opens, decoded and validated in the worker. */
  resolve(text: string): Promise<ResolvedLink>;
  /** Runs a scenario in the worker and lands on `step`; resolves when it landed (or could not). */
  load(input: unknown, options?: { step?: number }): Promise<LoadResult>;
  cancel(): void;
  seek(step: number): void;
  stepForward(): void;
  stepBack(): void;
  advance(n: number): number;
  setPlaying(playing: boolean): void;
  setSpeed(stepsPerSecond: number): void;
  setLanguage(language: Language): void;
  select(selection: Selection | null): void;
  setSkipIdle(skip: boolean): void;
}

/** Panels asked for and kept: the step on screen and a few ahead. */
const KEEP_ASKED = 6;

export function createEmbedStore(engineOf: () => EngineClient = embedEngine) {
  let engine: EngineClient | null = null;
  const client = () => {
    engine ??= engineOf();
    return engine;
  };
  let generation = 0;
  /** A seek while a run is under way: where it lands. */
  let landOn: number | null = null;
  /** Panels asked for in this run, by language and step. */
  let asked = new Map<string, Promise<EmbedStepPanels | null>>();

  return createStore<EmbedState>()((set, get) => {
    const ask = (step: number): Promise<EmbedStepPanels | null> => {
      const { language } = get();
      const key = `${language}:${step}`;
      let p = asked.get(key);
      if (!p) {
        const options: EmbedPanelsAsk = { language };
        p = client().panels(step, options) as Promise<EmbedStepPanels | null>;
        asked.set(key, p);
        if (asked.size > KEEP_ASKED) asked.delete(asked.keys().next().value as string);
      }
      return p;
    };
    /** Shows the panels of the step on screen when they arrive; while playing, asks for the next ones. */
    const show = () => {
      const run = generation;
      const { step, language } = get();
      void ask(step).then((panels) => {
        const s = get();
        if (run !== generation || !panels || s.step !== panels.step || s.language !== language) return;
        if (s.panels !== panels) set({ panels });
        if (s.playing) void ask(s.advance(1));
      });
    };

    return {
      scenario: null,
      errors: null,
      status: 'idle',
      progress: 0,
      budget: null,
      run: null,
      steps: 0,
      step: 0,
      panels: null,
      payloads: null,
      playing: false,
      speed: 8,
      language: 'en',
      selection: null,
      skipIdle: true,

      resolve(text) {
        return client().resolve(text);
      },
      async load(input, options = {}) {
        const run = ++generation;
        landOn = null;
        set({ status: 'running', progress: 0, playing: false, errors: null, budget: null });
        let r: Awaited<ReturnType<EngineClient['start']>>;
        try {
          r = await client().start(input, { onProgress: (steps) => run === generation && set({ progress: steps }) });
        } catch (err) {
          if (run === generation) set({ status: 'error' });
          return { kind: 'error', message: err instanceof Error ? err.message : String(err) };
        }
        if (run !== generation || r.kind === 'replaced') return { kind: 'replaced' };
        if (r.kind === 'invalid') {
          // a host's invalid scenario changes nothing: the run on screen stays as it was (docs/embedding.md)
          set({ errors: r.errors, status: get().run ? 'ready' : 'error', playing: false });
          return r;
        }
        if (r.kind === 'refused') {
          set({ errors: null, status: 'error', playing: false, budget: { ...r.budget, scenario: r.scenario } });
          return { kind: 'refused' };
        }
        const panels = r.outcome.panels as EmbedRunPanels;
        const steps = r.outcome.steps;
        const step = Math.max(0, Math.min(landOn ?? options.step ?? 0, steps));
        landOn = null;
        asked = new Map();
        // the run lands with its first panels, so what is on screen is never a step without them
        const first = (await client().panels(step, { language: get().language } satisfies EmbedPanelsAsk)) as EmbedStepPanels | null;
        if (run !== generation) return { kind: 'replaced' };
        set({
          step,
          scenario: panels.scenario,
          run: panels,
          steps,
          status: 'ready',
          progress: steps,
          panels: first,
          payloads: payloadCache((id) => client().payload(id)),
          selection: null,
          budget: r.outcome.budget ? { ...r.outcome.budget, scenario: panels.scenario } : null,
        });
        // a seek made while the first panels were on their way
        if (landOn !== null) {
          const to = landOn;
          landOn = null;
          get().seek(to);
        }
        return { kind: 'done' };
      },
      cancel() {
        if (get().status === 'running') client().cancel();
      },
      seek(step) {
        const { status, run, steps } = get();
        if (status === 'running') landOn = Math.max(0, Math.round(step));
        if (!run || status === 'running') return;
        const s = Math.max(0, Math.min(Math.round(step), steps));
        if (s === get().step && get().panels?.step === s) return;
        set({ step: s });
        show();
      },
      stepForward() {
        get().seek(get().advance(1));
      },
      stepBack() {
        const { run, step, skipIdle } = get();
        get().seek(run && skipIdle ? previousStoryPosition(run.story, step) : step - 1);
      },
      advance(n) {
        const { run, step, steps, skipIdle } = get();
        if (!run) return step;
        if (!skipIdle) return Math.min(steps, step + n);
        let p = step;
        for (let k = 0; k < n && p < steps; k++) p = nextStoryPosition(run.story, p);
        return p;
      },
      setPlaying(playing) {
        const { run, step, steps } = get();
        set({ playing: playing && run !== null && step < steps });
        if (get().playing) void ask(get().advance(1));
      },
      setSpeed(speed) {
        set({ speed: Math.max(0.5, Math.min(speed, 2000)) });
      },
      setLanguage(language) {
        if (language === get().language) return;
        set({ language });
        if (get().run) show();
      },
      select(selection) {
        set({ selection });
      },
      setSkipIdle(skipIdle) {
        set({ skipIdle });
      },
    };
  });
}

export type EmbedStore = ReturnType<typeof createEmbedStore>;

/** The embed page's store. */
export const embedStore = createEmbedStore();

export function useEmbed<T>(selector: (s: EmbedState) => T): T {
  return useStore(embedStore, selector);
}
