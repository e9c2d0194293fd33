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
import { shareText } from '../../src/share/strings';
import { encodeLink, findPreset } from '../../src/sim';
import { createSimStore } from '../../src/store/simStore';
import { fakeWindow, withFakeTimersAndFreshShare } from './fakeWindow';

describe('#preset=<id>', () => {
  withFakeTimersAndFreshShare();

  it("the embed's query form ?preset=<id>[&step=<n>] stands for the fragment, other parameters kept; a fragment wins", () => {
    expect(presetAddressFromQuery('/app/', '?preset=zombie-fencing&step=7', '')).toBe('/app/#preset=zombie-fencing&step=7');
    // a step that is no step of a run goes along as written, for the fragment's reader to clamp and say so
    expect(presetAddressFromQuery('/app/', '?utm=x&preset=zombie-fencing&step=-5', '#')).toBe('/app/?utm=x#preset=zombie-fencing&step=-5');
    expect(presetAddressFromQuery('/', '?preset=%3Cb%3E', '')).toBe('/#preset=%3Cb%3E');
    expect(presetAddressFromQuery('/', '?preset=zombie-fencing', '#s=1.abc')).toBeNull();
    expect(presetAddressFromQuery('/', '?preset=', '')).toBeNull();
    expect(presetAddressFromQuery('/', '?step=3', '')).toBeNull();
  });

  it('parses an id and an optional step, and writes them back', () => {
    expect(parsePresetFragment('#preset=zombie-fencing')).toEqual({ id: 'zombie-fencing', step: null });
    expect(parsePresetFragment('#preset=zombie-fencing&step=12')).toEqual({ id: 'zombie-fencing', step: 12 });
    // a step that is not a whole number ≥ 0 is clamped and kept as written; an unknown parameter is ignored
    expect(parsePresetFragment('#preset=zombie-fencing&step=-1&x=2')).toEqual({ id: 'zombie-fencing', step: 0, badStep: '-1' });
    expect(parsePresetFragment('#preset=zombie-fencing&step=2.5')).toEqual({ id: 'zombie-fencing', step: 2, badStep: '2.5' });
    expect(parsePresetFragment('#preset=zombie-fencing&step=%3Cb%3E')).toEqual({ id: 'zombie-fencing', step: 0, badStep: '<b>' });
    expect(parsePresetFragment(`#preset=zombie-fencing&step=${'9'.repeat(30)}`)?.badStep).toBe(`${'9'.repeat(16)}…`);
    expect(parsePresetFragment('#preset=%E2%9C%93%')).toEqual({ id: '%E2%9C%93%', step: null });
    expect(parsePresetFragment('#s=1.abc')).toBeNull();
    expect(parsePresetFragment('#gallery')).toBeNull();
    expect(presetFragmentOf('zombie-fencing', 3)).toBe('#preset=zombie-fencing&step=3');
    expect(presetFragmentOf('zombie-fencing', 3, 'ko')).toBe('#preset=zombie-fencing&step=3&lang=ko');
    expect(parsePresetFragment(presetFragmentOf('zombie-fencing', 3, 'ko'))).toEqual({
      id: 'zombie-fencing',
      step: 3,
      lang: { language: 'ko' },
    });
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

  it('a negative or fractional step opens clamped and says so, in English and Korean; a whole step says nothing', () => {
    for (const [hash, asked, opened] of [
      ['#preset=zombie-fencing&step=-3', '-3', 0],
      ['#preset=zombie-fencing&step=2.5', '2.5', 2],
      ['#preset=zombie-fencing&step=abc', 'abc', 0],
    ] as const) {
      const store = createSimStore();
      const stop = startHashSync(store, fakeWindow(hash).win);
      expect(store.getState().scenario?.id).toBe('zombie-fencing');
      expect(store.getState().step).toBe(opened);
      expect(shareStore.getState().stepNotAStep).toEqual({ asked, opened });
      stop();
    }
    expect(shareText('en').stepNotAStep('-3', 0)).toBe(
      'This link asks for step “-3”, which is not a step (steps are whole numbers from 0): it opens at step 0.',
    );
    expect(shareText('ko').stepNotAStep('-3', 0)).toContain('0단계에서 엽니다');
    // the next scenario opened clears the note, and a whole step never sets it
    const within = createSimStore();
    const stopWithin = startHashSync(within, fakeWindow('#preset=zombie-fencing&step=5').win);
    expect(shareStore.getState().stepNotAStep).toBeNull();
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

  it('lang=en or ko opens in that language; any other value opens as before and says EOS Lab has only en and ko, in that language', () => {
    expect(parsePresetFragment('#preset=zombie-fencing&lang=ko')).toEqual({ id: 'zombie-fencing', step: null, lang: { language: 'ko' } });
    expect(parsePresetFragment('#preset=zombie-fencing&step=3&lang=fr')).toEqual({
      id: 'zombie-fencing',
      step: 3,
      lang: { unsupported: 'fr' },
    });
    expect(parsePresetFragment(`#preset=zombie-fencing&lang=${'x'.repeat(30)}`)?.lang).toEqual({ unsupported: `${'x'.repeat(16)}…` });

    const ko = createSimStore();
    const stopKo = startHashSync(ko, fakeWindow('#preset=zombie-fencing&lang=ko').win);
    expect(ko.getState().language).toBe('ko');
    expect(shareStore.getState().languageNotSupported).toBeNull();
    stopKo();

    const fr = createSimStore();
    const stopFr = startHashSync(fr, fakeWindow('#preset=zombie-fencing&step=3&lang=fr').win);
    expect(fr.getState().scenario?.id).toBe('zombie-fencing');
    expect(fr.getState().step).toBe(3);
    expect(fr.getState().language).toBe('en');
    expect(shareStore.getState().languageNotSupported).toBe('fr');
    stopFr();

    // the page's query (?lang=…, what ?preset=…&lang=… leaves once the preset moves into the fragment)
    for (const [search, language, note] of [
      ['?lang=ko', 'ko', null],
      ['?lang=fr', 'en', 'fr'],
      ['', 'en', null],
    ] as const) {
      const w = fakeWindow('#preset=zombie-fencing');
      (w.location as { search?: string }).search = search;
      const store = createSimStore();
      const stop = startHashSync(store, w.win);
      expect(store.getState().language, search).toBe(language);
      expect(shareStore.getState().languageNotSupported, search).toBe(note);
      stop();
    }
    // a share link's own language wins over the query's
    const preset = findPreset('zombie-fencing');
    if (!preset) throw new Error('no preset');
    const w = fakeWindow(encodeLink(preset.scenario, { step: 0, selection: null, language: 'en' }));
    (w.location as { search?: string }).search = '?lang=ko';
    const linked = createSimStore();
    const stopLinked = startHashSync(linked, w.win);
    expect(linked.getState().language).toBe('en');
    stopLinked();

    expect(shareText('en').languageNotSupported('fr')).toBe(
      'This link asks for language “fr”, which EOS Lab does not have: it speaks only English (lang=en) and Korean (lang=ko).',
    );
    expect(shareText('ko').languageNotSupported('fr')).toBe(
      '이 링크가 요청한 언어 “fr”은(는) EOS Lab에 없습니다. 영어(lang=en)와 한국어(lang=ko)만 있습니다.',
    );
  });
});
