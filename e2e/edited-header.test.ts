/**
 * An edited run's header names its title once: the scenario's title with an "edited" badge and the
 * way back to the preset after it, on the title's own last line — not the title, then "edited from
 * <the same title>" below it, two lines more on a phone. English and Korean, on a phone and a wide
 * screen. A run whose title is not its preset's still says which preset it was edited from.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { PRESET_TEXT_KO } from '../src/sim/presets/ko';
import { encodeLink } from '../src/sim/scenario/link';
import type { Scenario } from '../src/sim/scenario/schema';
import { ARTIFACTS, gotoWorkspace, launchBrowser, watchErrors } from './browser';
import { axe } from './ui-helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const story = findPreset('opening-story');
if (!story) throw new Error('no opening-story');
// another seed: what runs differs from the preset as shipped, so the run is edited (origin.ts)
const edited: Scenario = { ...story.scenario, seed: story.scenario.seed + 1 };

async function open(
  scenario: Scenario,
  language: 'en' | 'ko',
  size: { width: number; height: number },
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: size });
  const errors = watchErrors(page);
  await gotoWorkspace(page, `${inject('baseUrl')}${encodeLink(scenario, { step: 0, selection: null, language })}`);
  await page.getByTestId('verdict').waitFor();
  await page.getByTestId('edited-from').waitFor();
  return { page, errors };
}

/** How often `text` occurs in the header's title block, and whether the badge sits on the title's last line. */
async function header(page: Page, text: string): Promise<{ times: number; badgeOnTitleLine: boolean; badge: string }> {
  return page.locator('.scenario-title').evaluate((box, title) => {
    const lines = [...(box.querySelector('h2') as HTMLElement).getClientRects()];
    const last = lines[lines.length - 1] as DOMRect;
    const badge = (box.querySelector('.edited-badge') as HTMLElement).getBoundingClientRect();
    return {
      times: (box as HTMLElement).innerText.split(title).length - 1,
      badgeOnTitleLine: badge.top < last.bottom && badge.bottom > last.top,
      badge: (box.querySelector('.edited-badge') as HTMLElement).innerText,
    };
  }, text);
}

describe("an edited run's header", () => {
  for (const [language, size, title, badge] of [
    ['en', { width: 390, height: 844 }, story.title, 'edited'],
    ['ko', { width: 390, height: 844 }, PRESET_TEXT_KO['opening-story']?.title ?? '', '수정됨'],
    ['en', { width: 1280, height: 800 }, story.title, 'edited'],
  ] as const)
    it(`names the title once, the badge on its line (${language}, ${size.width} px)`, async () => {
      const { page, errors } = await open(edited, language, size);
      if (language === 'ko') await page.getByRole('heading', { name: title }).waitFor();
      expect(await header(page, title)).toEqual({ times: 1, badgeOnTitleLine: true, badge });
      // the way back to the preset as shipped is still there, and the hint says what "edited" means
      await expect.poll(() => page.getByTestId('reset-to-preset').isVisible()).toBe(true);
      expect(await page.getByTestId('edited-from').getAttribute('title')).toBeTruthy();
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.locator('.app-header').screenshot({ path: `${ARTIFACTS}/edited-header-${language}-${size.width}.png` });
      expect(await axe(page)).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    });

  it('a run titled otherwise still says which preset it was edited from', async () => {
    const { page, errors } = await open({ ...edited, title: 'My order test' }, 'en', { width: 390, height: 844 });
    await page.getByRole('heading', { name: 'My order test' }).waitFor();
    await expect.poll(() => page.getByTestId('edited-from').innerText()).toContain(`edited from ${story.title}`);
    expect(errors).toEqual([]);
    await page.close();
  });
});
