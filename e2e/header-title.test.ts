/**
 * The header at 1600 px: the scenario's title beside every header button is not squeezed into a
 * column three lines high next to the tagline (the tagline gives way below 1920 px); at 1920 px the
 * tagline is back and the title still takes at most two lines.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { encodeLink } from '../src/sim/scenario/link';
import { gotoWorkspace, launchBrowser, screenshot, watchErrors } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the header on a wide screen', () => {
  for (const [width, tagline] of [
    [1600, false],
    [1920, true],
  ] as const)
    it(`at ${width} px the title of min-insync-blocks-writes takes at most two lines (tagline ${tagline ? 'shown' : 'hidden'})`, async () => {
      const preset = findPreset('min-insync-blocks-writes');
      if (!preset) throw new Error('no preset');
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const errors = watchErrors(page);
      await gotoWorkspace(page, `${inject('baseUrl')}${encodeLink(preset.scenario, { step: 0, selection: null, language: 'en' })}`);
      await page.getByTestId('verdict').waitFor();
      const title = page.locator('.scenario-title h2');
      const lines = await title.evaluate((h) =>
        Math.round(h.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(h).lineHeight)),
      );
      expect(lines).toBeLessThanOrEqual(2);
      expect(await page.locator('.tagline').isVisible()).toBe(tagline);
      await screenshot(page, `header-title-${width}`);
      expect(errors).toEqual([]);
      await page.close();
    });
});
