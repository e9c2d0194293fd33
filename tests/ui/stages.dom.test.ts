// @vitest-environment happy-dom
/**
 * The workspace in stages (src/ui/layout/stages.ts, on in the page): a run lands with its playback
 * bar alone, in the narration's place a box of the same size; the timeline, then the narration and
 * the actors, then the verdict, the cost and the details, then the checklist and the collapsed
 * panels under the timeline follow, each stage after the one before. With staging off (the
 * default, as in every other test) the workspace renders every panel at once.
 */
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PRESET_ID, findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { workspaceStaging } from '../../src/ui/layout/stages';
import { pageInDom } from './pageInDom';

const page = pageInDom();

afterEach(() => {
  workspaceStaging.enabled = false;
});

const has = (selector: string) => page.host.querySelector(selector) !== null;

/** The panels on screen, in the order the stages add them. */
const shown = () => ({
  playback: has('[data-testid="step-counter"]'),
  timeline: has('[data-testid="timeline"]'),
  narration: has('[data-testid="narration"]'),
  actors: has('.actors-column .actor'),
  verdict: has('[data-testid="verdict"]'),
  details: has('[data-testid="details"]'),
  checklist: has('[data-testid="checklist"]'),
  code: has('[data-testid="code-panel"]'),
});

/** Lets the stages go on until `done` holds (each stage waits for a frame; a few dozen rounds at most). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await page.settle(5);
}

describe('the workspace', () => {
  it('renders in stages: the playback bar first, then the timeline, the other panels after', async () => {
    workspaceStaging.enabled = true;
    act(() => simStore.getState().load(findPreset(DEFAULT_PRESET_ID)?.scenario));
    page.render();
    expect(shown()).toEqual({
      playback: true,
      timeline: false,
      narration: false,
      actors: false,
      verdict: false,
      details: false,
      checklist: false,
      code: false,
    });
    // the narration's box keeps its place; the workspace says how many stages are still to come
    expect(page.host.querySelectorAll('.narration')).toHaveLength(1);
    expect(page.host.querySelector('.workspace')?.getAttribute('data-pending-stages')).toBe('4');
    const seen: string[] = [];
    await until(() => {
      for (const [k, v] of Object.entries(shown())) if (v && !seen.includes(k)) seen.push(k);
      return shown().code && shown().checklist;
    });
    expect(Object.values(shown()).every(Boolean)).toBe(true);
    expect(page.host.querySelector('.workspace')?.getAttribute('data-pending-stages')).toBe('0');
    // the order the panels came in: each stage after the one before
    expect(seen.indexOf('timeline')).toBeLessThan(seen.indexOf('narration'));
    expect(seen.indexOf('timeline')).toBeLessThan(seen.indexOf('actors'));
    expect(seen.indexOf('narration')).toBeLessThan(seen.indexOf('verdict'));
    expect(seen.indexOf('actors')).toBeLessThan(seen.indexOf('details'));
    expect(seen.indexOf('verdict')).toBeLessThan(seen.indexOf('checklist'));
  });

  it('renders every panel at once with staging off', async () => {
    act(() => simStore.getState().load(findPreset(DEFAULT_PRESET_ID)?.scenario));
    page.render();
    const first = shown();
    expect(first.playback && first.timeline && first.narration && first.actors && first.verdict && first.details).toBe(true);
    expect(first.checklist).toBe(true);
    // the collapsed panels under the timeline are a chunk of their own (loaded before these tests)
    await until(() => shown().code);
    expect(shown().code).toBe(true);
  });
});
