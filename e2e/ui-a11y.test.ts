/**
 * The main view in both themes, at 1280×720 and at phone width: axe-core finds no violations, there
 * are no console errors, and screenshots are saved to test-artifacts/. With UPDATE_DOCS_SCREENSHOT=1
 * it also writes docs/screenshot.png, the README's picture (opening-story at the end of its run).
 */
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPreset, PRESETS } from '../src/sim/presets';
import { PRESET_TEXT_KO } from '../src/sim/presets/ko';
import { ARTIFACTS, gotoWorkspace, launchBrowser, watchErrors } from './browser';
import { axe, loadScenario, openPage, position, waitForStep } from './ui-helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(ARTIFACTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

describe('accessibility and screenshots of the main view', () => {
  for (const theme of ['light', 'dark'] as const)
    it(`${theme} theme at 1280×720: no axe violations`, async () => {
      const page = await openPage(browser);
      const errors = watchErrors(page);
      await loadScenario(page, findPreset('opening-story')?.scenario);
      await page.getByLabel('Theme').selectOption(theme);
      expect(await axe(page)).toEqual([]);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('End');
      const { total } = await position(page);
      await waitForStep(page, total);
      expect(await axe(page)).toEqual([]);
      await page.screenshot({ path: `${ARTIFACTS}/ui-main-${theme}-1280x720.png` });
      // the README's picture is refreshed on request only, so a test run never dirties the tree
      if (theme === 'light' && process.env.UPDATE_DOCS_SCREENSHOT === '1') await page.screenshot({ path: 'docs/screenshot.png' });
      // a transactional preset mid-run, with a selection and Korean
      await loadScenario(page, findPreset('zombie-fencing')?.scenario);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('m');
      await page.locator('[data-actor="txn-coordinator"] .actor-head').click();
      await page.getByRole('button', { name: '한국어' }).click();
      expect(await axe(page)).toEqual([]);
      await page.screenshot({ path: `${ARTIFACTS}/ui-zombie-fencing-ko-${theme}.png` });
      await page.getByRole('button', { name: 'English' }).click();
      // the help dialog, open
      await page.keyboard.press('?');
      await page.getByRole('dialog').waitFor();
      expect(await axe(page)).toEqual([]);
      await page.screenshot({ path: `${ARTIFACTS}/ui-help-${theme}.png` });
      expect(errors).toEqual([]);
      await page.close();
    });

  it('at 1280×720 the header stays compact with every button: the longest title in at most two lines, the workspace keeps most of the height', async () => {
    const page = await openPage(browser, { width: 1280, height: 720 });
    const errors = watchErrors(page);
    // the longest preset title of each language, beside every header button (Break it, Import dump, Compare A/B, …)
    const longest = (titleOf: (id: string) => string) => PRESETS.reduce((a, b) => (titleOf(b.id).length > titleOf(a.id).length ? b : a));
    const longestIn = {
      en: longest((id) => findPreset(id)?.title ?? ''),
      ko: longest((id) => PRESET_TEXT_KO[id]?.title ?? ''),
    };
    for (const language of ['en', 'ko'] as const) {
      await loadScenario(page, longestIn[language].scenario);
      await page.evaluate((l) => window.__eosLab?.store.getState().setLanguage(l), language);
      const title = page.locator('.scenario-title h2');
      await title.waitFor();
      const lines = await title.evaluate((h) =>
        Math.round(h.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(h).lineHeight)),
      );
      expect(lines, `${language}: ${longestIn[language].id}`).toBeLessThanOrEqual(2);
      const header = await page.locator('.app-header').boundingBox();
      const workspace = await page.locator('.workspace').boundingBox();
      // two lines of title and up to three of question (the longest Korean question takes three)
      expect(header?.height ?? 999, language).toBeLessThanOrEqual(140);
      expect(workspace?.height ?? 0, language).toBeGreaterThanOrEqual(440);
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('phone width: panels stacked, nothing wider than the screen, no axe violations', async () => {
    const page = await openPage(browser, { width: 390, height: 844 });
    const errors = watchErrors(page);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('End');
    const { total } = await position(page);
    await waitForStep(page, total);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const [timeline, verdict] = await Promise.all([
      page.locator('.timeline-column').boundingBox(),
      page.getByTestId('verdict').boundingBox(),
    ]);
    expect(timeline && verdict && verdict.y > timeline.y).toBe(true);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: `${ARTIFACTS}/ui-main-phone.png`, fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('honours prefers-reduced-motion', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, reducedMotion: 'reduce' });
    const { inject } = await import('vitest');
    await gotoWorkspace(page, inject('baseUrl'));
    await page.getByTestId('verdict').waitFor();
    const transitions = await page.evaluate(
      () =>
        [...document.querySelectorAll('button, .process, .narration')].filter((e) => getComputedStyle(e).transitionDuration !== '0s')
          .length,
    );
    expect(transitions).toBe(0);
    expect(await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches)).toBe(true);
    await page.close();
  });
});
