/**
 * The embed's store over the engine boundary (src/embed/embedStore.ts), driven in-process with the
 * embed's panels provider: a run lands with its step count and the panels of its step; a seek moves
 * the step at once and the panels follow from the engine; stepping follows the story marks sent with
 * `done`; an invalid scenario leaves the run on screen; a refusal carries the scenario.
 */
import { describe, expect, it } from 'vitest';
import { heavyScenario } from '../bench/budgetScenarios';
import { embedPanels } from '../src/embed/embedPanels';
import { createEmbedStore, type EmbedStore } from '../src/embed/embedStore';
import { findPreset } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { nextStoryPosition, storySteps } from '../src/sim/views';
import { inProcessEngine } from '../src/store/engine/inProcessEngine';

const story = findPreset('opening-story')!.scenario;

const panelsAt = (store: EmbedStore, step: number) =>
  new Promise<void>((resolve) => {
    const check = () => store.getState().panels?.step === step;
    if (check()) return resolve();
    const stop = store.subscribe(() => {
      if (!check()) return;
      stop();
      resolve();
    });
  });

describe("the embed's store holds the worker's answers", () => {
  it('lands a run with its step count and the panels of its step; seeks and steps ask the engine', async () => {
    const store = createEmbedStore(() => inProcessEngine(undefined, embedPanels()));
    const trace = runScenario(story);
    expect(await store.getState().load(story, { step: 4 })).toEqual({ kind: 'done' });
    const s = store.getState();
    expect(s.status).toBe('ready');
    expect(s.steps).toBe(trace.steps.length);
    expect(s.step).toBe(4);
    expect(s.panels?.step).toBe(4);
    expect(s.scenario).toEqual(trace.scenario);
    s.seek(20);
    expect(store.getState().step).toBe(20); // at once; the panels follow
    await panelsAt(store, 20);
    store.getState().stepForward();
    const next = nextStoryPosition(storySteps(trace), 20);
    expect(store.getState().step).toBe(next);
    await panelsAt(store, next);
    store.getState().setLanguage('ko');
    await new Promise<void>((resolve) => {
      const stop = store.subscribe((st) => {
        if (st.panels?.language !== 'ko') return;
        stop();
        resolve();
      });
    });
    expect(store.getState().panels?.step).toBe(next);
  });

  it('an invalid scenario leaves the run on screen; a refused one says so with its scenario', async () => {
    const store = createEmbedStore(() => inProcessEngine(undefined, embedPanels()));
    await store.getState().load(story);
    const run = store.getState().run;
    const bad = await store.getState().load({ id: 'x' });
    expect(bad.kind).toBe('invalid');
    expect(store.getState().run).toBe(run);
    expect(store.getState().status).toBe('ready');
    expect(await store.getState().load(heavyScenario())).toEqual({ kind: 'refused' });
    expect(store.getState().budget?.kind).toBe('size');
    expect(store.getState().budget?.scenario.topics.length).toBe(heavyScenario().topics.length);
  });

  it('a newer load replaces one under way', async () => {
    const store = createEmbedStore(() => inProcessEngine(undefined, embedPanels()));
    const first = store.getState().load(findPreset('streams-eos-crash-restore')!.scenario);
    const second = store.getState().load(story);
    expect(await first).toEqual({ kind: 'replaced' });
    expect(await second).toEqual({ kind: 'done' });
    expect(store.getState().steps).toBe(runScenario(story).steps.length);
  });
});
