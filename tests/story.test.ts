/**
 * Which steps tell a run's story (sim/trace/story.ts): background steps — a heartbeat, an idle fetch
 * and its empty answer, a poll that found nothing — are read from the trace, not listed per preset.
 * lost-ack-idempotent's one record takes 446 steps; its story is a few dozen of them, and it still
 * holds the lost ack, the timeout and the retry the broker recognises.
 */
import { describe, expect, it } from 'vitest';
import { findPreset, PRESETS } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { decodeLink, encodeLink } from '../src/sim/scenario/link';
import type { Fact } from '../src/sim/trace/facts';
import { nextStoryPosition, previousStoryPosition, storyMarks, storySteps } from '../src/sim/trace/story';
import { createSimStore } from '../src/store/simStore';

describe('story steps', () => {
  it('lost-ack-idempotent: a few dozen story steps among hundreds, with the fault, the timeout and the recognised retry', () => {
    const trace = runScenario(findPreset('lost-ack-idempotent')?.scenario);
    const story = storySteps(trace);
    const kept = trace.steps.filter((_, i) => story[i]);
    expect(trace.steps.length).toBeGreaterThan(400);
    expect(kept.length).toBeLessThan(trace.steps.length / 10);
    expect(kept.some((s) => s.faults.length > 0)).toBe(true);
    expect(kept.some((s) => s.kind === 'disconnected')).toBe(true);
    expect(kept.some((s) => (s.facts as readonly Fact[]).some((f) => f.kind === 'duplicate'))).toBe(true);
  });

  it('on every preset, no step with a fact, a fault or a foreground message is background', () => {
    for (const p of PRESETS) {
      const trace = runScenario(p.scenario);
      const story = storySteps(trace);
      trace.steps.forEach((s, i) => {
        const foreground =
          s.facts.length > 0 ||
          s.faults.length > 0 ||
          s.sent.some((id) => !trace.envelopes[id]?.background) ||
          (s.kind === 'deliver' && s.envelope !== null && !trace.envelopes[s.envelope]?.background) ||
          !['deliver', 'timer', 'call'].includes(s.kind);
        if (foreground) expect(story[i], `${p.id} step ${i} (${s.kind} ${s.label})`).toBe(1);
        else expect(story[i], `${p.id} step ${i} (${s.kind} ${s.label})`).toBe(0);
      });
    }
  });

  it('next and previous positions land on story steps, and at the ends', () => {
    const story = Uint8Array.from([1, 0, 0, 1, 0, 1, 0]);
    expect(nextStoryPosition(story, 0)).toBe(1);
    expect(nextStoryPosition(story, 1)).toBe(4);
    expect(nextStoryPosition(story, 4)).toBe(6);
    expect(nextStoryPosition(story, 6)).toBe(7);
    expect(previousStoryPosition(story, 7)).toBe(6);
    expect(previousStoryPosition(story, 6)).toBe(4);
    expect(previousStoryPosition(story, 4)).toBe(1);
    expect(previousStoryPosition(story, 1)).toBe(0);
  });

  it('marks faults, errors, markers, appends, deliveries and side effects', () => {
    const kinds = new Set(PRESETS.flatMap((p) => storyMarks(runScenario(p.scenario).steps).map((m) => m.kind)));
    expect([...kinds].sort()).toEqual(['append', 'delivery', 'effect', 'error', 'fault', 'marker']);
  });
});

describe('the store skips background steps unless told not to', () => {
  it('steps and advances over background steps; with skipIdle off, one step at a time', () => {
    const store = createSimStore();
    store.getState().load(findPreset('lost-ack-idempotent')?.scenario);
    const trace = store.getState().trace;
    if (!trace) throw new Error('no run');
    const story = storySteps(trace);
    let hops = 0;
    while (store.getState().step < trace.steps.length && hops < 1000) {
      store.getState().stepForward();
      hops++;
      const p = store.getState().step;
      expect(p === trace.steps.length || story[p - 1] === 1).toBe(true);
    }
    expect(hops).toBe(story.reduce((n, x) => n + x, 0) + (story[story.length - 1] ? 0 : 1));
    store.getState().setSkipIdle(false);
    store.getState().seek(10);
    store.getState().stepForward();
    expect(store.getState().step).toBe(11);
    expect(store.getState().advance(5)).toBe(16);
  });

  it('a link remembers it only when it is off', () => {
    const s = findPreset('opening-story')?.scenario;
    if (!s) throw new Error('no preset');
    const on = encodeLink(s, { step: 3, selection: null, language: 'en', skipIdle: true });
    const off = encodeLink(s, { step: 3, selection: null, language: 'en', skipIdle: false });
    expect(on).toBe(encodeLink(s, { step: 3, selection: null, language: 'en' }));
    const d = decodeLink(off);
    expect(d.ok && d.view.skipIdle).toBe(false);
    const d2 = decodeLink(on);
    expect(d2.ok && d2.view.skipIdle).toBe(undefined);
  });
});
