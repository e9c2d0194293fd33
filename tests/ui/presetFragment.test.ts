/**
 * A shipped scenario by its id in the page's address (`#preset=<id>[&step=<n>]`,
 * src/share/presetFragment.ts): parsed, written, resolved with a clear error, opened by the page's
 * hash handling, and recognised in the Share panel only while the scenario is unchanged.
 */
import { describe, expect, it } from 'vitest';
import { startHashSync } from '../../src/share/hashSync';
import {
  parsePresetFragment,
  presetAddressFromQuery,
  presetFragmentOf,
  presetIdOf,
  resolvePresetFragment,
} from '../../src/share/presetFragment';
import { shareStore } from '../../src/share/shareState';
import { findPreset } from '../../src/sim';
import { createSimStore } from '../../src/store/simStore';
import { fakeWindow, withFakeTimersAndFreshShare } from './fakeWindow';

describe('#preset=<id>', () => {
  withFakeTimersAndFreshShare();

  it("the embed's query form ?preset=<id>[&step=<n>] stands for the fragment, other parameters kept; a fragment wins", () => {
    expect(presetAddressFromQuery('/app/', '?preset=zombie-fencing&step=7', '')).toBe('/app/#preset=zombie-fencing&step=7');
    expect(presetAddressFromQuery('/app/', '?utm=x&preset=zombie-fencing&step=-5', '#')).toBe('/app/?utm=x#preset=zombie-fencing');
    expect(presetAddressFromQuery('/', '?preset=%3Cb%3E', '')).toBe('/#preset=%3Cb%3E');
    expect(presetAddressFromQuery('/', '?preset=zombie-fencing', '#s=1.abc')).toBeNull();
    expect(presetAddressFromQuery('/', '?preset=', '')).toBeNull();
    expect(presetAddressFromQuery('/', '?step=3', '')).toBeNull();
  });

  it('parses an id and an optional step, and writes them back', () => {
    expect(parsePresetFragment('#preset=zombie-fencing')).toEqual({ id: 'zombie-fencing', step: null });
    expect(parsePresetFragment('#preset=zombie-fencing&step=12')).toEqual({ id: 'zombie-fencing', step: 12 });
    // a step that is not a whole number is ignored, an unknown parameter too
    expect(parsePresetFragment('#preset=zombie-fencing&step=-1&x=2')).toEqual({ id: 'zombie-fencing', step: null });
    expect(parsePresetFragment('#preset=%E2%9C%93%')).toEqual({ id: '%E2%9C%93%', step: null });
    expect(parsePresetFragment('#s=1.abc')).toBeNull();
    expect(parsePresetFragment('#gallery')).toBeNull();
    expect(presetFragmentOf('zombie-fencing', 3)).toBe('#preset=zombie-fencing&step=3');
    expect(parsePresetFragment(presetFragmentOf('a b', 7))).toEqual({ id: 'a b', step: 7 });
  });

  it('an unknown id is an error that says what it looked for, in English and Korean, with the text as given', () => {
    const r = resolvePresetFragment({ id: '<img src=x>', step: null });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toContain('No shipped scenario is called "<img src=x>"');
    expect(r.error.ko).toContain('"<img src=x>"');
  });

  it('the page opens the preset at the step, and an unknown id shows the link error', () => {
    const store = createSimStore();
    const stop = startHashSync(store, fakeWindow('#preset=zombie-fencing&step=5').win);
    expect(store.getState().scenario?.id).toBe('zombie-fencing');
    expect(store.getState().step).toBe(5);
    expect(shareStore.getState().linkError).toBeNull();
    stop();

    const other = createSimStore();
    const stopOther = startHashSync(other, fakeWindow('#preset=no-such-scenario').win);
    expect(other.getState().scenario).toBeNull();
    expect(shareStore.getState().linkError?.message).toContain('"no-such-scenario"');
    stopOther();
  });

  it('a step past the end of the run opens at the last step and says so; a step within it says nothing', () => {
    const store = createSimStore();
    const stop = startHashSync(store, fakeWindow('#preset=zombie-fencing&step=999999').win);
    const steps = store.getState().trace?.steps.length as number;
    expect(store.getState().step).toBe(steps);
    expect(shareStore.getState().stepPastEnd).toEqual({ asked: 999999, steps });
    stop();
    const within = createSimStore();
    const stopWithin = startHashSync(within, fakeWindow('#preset=zombie-fencing&step=5').win);
    expect(shareStore.getState().stepPastEnd).toBeNull();
    stopWithin();
  });

  it('the Share panel knows an unchanged preset, not an edited one', () => {
    const preset = findPreset('zombie-fencing');
    if (!preset) throw new Error('no preset');
    expect(presetIdOf(preset.scenario)).toBe('zombie-fencing');
    expect(presetIdOf(JSON.parse(JSON.stringify(preset.scenario)))).toBe('zombie-fencing');
    // as the store holds it: the scenario validation resolved
    const store = createSimStore();
    store.getState().load(preset.scenario);
    expect(presetIdOf(store.getState().scenario)).toBe('zombie-fencing');
    expect(presetIdOf({ ...preset.scenario, seed: (preset.scenario.seed ?? 0) + 1 })).toBeNull();
    expect(presetIdOf(null)).toBeNull();
  });
});
