// @vitest-environment happy-dom
/**
 * The injection sheet (phone width) names itself once: its own heading "Inject a failure" / "장애 주입",
 * not that heading again from the panel inside it. At desktop width the panel keeps its heading.
 */
import { act, createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { DetailsPanel } from '../../src/ui/details/DetailsPanel';
import { panelStore } from '../../src/ui/panels';
import { pageInDom } from './pageInDom';

const page = pageInDom();
afterEach(() => {
  act(() => panelStore.getState().setInjectSheet(false));
});

function headingsSaying(root: Element | null | undefined, text: string): number {
  return [...(root?.querySelectorAll('h1, h2, h3, h4') ?? [])].filter((h) => h.textContent?.trim() === text).length;
}

async function openSheet(): Promise<Element | null> {
  const preset = findPreset('opening-story');
  if (!preset) throw new Error('no preset');
  act(() => simStore.getState().load(preset.scenario));
  await page.settle(30);
  page.render(createElement(DetailsPanel));
  act(() => panelStore.getState().setInjectSheet(true));
  await page.settle(40);
  const sheet = page.host.querySelector('[data-testid="inject-sheet"]');
  // the panel inside the sheet has loaded
  expect(sheet?.querySelector('.inject-panel')).not.toBeNull();
  return sheet;
}

describe('the injection sheet', () => {
  it('shows "장애 주입" once in Korean', async () => {
    act(() => simStore.getState().setLanguage('ko'));
    const sheet = await openSheet();
    expect(headingsSaying(sheet, '장애 주입')).toBe(1);
  });

  it('shows "Inject a failure" once in English; the desktop panel keeps its own heading', async () => {
    const sheet = await openSheet();
    expect(headingsSaying(sheet, 'Inject a failure')).toBe(1);
    expect(headingsSaying(page.host.querySelector('.inject-slot'), 'Inject a failure')).toBe(1);
  });
});
