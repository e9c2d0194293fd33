// @vitest-environment happy-dom
/**
 * What a person sees of an edited run (happy-dom): after a change the header marks the title (the
 * preset's, named once) "edited" and marks the preset's expected outcome as not describing this run,
 * in English and Korean; "Back to the preset" — or undoing the change — clears both. A run titled
 * otherwise says "edited from <preset>". A counterexample Break it found for the preset says so
 * instead ("counterexample found by Break it", "깨뜨려 보기로 찾은 반례"), until the person edits it.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { PRESET_TEXT_KO } from '../../src/sim/presets/ko';
import { setConfigValues } from '../../src/sim/scenario/edits';
import { goalFor, spaceOf } from '../../src/sim/search/presetGoals';
import { counterexampleScenario } from '../../src/sim/search/report';
import { prepareBase } from '../../src/sim/search/runner';
import { searchAll } from '../../src/sim/search/search';
import { simStore } from '../../src/store/simStore';
import { pageInDom } from './pageInDom';

const page = pageInDom();

const editedFrom = () => page.host.querySelector('[data-testid="edited-from"]');
const expected = () => page.host.querySelector('[data-testid="expected"]');
const PRESET = 'lost-ack-idempotent';

describe('an edited run', () => {
  it('marks the title "edited" and the expected outcome, until it is the preset again', async () => {
    const preset = findPreset(PRESET);
    if (!preset) throw new Error('no preset');
    act(() => simStore.getState().load(preset.scenario));
    page.render();
    await page.settle();
    expect(editedFrom()).toBeNull();
    expect(expected()?.getAttribute('data-applies')).toBe('true');

    // a config edit, as the config editor makes it
    act(() => simStore.getState().fork((s) => setConfigValues(s, { scope: 'client', client: 'orders-service' }, { 'linger.ms': 40 })));
    await page.settle();
    expect(editedFrom()?.querySelector('.edited-badge')?.textContent).toBe('edited');
    // the title once: not again in "edited from <the same title>"
    expect(page.host.querySelector('.scenario-title')?.textContent?.split(preset.title).length).toBe(2);
    expect(expected()?.getAttribute('data-applies')).toBe('false');
    expect(expected()?.querySelector('summary')?.textContent).toContain('does not describe this edited run');
    // the title is still the preset's (the scenario keeps its words)
    expect(page.host.querySelector('.scenario-title h2')?.textContent).toBe(preset.title);

    act(() => simStore.getState().setLanguage('ko'));
    await page.settle();
    expect(editedFrom()?.querySelector('.edited-badge')?.textContent).toBe('수정됨');
    const koTitle = PRESET_TEXT_KO[PRESET]?.title ?? '';
    expect(page.host.querySelector('.scenario-title h2')?.textContent).toBe(koTitle);
    expect(page.host.querySelector('.scenario-title')?.textContent?.split(koTitle).length).toBe(2);
    expect(expected()?.querySelector('summary')?.textContent).toContain('수정한 이 실행에는 맞지 않습니다');

    // back to the preset as shipped
    const back = page.host.querySelector<HTMLButtonElement>('[data-testid="reset-to-preset"]');
    expect(back?.textContent).toBe('프리셋으로 되돌리기');
    act(() => back?.click());
    await page.settle();
    expect(editedFrom()).toBeNull();
    expect(expected()?.getAttribute('data-applies')).toBe('true');
  });

  it('a run titled otherwise says which preset it was edited from', async () => {
    const preset = findPreset(PRESET);
    if (!preset) throw new Error('no preset');
    act(() => simStore.getState().load({ ...preset.scenario, title: 'my copy' }));
    page.render();
    act(() => simStore.getState().fork((s) => setConfigValues(s, { scope: 'client', client: 'orders-service' }, { 'linger.ms': 40 })));
    await page.settle();
    expect(page.host.querySelector('.scenario-title h2')?.textContent).toBe('my copy');
    expect(editedFrom()?.textContent).toContain(`edited from ${preset.title}`);
  });

  it('undoing the change by hand (resetting the key to its default) clears it too', async () => {
    const preset = findPreset(PRESET);
    if (!preset) throw new Error('no preset');
    act(() => simStore.getState().load(preset.scenario));
    page.render();
    const target = { scope: 'client', client: 'orders-service' } as const;
    act(() => simStore.getState().fork((s) => setConfigValues(s, target, { 'linger.ms': 40 })));
    await page.settle();
    expect(editedFrom()).not.toBeNull();
    act(() => simStore.getState().fork((s) => setConfigValues(s, target, { 'linger.ms': undefined })));
    await page.settle();
    expect(editedFrom()).toBeNull();
  });

  it('a scenario of its own (no preset id) never says edited', async () => {
    const { id: _, ...own } = findPreset(PRESET)?.scenario ?? {};
    act(() => simStore.getState().load({ ...own, title: 'mine' }));
    page.render();
    await page.settle();
    expect(page.host.querySelector('.scenario-title h2')?.textContent).toBe('mine');
    expect(editedFrom()).toBeNull();
  });

  it('a counterexample Break it found says what it is, not "edited", in English and Korean; an edit of it is edited', async () => {
    const id = 'db-sink-duplicate';
    const preset = findPreset(id);
    if (!preset) throw new Error(id);
    const goal = goalFor(id);
    const base = prepareBase(preset.scenario, { keepFaults: goal.keepFaults === true });
    const ce = searchAll(base, { property: goal.property, maxFaults: 1, space: spaceOf(goal) }).counterexample;
    if (!ce) throw new Error('no counterexample');
    act(() => simStore.getState().load(counterexampleScenario(base, ce, goal.property)));
    page.render();
    await page.settle();
    expect(editedFrom()?.getAttribute('data-origin')).toBe('counterexample');
    expect(editedFrom()?.querySelector('.edited-badge')?.textContent).toBe('counterexample found by Break it');
    expect(editedFrom()?.textContent).not.toContain('edited');
    // the title once, the preset's
    expect(page.host.querySelector('.scenario-title h2')?.textContent).toBe(preset.title);
    expect(page.host.querySelector('.scenario-title')?.textContent?.split(preset.title).length).toBe(2);
    // the preset's expected outcome is said not to be written for it, not struck out
    expect(expected()?.getAttribute('data-applies')).toBe('false');
    expect(expected()?.classList.contains('not-applicable')).toBe(false);
    expect(expected()?.querySelector('summary')?.textContent).toContain('not for this counterexample');

    act(() => simStore.getState().setLanguage('ko'));
    await page.settle();
    expect(editedFrom()?.querySelector('.edited-badge')?.textContent).toBe('깨뜨려 보기로 찾은 반례');
    expect(editedFrom()?.getAttribute('title')).toContain('깨뜨려 보기');
    expect(expected()?.querySelector('summary')?.textContent).toContain('이 반례를 두고 쓴 설명은 아닙니다');

    // a change the person makes: their run now, edited from the preset
    act(() => simStore.getState().fork((s) => setConfigValues(s, { scope: 'client', client: 'billing' }, { 'max.poll.records': 7 })));
    await page.settle();
    expect(simStore.getState().scenario?.foundBy).toBeUndefined();
    expect(editedFrom()?.getAttribute('data-origin')).toBe('edited');
    expect(editedFrom()?.querySelector('.edited-badge')?.textContent).toBe('수정됨');
    act(() => simStore.getState().setLanguage('en'));
    await page.settle();
  });
});
