/**
 * The timeline panels' zoom buttons (−, +, Fit) stay together when a toolbar wraps. At 1280 px, at
 * the end of lost-ack-idempotent, the message panel's toolbar ("Background traffic (278 messages
 * hidden)") wrapped before Fit, which stood alone on a line under the others.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gotoWorkspace, launchBrowser, watchErrors } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the zoom buttons of the timeline', () => {
  for (const [width, height, language] of [
    [1280, 900, 'en'],
    [1100, 900, 'ko'],
    [390, 844, 'ko'],
  ] as const)
    it(`${width} px, ${language}: −, + and Fit on one line in both panels`, async () => {
      const page = await browser.newPage({ viewport: { width, height } });
      const errors = watchErrors(page);
      await gotoWorkspace(page, `${inject('baseUrl')}#preset=lost-ack-idempotent&lang=${language}`);
      await page.getByTestId('verdict').waitFor();
      await page.evaluate(() => {
        const hook = (window as unknown as { __eosLab?: { store: { getState(): { seek(s: number): void } } } }).__eosLab;
        hook?.store.getState().seek(1_000_000);
      });
      await expect.poll(() => page.getByTestId('step-counter').innerText()).toMatch(/(\d[\d,]*) \/ \1/);
      for (const toolbar of await page.locator('.tl-toolbar').all()) {
        // the toolbar's last three buttons: −, + and Fit
        const tops = await toolbar
          .locator('button')
          .evaluateAll((buttons) => buttons.slice(-3).map((b) => Math.round(b.getBoundingClientRect().top)));
        expect(tops).toHaveLength(3);
        expect(new Set(tops).size, `tops ${tops.join(', ')}`).toBe(1);
      }
      expect(errors).toEqual([]);
      await page.close();
    });
});
