/**
 * The timeline panels' zoom buttons (−, +, Fit) stay together when a toolbar wraps. At 1280 px, at
 * the end of lost-ack-idempotent, the message panel's toolbar (then "Background traffic
 * (278 messages hidden)") wrapped before Fit, which stood alone on a line under the others.
 */
import { describe, expect, it } from 'vitest';
import { browserSession, openAt } from './ui-helpers';

const session = browserSession();

describe('the zoom buttons of the timeline', () => {
  for (const [width, height, language] of [
    [1280, 900, 'en'],
    [1100, 900, 'ko'],
    [390, 844, 'ko'],
  ] as const)
    it(`${width} px, ${language}: −, + and Fit on one line in both panels`, async () => {
      const { page, errors } = await openAt(session.browser, `#preset=lost-ack-idempotent&lang=${language}`, { width, height });
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
