/**
 * A phone at 390×844: the header is compact (the language, the theme and help beside "EOS Lab", the
 * run's actions wrapped under the title) and the playback bar short, so the timeline — its first partition lane whole — starts on the first screen;
 * and the playback bar stays on screen (position: sticky) while the panels scroll under it, its
 * buttons still working there. In English and Korean. The header used to take 324 px and the bar
 * 253 px, which left the first lane below the first screen, and the bar scrolled away with the page.
 * Every control of the header is on the first screen without scrolling anything sideways, Break it
 * among them: the header's buttons used to be one row that scrolled sideways, Break it starting past
 * the screen's right edge, so a person on a phone never learnt it was there.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gotoWorkspace, launchBrowser, screenshot, watchErrors } from './browser';
import { everyPanel, position } from './ui-helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PHONE = { width: 390, height: 844 };

async function openPhone(id: string, language: 'en' | 'ko'): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: PHONE });
  const errors = watchErrors(page);
  await gotoWorkspace(page, `${inject('baseUrl')}#preset=${id}&lang=${language}`);
  await page.getByTestId('verdict').waitFor();
  await page.locator('[data-testid="timeline"] .tl-lane-label').first().waitFor();
  await everyPanel(page);
  return { page, errors };
}

const box = async (page: Page, selector: string) => {
  const b = await page.locator(selector).first().boundingBox();
  if (!b) throw new Error(`${selector} is not shown`);
  return b;
};

describe('a phone at 390×844: the first screen and the playback bar', () => {
  for (const [id, language] of [
    ['ctp-exactly-once-crash', 'en'],
    ['ctp-exactly-once-crash', 'ko'],
    ['zombie-fencing', 'en'],
  ] as const)
    it(`${id} (${language}): the timeline starts on the first screen; the bar stays in view while the page scrolls`, async () => {
      const { page, errors } = await openPhone(id, language);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      // the timeline's top, and its first partition lane's name whole, inside the first 844 px
      const timeline = await box(page, '[data-testid="timeline"]');
      expect(timeline.y).toBeLessThan(PHONE.height);
      const firstLane = await box(page, '[data-testid="timeline"] .tl-lane-label');
      expect(firstLane.y + firstLane.height).toBeLessThanOrEqual(PHONE.height);
      // header and bar together leave more than half of the screen to the run
      const bar = await box(page, 'section.playback');
      expect(bar.y + bar.height).toBeLessThanOrEqual(PHONE.height / 2);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      // every control of the header inside the screen, none in a row scrolled sideways
      const controls = await page.locator('.app-header .settings').evaluate((settings) =>
        [...settings.querySelectorAll('button, select')].map((c) => {
          const r = c.getBoundingClientRect();
          let scrolled = false;
          for (let e = c.parentElement; e && e !== document.body; e = e.parentElement)
            if (e.scrollWidth > e.clientWidth + 1) scrolled = true;
          return {
            name: c.getAttribute('aria-label') ?? c.textContent ?? '',
            left: r.left,
            right: r.right,
            top: r.top,
            bottom: r.bottom,
            scrolled,
          };
        }),
      );
      expect(controls.length).toBeGreaterThanOrEqual(10);
      for (const c of controls) {
        expect(c.left, c.name).toBeGreaterThanOrEqual(0);
        expect(c.right, c.name).toBeLessThanOrEqual(PHONE.width);
        expect(c.bottom, c.name).toBeLessThanOrEqual(PHONE.height);
        expect(c.scrolled, c.name).toBe(false);
      }
      const breakIt = page.getByTestId('open-break-it');
      expect(await breakIt.innerText()).toBe(language === 'en' ? 'Break it' : '깨뜨려 보기');
      const breakItBox = await breakIt.boundingBox();
      if (!breakItBox) throw new Error('Break it is not shown');
      expect(breakItBox.x).toBeGreaterThanOrEqual(0);
      expect(breakItBox.x + breakItBox.width).toBeLessThanOrEqual(PHONE.width);
      expect(breakItBox.y + breakItBox.height).toBeLessThanOrEqual(PHONE.height);
      // and a real tap reaches it (nothing covers it): it opens Break it
      await breakIt.click();
      await page.getByTestId('break-it').waitFor();
      await page.keyboard.press('Escape');
      await page.getByTestId('break-it').waitFor({ state: 'hidden' });

      // scroll the page down past the timeline: the bar is still inside the viewport, at its top
      const scrollable = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
      expect(scrollable).toBeGreaterThan(1500);
      for (const y of [900, 1500, scrollable]) {
        await page.evaluate((to) => window.scrollTo(0, to), y);
        await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBeGreaterThan(800);
        const b = await box(page, 'section.playback');
        expect(b.y).toBeGreaterThanOrEqual(0);
        expect(b.y + b.height).toBeLessThanOrEqual(PHONE.height);
        expect(b.y).toBeLessThanOrEqual(1);
      }
      // and it works from there: Step forward (a real click, so nothing covers it) moves the run on
      const forward = page.locator('.transport button').nth(4);
      expect(await forward.getAttribute('aria-keyshortcuts')).toBe('ArrowRight');
      await forward.click();
      await expect.poll(async () => (await position(page)).step).toBeGreaterThan(0);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(800);
      await screenshot(page, `phone-sticky-${id}-${language}`);
      expect(errors).toEqual([]);
      await page.close();
    });
});
