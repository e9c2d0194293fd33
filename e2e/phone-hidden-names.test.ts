/**
 * What a phone hides from the eye but not from a screen reader (the class visually-hidden-phone):
 * the theme select's name (the select shows its value) and the A/B settings table's column headers
 * (each card names its values). At 390 px wide both are 1 px boxes while the select keeps its
 * accessible name; at 1280 px both are shown whole.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSession, openAt, PHONE } from './ui-helpers';

const session = browserSession();

const widthOf = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())?.width ?? 0;

describe('names hidden on a phone only', () => {
  for (const [viewport, phone] of [
    [PHONE, true],
    [{ width: 1280, height: 900 }, false],
  ] as const)
    it(`${viewport.width} px wide: the theme’s name and the A/B headers ${phone ? 'hidden to the eye, named for a screen reader' : 'shown'}`, async () => {
      const { page, errors } = await openAt(session.browser, '#preset=opening-story&lang=en', viewport);
      // the select is named by its label either way
      await expect.poll(() => page.getByRole('combobox', { name: 'Theme' }).count()).toBe(1);
      const theme = await widthOf(page, '.settings-page .inline-control > span');
      if (phone) expect(theme).toBeLessThanOrEqual(1);
      else expect(theme).toBeGreaterThan(20);
      await page.getByTestId('open-compare').click();
      await page.getByTestId('compare-view').getByTestId('compare-settings').waitFor();
      const header = await widthOf(page, '[data-testid="compare-view"] [data-testid="compare-settings"] thead');
      if (phone) expect(header).toBeLessThanOrEqual(1);
      else expect(header).toBeGreaterThan(100);
      expect(await page.getByRole('columnheader', { name: 'Setting' }).count()).toBeGreaterThanOrEqual(1);
      expect(errors).toEqual([]);
      await page.close();
    });
});
