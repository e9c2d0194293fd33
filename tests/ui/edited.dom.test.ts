// @vitest-environment happy-dom
/**
 * What a person sees of an edited run (happy-dom): after a change the header marks the title (the
 * preset's, named once) "edited" and marks the preset's expected outcome as not describing this run,
 * in English and Korean; "Back to the preset" — or undoing the change — clears both. A run titled
 * otherwise says "edited from <preset>".
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { PRESET_TEXT_KO } from '../../src/sim/presets/ko';
import { setConfigValues } from '../../src/sim/scenario/edits';
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
});
