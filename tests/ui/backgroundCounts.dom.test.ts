// @vitest-environment happy-dom
/**
 * The two counts of background traffic side by side: the playback bar's "Hide background steps" switch counts steps,
 * the message diagram's toggle counts messages (envelopes). Each says what it counts, in English and
 * Korean, so the two numbers do not read as one number that disagrees with itself.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { pageInDom } from './pageInDom';

const page = pageInDom();
const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
const skip = () => text(page.host.querySelector('[data-testid="skip-idle"]'));
const background = () =>
  text(
    [...page.host.querySelectorAll('[data-testid="msc"] button')].find((b) =>
      /Background messages|백그라운드 메시지/.test(b.textContent ?? ''),
    ),
  );

describe('background steps and background messages', () => {
  it('each count names its unit', async () => {
    const story = findPreset('opening-story');
    if (!story) throw new Error('no preset');
    act(() => simStore.getState().load(story.scenario));
    page.render();
    await page.settle(100);
    act(() => simStore.getState().seek(simStore.getState().trace?.steps.length ?? 0));
    await page.settle(100);
    expect(skip()).toMatch(/^Hide background steps \(\d[\d,]*\)$/);
    expect(background()).toMatch(/^Background messages \(\d[\d,]* hidden\)$/);
    act(() => simStore.getState().setLanguage('ko'));
    await page.settle();
    expect(skip()).toMatch(/^백그라운드 단계 숨김 \(\d[\d,]*\)$/);
    expect(background()).toMatch(/^백그라운드 메시지 \(\d[\d,]*개 숨김\)$/);
  });
});
