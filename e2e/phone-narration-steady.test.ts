/**
 * A phone at 390×844: stepping or playing through a run does not make the timeline under the
 * narration jump up and down. On a phone the narration is as tall as its sentence (the page scrolls,
 * not the box); it now keeps the tallest height it has had for this run at this width, so the
 * partition logs below it only ever move down, and only when a step needs more room than any before.
 * It used to follow each sentence, and the timeline — what an on-call engineer taps while the run
 * plays — moved by up to 100 px at every step. Every sentence is still shown whole. In English and
 * Korean.
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

describe('a phone: the timeline stays put while the narration changes', () => {
  for (const language of ['en', 'ko'] as const)
    it(`ctp-exactly-once-crash (${language}): 30 steps forward, the timeline never moves up; each sentence shown whole`, async () => {
      const page = await browser.newPage({ viewport: PHONE, hasTouch: true, isMobile: true });
      const errors = watchErrors(page);
      await gotoWorkspace(page, `${inject('baseUrl')}#preset=ctp-exactly-once-crash&lang=${language}`);
      await page.getByTestId('verdict').waitFor();
      await everyPanel(page);
      const timelineTop = () => page.getByTestId('timeline').evaluate((e) => Math.round(e.getBoundingClientRect().y));
      const forward = page.locator('.transport button[aria-keyshortcuts="ArrowRight"]');
      const tops = [await timelineTop()];
      const clipped: string[] = [];
      for (let i = 0; i < 30; i++) {
        const before = (await position(page)).step;
        await forward.tap();
        await expect.poll(async () => (await position(page)).step).toBeGreaterThan(before);
        // the layout of the step's sentence
        await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
        tops.push(await timelineTop());
        const box = await page.locator('section.narration').evaluate((e) => ({ scroll: e.scrollHeight, client: e.clientHeight }));
        if (box.scroll > box.client + 1) clipped.push(`step ${(await position(page)).step}: ${box.scroll} > ${box.client}`);
      }
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      const upward = tops.flatMap((y, i) => (i > 0 && y < (tops[i - 1] ?? 0) ? [`tap ${i}: ${tops[i - 1]} → ${y}`] : []));
      expect(upward).toEqual([]);
      expect(clipped).toEqual([]);
      await screenshot(page, `phone-narration-steady-${language}`);
      expect(errors).toEqual([]);
      await page.close();
    });
});
