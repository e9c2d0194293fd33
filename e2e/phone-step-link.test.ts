/**
 * On a phone, a step link ("Caused at: #34" in the verdict) shows what happened at that step: the
 * page brings the narration — that step's sentence — into view under the playback bar. The verdict
 * is two screens below the narration on a phone, and the link used to move the run to the step
 * while the page stayed at the verdict, now "as of step 34": the sentence the link promises was out
 * of sight above. On a wide screen the narration is always in view and the page does not move.
 * In English and Korean.
 */
import type { Browser } from 'playwright-core';
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

describe('a step link shows its step’s sentence', () => {
  for (const language of ['en', 'ko'] as const)
    it(`390×844, ${language}: tapping "Caused at" in the verdict scrolls the narration of that step into view`, async () => {
      const page = await browser.newPage({ viewport: PHONE, hasTouch: true, isMobile: true });
      const errors = watchErrors(page);
      await gotoWorkspace(page, `${inject('baseUrl')}#preset=db-sink-duplicate&lang=${language}`);
      await page.getByTestId('verdict').waitFor();
      await everyPanel(page);
      await page.locator('.transport button[aria-keyshortcuts="End"]').tap();
      await expect.poll(async () => (await position(page)).step).toBeGreaterThan(0);
      const link = page.getByTestId('verdict').locator('button.step-link').first();
      await link.scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(800);
      const target = Number((await link.innerText()).replace('#', ''));
      await link.tap();
      await expect.poll(async () => (await position(page)).step).toBe(target);
      // the narration of that step, under the sticky bar and inside the screen
      const bar = page.locator('section.playback');
      const narration = page.locator('section.narration');
      await expect
        .poll(async () => {
          const b = await bar.boundingBox();
          const n = await narration.boundingBox();
          return b !== null && n !== null && n.y >= b.y + b.height - 1 && n.y + Math.min(n.height, 80) <= PHONE.height;
        })
        .toBe(true);
      expect(await page.locator('.narration-meta').innerText()).toContain(`#${target} `);
      await screenshot(page, `phone-step-link-${language}`);
      expect(errors).toEqual([]);
      await page.close();
    });

  it('1280×800: the link moves the run, and the page stays where it is', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = watchErrors(page);
    await gotoWorkspace(page, `${inject('baseUrl')}#preset=db-sink-duplicate&lang=en`);
    await page.getByTestId('verdict').waitFor();
    await page.keyboard.press('End');
    const link = page.getByTestId('verdict').locator('button.step-link').first();
    await link.scrollIntoViewIfNeeded();
    const side = page.locator('aside.side-column');
    const sideTop = await side.evaluate((e) => e.scrollTop);
    const target = Number((await link.innerText()).replace('#', ''));
    await link.click();
    await expect.poll(async () => (await position(page)).step).toBe(target);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await side.evaluate((e) => e.scrollTop)).toBe(sideTop);
    expect(errors).toEqual([]);
    await page.close();
  });
});
