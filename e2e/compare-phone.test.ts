/**
 * A/B on a phone at 390×844: the settings B changes — the comparison's only controls — are on the
 * screen. Each setting is a row of its own (where and which setting, then A's value and B's
 * choice, each named), so no select lies to the right of the screen. The settings table used to keep
 * its four columns and scroll sideways inside its section, which left every B select off screen
 * with nothing to say it was there. In English and Korean; choosing B still makes the comparison.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gotoWorkspace, launchBrowser, screenshot, watchErrors } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PHONE = { width: 390, height: 844 };

describe('A/B on a phone: the B settings on screen', () => {
  for (const language of ['en', 'ko'] as const)
    it(`${language}: every B select inside the screen's width, named, and choosing one compares`, async () => {
      const page = await browser.newPage({ viewport: PHONE, hasTouch: true, isMobile: true });
      const errors = watchErrors(page);
      await gotoWorkspace(page, `${inject('baseUrl')}#preset=opening-story&lang=${language}`);
      await page.getByTestId('verdict').waitFor();
      await page.getByTestId('open-compare').click();
      const settings = page.getByTestId('compare-view').getByTestId('compare-settings');
      await settings.waitFor();
      const selects = settings.locator('select');
      expect(await selects.count()).toBeGreaterThanOrEqual(4);
      // nothing in the section lies beyond its right edge: it does not scroll sideways
      expect(await settings.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(1);
      for (const select of await selects.all()) {
        const box = await select.boundingBox();
        if (!box) throw new Error('a B select is not shown');
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      }
      // each row says which value is A's and which control is B's
      const row = settings.locator('tr', { has: page.getByTestId('setting-billing:isolation.level') });
      const rowText = await row.innerText();
      expect(rowText).toMatch(/\bA\b/);
      expect(rowText).toMatch(/\bB\b/);
      expect(rowText).toContain('billing');
      expect(rowText).toContain('isolation.level');
      // the page does not scroll sideways either
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await screenshot(page, `compare-phone-settings-${language}`);

      await settings.getByTestId('setting-billing:isolation.level').selectOption('read_committed');
      await expect
        .poll(() =>
          page.getByTestId('compare-view').locator('[data-testid="compare-verdict"] tr[data-layer="delivery"]').first().innerText(),
        )
        .toContain('read_committed');
      expect(errors).toEqual([]);
      await page.close();
    });
});
