/**
 * The language a person chooses on the page (English / 한국어) is the one a later load opens in when
 * its link names none: chose 한국어, then a `#preset=<id>` link opened in a new tab opens in Korean
 * (it opened in the browser's language, English). A link's own language (`&lang=en`) still wins.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gotoWorkspace, launchBrowser, watchErrors } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const pageLanguage = (page: Page) => page.evaluate(() => document.documentElement.lang);

describe('a link without a language opens in the chosen one', () => {
  it('chose 한국어, then #preset=… in a new tab: Korean; with &lang=en: English', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    const first = await context.newPage();
    const errors = watchErrors(first);
    await first.goto(inject('baseUrl'));
    await first.getByTestId('verdict').waitFor();
    expect(await pageLanguage(first)).toBe('en');
    await first.getByRole('button', { name: '한국어' }).click();
    await expect.poll(() => pageLanguage(first)).toBe('ko');

    const second = await context.newPage();
    await second.goto(`${inject('baseUrl')}#preset=lost-ack-idempotent`);
    await second.getByTestId('verdict').waitFor();
    await expect.poll(() => pageLanguage(second)).toBe('ko');

    const third = await context.newPage();
    await third.goto(`${inject('baseUrl')}#preset=lost-ack-idempotent&lang=en`);
    await third.getByTestId('verdict').waitFor();
    await expect.poll(() => pageLanguage(third)).toBe('en');

    // choosing English again is kept the same way
    await third.getByRole('button', { name: 'English' }).click();
    const fourth = await context.newPage();
    await fourth.goto(`${inject('baseUrl')}#preset=lost-ack-idempotent`);
    await fourth.getByTestId('verdict').waitFor();
    await expect.poll(() => pageLanguage(fourth)).toBe('en');
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});

describe("the page's query names the language (?lang=ko, docs/i18n.md)", () => {
  it('?lang=ko with #preset=…, alone, and with #gallery: Korean once the workspace has taken over', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    for (const address of ['?lang=ko#preset=transaction-timeout', '?lang=ko', '?lang=ko#gallery']) {
      const page = await context.newPage();
      const errors = watchErrors(page);
      // the query's language used to be dropped: the page opened in the browser's English
      await gotoWorkspace(page, `${inject('baseUrl')}${address}`);
      expect(await pageLanguage(page), address).toBe('ko');
      expect(
        await page.evaluate(
          () => (window as unknown as { __eosLab: { store: { getState(): { language: string } } } }).__eosLab.store.getState().language,
        ),
        address,
      ).toBe('ko');
      expect(errors, address).toEqual([]);
      await page.close();
    }
    await context.close();
  }, 90_000);
});
