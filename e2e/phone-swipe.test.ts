/**
 * On a phone (390×844, touch) a finger swiping up over a timeline scrolls the page, as it does beside
 * it: the message diagram and the partition logs fill most of the screen's width, and d3-zoom used
 * to cancel every touch move on them (with `touch-action: none`), so a swipe that started on a
 * diagram did nothing. A sideways drag still pans a zoomed-in view, and a tap still shows details.
 * Touches are Chromium's own (DevTools Input.dispatchTouchEvent), so the browser decides what scrolls.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gotoWorkspace, launchBrowser, watchErrors } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function open(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await gotoWorkspace(page, `${inject('baseUrl')}#preset=zombie-fencing&step=200`);
  await page.getByTestId('msc').locator('canvas[role="img"]').waitFor();
  await page.waitForTimeout(500);
  return { context, page, errors };
}

/** One finger from (x, y) moved by (dx, dy) in ten steps, then lifted. */
async function swipe(context: BrowserContext, page: Page, x: number, y: number, dx: number, dy: number): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  for (let i = 1; i <= 10; i++) {
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: [{ x: Math.round(x + (dx * i) / 10), y: Math.round(y + (dy * i) / 10) }],
    });
    await page.waitForTimeout(16);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await page.waitForTimeout(300);
  await cdp.detach();
}

async function middleOf(locator: Locator): Promise<{ x: number; y: number }> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not shown');
  return { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + Math.min(box.height / 2, 120)) };
}

describe('timelines on a phone: a vertical swipe scrolls the page', () => {
  for (const panel of ['msc', 'logs'] as const)
    it(`${panel}: swiping up over the diagram scrolls the page down`, async () => {
      const { context, page, errors } = await open();
      const canvas = page.getByTestId(panel).locator('canvas').last();
      await canvas.scrollIntoViewIfNeeded();
      const at = await middleOf(canvas);
      const before = await page.evaluate(() => window.scrollY);
      await swipe(context, page, at.x, at.y, 0, -200);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(before + 100);
      expect(errors).toEqual([]);
      await context.close();
    });

  it('a sideways drag over the zoomed-in message diagram pans it, and the page does not scroll', async () => {
    const { context, page, errors } = await open();
    const msc = page.getByTestId('msc');
    await msc.getByRole('button', { name: 'Zoom into the messages' }).click();
    await msc.getByRole('button', { name: 'Zoom into the messages' }).click();
    const canvas = msc.locator('canvas').last();
    await canvas.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    const ticks = () => msc.locator('.tl-msc-axis text').allTextContents();
    const before = await ticks();
    const scrolled = await page.evaluate(() => window.scrollY);
    const at = await middleOf(canvas);
    await swipe(context, page, at.x + 60, at.y, -150, 0);
    await expect.poll(ticks).not.toEqual(before);
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
    expect(errors).toEqual([]);
    await context.close();
  });
});
