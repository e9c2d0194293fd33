// @vitest-environment happy-dom
/**
 * "Break it" from a gallery card searches that card's preset while the page behind still shows the
 * scenario open before: the panel names the searched preset by its title (not only its id), in English
 * and Korean, and says when it is not the run behind it.
 */
import { act, createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { PRESET_TEXT_KO } from '../../src/sim/presets/ko';
import { simStore } from '../../src/store/simStore';
import { openBreakIt } from '../../src/ui/search/BreakItButton';
import { BreakItPanel } from '../../src/ui/search/BreakItPanel';
import { breakItStore } from '../../src/ui/search/breakItStore';
import { pageInDom } from './pageInDom';

const page = pageInDom();
afterEach(() => {
  act(() => breakItStore.getState().hide());
});

const ON_SCREEN = 'opening-story';
const SEARCHED = 'lost-ack-idempotent';

function preset(id: string) {
  const p = findPreset(id);
  if (!p) throw new Error(`no preset ${id}`);
  return p;
}

async function openFromCard(): Promise<string> {
  act(() => simStore.getState().load(preset(ON_SCREEN).scenario));
  await page.settle(30);
  page.render(createElement(BreakItPanel));
  // as the gallery card's Break it button does
  act(() => openBreakIt(preset(SEARCHED).scenario, SEARCHED));
  await page.settle();
  return page.host.querySelector('[data-testid="break-it-target"]')?.textContent ?? '';
}

describe('Break it names the preset it searches', () => {
  it('by its English title and id, and says it is not the run behind', async () => {
    const text = await openFromCard();
    expect(text).toContain(`Searches: ${preset(SEARCHED).title} (${SEARCHED})`);
    expect(text).not.toContain(preset(ON_SCREEN).title);
    expect(page.host.querySelector('[data-testid="break-it-not-on-screen"]')?.textContent).toBe('Not the run open behind this panel.');
  });

  it('by its Korean title in Korean', async () => {
    act(() => simStore.getState().setLanguage('ko'));
    const title = PRESET_TEXT_KO[SEARCHED]?.title;
    expect(title).toBeTruthy();
    const text = await openFromCard();
    expect(text).toContain(`탐색 대상: ${title} (${SEARCHED})`);
    expect(page.host.querySelector('[data-testid="break-it-not-on-screen"]')?.textContent).toBe(
      '뒤에 열려 있는 실행과 다른 시나리오입니다.',
    );
  });

  it('the scenario on screen: its title, and no "not the run behind"', async () => {
    act(() => simStore.getState().load(preset(ON_SCREEN).scenario));
    await page.settle(30);
    page.render(createElement(BreakItPanel));
    act(() => openBreakIt(preset(ON_SCREEN).scenario));
    await page.settle();
    expect(page.host.querySelector('[data-testid="break-it-target"]')?.textContent).toContain(preset(ON_SCREEN).title);
    expect(page.host.querySelector('[data-testid="break-it-not-on-screen"]')).toBeNull();
  });
});
