// @vitest-environment happy-dom
/**
 * One view at a time (happy-dom): over the dump's form the header's Configuration, Share and Embed
 * wait and say why, in English and Korean (they act on the run the dump hides); Compare A/B replaces
 * the dump, so the header names the comparison's scenario, not "Importing a partition dump".
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { compareStore } from '../../src/ui/compare/compareStore';
import { dumpStore } from '../../src/ui/dump/dumpStore';
import { pageInDom } from './pageInDom';

const page = pageInDom();
const button = (id: string) => page.host.querySelector<HTMLButtonElement>(`[data-testid="${id}"]`);
const heading = () => page.host.querySelector('.app-header .scenario-title h2')?.textContent ?? '';

describe('the toolbar over the dump view', () => {
  it('Configuration, Share and Embed wait with a reason; Compare A/B closes the dump', async () => {
    const zombie = findPreset('zombie-fencing');
    if (!zombie) throw new Error('no preset');
    act(() => simStore.getState().load(zombie.scenario));
    page.render();
    await page.settle();
    expect(button('open-config')?.disabled).toBe(false);
    expect(button('open-share')?.disabled).toBe(false);

    act(() => button('import-dump')?.click());
    expect(heading()).toBe('Importing a partition dump');
    for (const id of ['open-config', 'open-share', 'open-embed']) {
      expect(button(id)?.disabled, id).toBe(true);
      expect(button(id)?.title, id).toMatch(/close the dump view/);
    }
    act(() => simStore.getState().setLanguage('ko'));
    expect(button('open-config')?.title).toContain('덤프 화면을 닫으세요');
    expect(button('open-share')?.title).toContain('덤프 화면을 닫으세요');
    act(() => simStore.getState().setLanguage('en'));

    act(() => button('open-compare')?.click());
    await page.settle();
    expect(dumpStore.getState().importing).toBe(false);
    expect(compareStore.getState().open).toBe(true);
    expect(heading()).toBe(zombie.title);
    expect(button('open-config')?.disabled).toBe(false);

    // and the other way: Import dump over the comparison closes it
    act(() => button('import-dump')?.click());
    await page.settle();
    expect(compareStore.getState().open).toBe(false);
    expect(dumpStore.getState().importing).toBe(true);
    expect(heading()).toBe('Importing a partition dump');
    act(() => dumpStore.getState().close());
  });
});

describe('the Compare A/B button', () => {
  it('shows as pressed while the comparison is on screen (aria-pressed, the accent fill), and pressing it again closes it', async () => {
    const zombie = findPreset('zombie-fencing');
    if (!zombie) throw new Error('no preset');
    act(() => simStore.getState().load(zombie.scenario));
    page.render();
    await page.settle();
    const compare = () => button('open-compare') as HTMLButtonElement;
    expect(compare().getAttribute('aria-pressed')).toBe('false');
    act(() => compare().click());
    await page.settle();
    expect(compareStore.getState().open).toBe(true);
    expect(compare().getAttribute('aria-pressed')).toBe('true');
    // the same rule that fills the language toggle's pressed button
    expect(compare().matches('button[aria-pressed="true"]')).toBe(true);
    act(() => compare().click());
    await page.settle();
    expect(compareStore.getState().open).toBe(false);
    expect(compare().getAttribute('aria-pressed')).toBe('false');
  });
});
