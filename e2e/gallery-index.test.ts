/**
 * The gallery opens with the list of its problems — "Pick the problem you have", as its first
 * sentence says — each a button that brings its row of scenarios into view and moves focus there.
 * The gallery is twelve problem rows and 54 scenario cards, 14,000 px tall at 1280×800; a person
 * whose consumer got an order twice had to scroll past three rows of producer and transaction
 * scenarios, unnamed until reached, to find "the application published the same business event
 * twice". At 1280×800 in English (by keyboard) and at 390×844 in Korean (by touch).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gotoWorkspace, launchBrowser, screenshot, watchErrors } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function openGallery(page: Page, language: 'en' | 'ko') {
  await gotoWorkspace(page, `${inject('baseUrl')}#preset=lost-ack-idempotent&lang=${language}`);
  await page.getByTestId('verdict').waitFor();
  await page.getByTestId('open-gallery').click();
  const gallery = page.getByTestId('gallery');
  await gallery.waitFor();
  return gallery;
}

const inView = async (page: Page, selector: string, height: number) => {
  const b = await page.locator(selector).first().boundingBox();
  return b !== null && b.y >= 0 && b.y + Math.min(b.height, 40) <= height;
};

describe('the gallery’s list of problems', () => {
  it('1280×800, en: every problem listed on the first screen; Tab and Enter on one bring its row into view, focused', async () => {
    const size = { width: 1280, height: 800 };
    const page = await browser.newPage({ viewport: size });
    const errors = watchErrors(page);
    const gallery = await openGallery(page, 'en');
    const index = gallery.getByRole('navigation');
    await index.waitFor();
    const entries = index.getByRole('button');
    // one entry per row, "More scenarios" included, each naming its problem as the row does
    const rows = await gallery.locator('.eos-defense').count();
    expect(rows).toBeGreaterThanOrEqual(12);
    expect(await entries.count()).toBe(rows);
    const problem = 'The application published the same business event twice';
    const entry = entries.filter({ hasText: problem });
    expect(await entry.count()).toBe(1);
    // the list is on the dialog's first screen, this entry whole
    const box = await entry.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.y ?? 1e9) + (box?.height ?? 0)).toBeLessThanOrEqual(size.height);
    expect(await inView(page, '[data-row="business-duplicate"] h3', size.height)).toBe(false);
    // by keyboard: Tab from the close button reaches the list
    await page.keyboard.press('Tab');
    let reached = false;
    for (let i = 0; i < 20 && !reached; i++) {
      reached = await entry.evaluate((e) => e === document.activeElement);
      if (!reached) await page.keyboard.press('Tab');
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => inView(page, '[data-row="business-duplicate"] h3', size.height)).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.closest('[data-row]')?.getAttribute('data-row'))).toBe('business-duplicate');
    // the row's heading is not under the dialog's own sticky heading
    const head = await gallery.locator('.eos-modal-head').boundingBox();
    const rowHead = await gallery.locator('[data-row="business-duplicate"] h3').boundingBox();
    expect((rowHead?.y ?? 0) + 1).toBeGreaterThanOrEqual((head?.y ?? 0) + (head?.height ?? 0));
    // and its scenario is a Tab away
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toMatch(/^open-/);
    await screenshot(page, 'gallery-index-en');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('390×844, ko: the list speaks Korean; a tap on a problem shows its scenarios, and one opens', async () => {
    const size = { width: 390, height: 844 };
    const page = await browser.newPage({ viewport: size, hasTouch: true, isMobile: true });
    const errors = watchErrors(page);
    const gallery = await openGallery(page, 'ko');
    const index = gallery.getByRole('navigation');
    await index.waitFor();
    expect(await index.getAttribute('aria-label')).toMatch(/[가-힣]/);
    const entry = index.getByRole('button').filter({ hasText: '애플리케이션' }).first();
    expect(await entry.innerText()).toMatch(/[가-힣]/);
    await entry.tap();
    await expect.poll(() => inView(page, '[data-row="business-duplicate"] h3', size.height)).toBe(true);
    await gallery.getByTestId('open-opening-story').tap();
    await gallery.waitFor({ state: 'hidden' });
    await expect.poll(() => page.locator('header').innerText()).toContain('멱등성을 켰는데도');
    await screenshot(page, 'gallery-index-ko-phone');
    expect(errors).toEqual([]);
    await page.close();
  });
});
