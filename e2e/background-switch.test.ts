/**
 * The playback bar's background-steps control reads as a state, not an action: a switch
 * (role="switch", aria-checked) labelled "Hide background steps (N)" — on by default, its track filled
 * — and in Korean "백그라운드 단계 숨김 (N)". It used to be a pressed button reading "Skip N background
 * steps", which says what pressing does rather than whether the steps are hidden.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { storySteps } from '../src/sim/trace/story';
import { appSession, loadScenario } from './ui-helpers';

const preset = findPreset('opening-story');
if (!preset) throw new Error('opening-story is missing');
const idle = storySteps(runScenario(preset.scenario)).filter((x) => !x).length;

describe('the "Hide background steps" switch', () => {
  const s = appSession();

  it('is a switch that names the state it turns on, in English and Korean', async () => {
    const page = s.page;
    await loadScenario(page, preset.scenario);
    const toggle = page.getByRole('switch', { name: `Hide background steps (${idle})` });
    await toggle.waitFor();
    expect(await toggle.getAttribute('data-testid')).toBe('skip-idle');
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    expect(await toggle.getAttribute('aria-pressed')).toBe(null);
    // the track shows the state: the knob sits right when on, left when off
    const knob = async () => {
      const [t, k] = await Promise.all([toggle.locator('.switch-track').boundingBox(), toggle.locator('.switch-knob').boundingBox()]);
      if (!t || !k) throw new Error('no switch track');
      return k.x + k.width / 2 > t.x + t.width / 2 ? 'right' : 'left';
    };
    await expect.poll(knob).toBe('right');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    expect(await page.evaluate(() => window.__eosLab?.store.getState().skipIdle)).toBe(false);
    await expect.poll(knob).toBe('left');
    // the words stay the same (they name the state the switch turns on, not what a press does)
    expect(await toggle.innerText()).toBe(`Hide background steps (${idle})`);
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');

    await page.evaluate(() => window.__eosLab?.store.getState().setLanguage('ko'));
    const ko = page.getByRole('switch', { name: `백그라운드 단계 숨김 (${idle})` });
    await ko.waitFor();
    expect(await ko.getAttribute('aria-checked')).toBe('true');
    await page.evaluate(() => window.__eosLab?.store.getState().setLanguage('en'));
    expect(s.errors).toEqual([]);
  });
});
